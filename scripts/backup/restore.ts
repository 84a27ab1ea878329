// `npm run restore`'s work: a backup folder into an empty local state (docs/deploy.md "Backups and
// restore", docs/decisions/137). The migrations up to the backup's level, the rows, the search index,
// then the newer migrations of this checkout, then the R2 bodies the folder holds.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { localBindings, readProjectConfig } from "../local-bindings";
import { seedMarker } from "../local-env.mjs";
import { type MigratingDb, applyMigrations, migrationFiles } from "../migrate";
import { type Manifest, readManifest } from "./manifest";
import { type Bucket, restoreBucket } from "./r2";
import { type Database, loadRows } from "./restore-d1";

export interface RestoreOptions {
  folder: string;
  /** The local state to fill; it must hold no data yet. */
  stateDir: string;
  log?: (line: string) => void;
}

/** Refuses a state that already holds data: a restore never mixes with what is there. */
export function assertEmptyState(stateDir: string): void {
  const v3 = path.join(stateDir, "v3");
  if (existsSync(v3) && readdirSync(v3).length > 0) {
    throw new Error(
      `${stateDir} har allerede lokal data. Gjenopprett i en ny mappe (STATE_DIR=.wrangler/restore npm run restore -- <mappe>) ` +
        "eller slett den lokale dataen først med npm run reset.",
    );
  }
}

/** The backup's migrations must be the first of this checkout's: then the rows fit the schema they were read from. */
export function migrationsToStage(backupMigrations: string[], checkout: string[]): { first: string[]; later: string[] } {
  const fits = backupMigrations.length <= checkout.length && backupMigrations.every((m, i) => checkout[i] === m);
  if (!fits) {
    const differs = backupMigrations.find((m, i) => checkout[i] !== m) ?? backupMigrations.at(-1);
    throw new Error(
      `Sikkerhetskopien er tatt på migreringen ${differs}, som denne koden ikke har i samme rekkefølge. ` +
        "Sjekk ut koden sikkerhetskopien ble tatt med (eller en nyere som bygger på den), og prøv igjen.",
    );
  }
  return { first: checkout.slice(0, backupMigrations.length), later: checkout.slice(backupMigrations.length) };
}

/** Restores the folder into `stateDir` and returns its manifest. */
export async function restore(options: RestoreOptions): Promise<Manifest> {
  const log = options.log ?? (() => undefined);
  const manifest = readManifest(options.folder);
  assertEmptyState(options.stateDir);
  const project = await readProjectConfig();
  const checkout = migrationFiles(project.d1.migrationsDir);
  const { first, later } = migrationsToStage(manifest.database.migrations, checkout);
  const persist = path.join(options.stateDir, "v3");
  const withBodies = manifest.buckets.filter((b) => b.bodies);
  const bindings = await localBindings<{ DB: Database & MigratingDb } & Record<string, Bucket>>(persist, {
    d1: true,
    buckets: withBodies.map((b) => b.binding),
  });
  try {
    log(`D1: migrerer til sikkerhetskopiens nivå (${manifest.database.level ?? "ingen"})`);
    await applyMigrations(bindings.env.DB, project.d1.migrationsDir, first);
    await loadRows(bindings.env.DB, options.folder, manifest, log);
    for (const b of withBodies) {
      const put = await restoreBucket(bindings.env[b.binding], options.folder, b.objects);
      log(`R2 ${b.binding}: ${put} objekter lagt tilbake`);
    }
    if (later.length) {
      log(`D1: ${later.length} nyere migreringer fra denne koden (${later.at(-1)})`);
      await applyMigrations(bindings.env.DB, project.d1.migrationsDir, later);
    }
  } finally {
    await bindings.dispose();
  }
  for (const b of manifest.buckets.filter((b) => !b.bodies)) {
    log(`R2 ${b.binding}: sikkerhetskopien har bare listen over ${b.count} objekter (de ligger i bøtta ${b.bucket})`);
  }
  // npm start loads no demo data over restored data.
  writeFileSync(
    seedMarker(options.stateDir),
    `${JSON.stringify({ restoredFrom: path.resolve(options.folder), restoredAt: new Date().toISOString() }, null, 2)}\n`,
  );
  return manifest;
}
