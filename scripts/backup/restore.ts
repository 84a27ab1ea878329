// `npm run restore`'s work: a backup folder into an empty local state (docs/deploy.md "Backups and
// restore", docs/decisions/137). The migrations up to the backup's level, the rows, the search index,
// then the newer migrations of this checkout, then the R2 bodies the folder holds.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ProjectConfig, localBindings, readProjectConfig } from "../local-bindings";
import { WRANGLER_CONFIG, seedMarker } from "../local-env.mjs";
import { runWrangler } from "./d1-read";
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

/** The migrations of this checkout, in the order wrangler applies them. */
function checkoutMigrations(project: ProjectConfig): string[] {
  return readdirSync(project.d1.migrationsDir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
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

/** Applies `migrations` (a prefix of the checkout's) to the local D1 of `stateDir`. */
async function applyMigrations(project: ProjectConfig, stateDir: string, migrations: string[], all: boolean): Promise<void> {
  if (migrations.length === 0) return;
  const apply = (config: string) => runWrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir, "-c", config]);
  if (all) {
    await apply(WRANGLER_CONFIG);
    return;
  }
  // Only the first ones: a config of its own whose migrations folder holds just those (same database, same file).
  const dir = mkdtempSync(path.join(os.tmpdir(), "lekebytte-restore-"));
  try {
    mkdirSync(path.join(dir, "migrations"));
    for (const m of migrations) copyFileSync(path.join(project.d1.migrationsDir, m), path.join(dir, "migrations", m));
    const config = path.join(dir, "wrangler.json");
    writeFileSync(
      config,
      JSON.stringify({
        name: project.name,
        compatibility_date: project.compatibilityDate,
        d1_databases: [
          { binding: "DB", database_name: project.d1.databaseName, database_id: project.d1.databaseId, migrations_dir: "migrations" },
        ],
      }),
    );
    await apply(config);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Restores the folder into `stateDir` and returns its manifest. */
export async function restore(options: RestoreOptions): Promise<Manifest> {
  const log = options.log ?? (() => undefined);
  const manifest = readManifest(options.folder);
  assertEmptyState(options.stateDir);
  const project = await readProjectConfig();
  const checkout = checkoutMigrations(project);
  const { first, later } = migrationsToStage(manifest.database.migrations, checkout);
  log(`D1: migrerer til sikkerhetskopiens nivå (${manifest.database.level ?? "ingen"})`);
  await applyMigrations(project, options.stateDir, first, later.length === 0);

  const persist = path.join(options.stateDir, "v3");
  const withBodies = manifest.buckets.filter((b) => b.bodies);
  const bindings = await localBindings<{ DB: Database } & Record<string, Bucket>>(persist, {
    d1: true,
    buckets: withBodies.map((b) => b.binding),
  });
  try {
    await loadRows(bindings.env.DB, options.folder, manifest, log);
    for (const b of withBodies) {
      const put = await restoreBucket(bindings.env[b.binding], options.folder, b.objects);
      log(`R2 ${b.binding}: ${put} objekter lagt tilbake`);
    }
  } finally {
    await bindings.dispose();
  }
  for (const b of manifest.buckets.filter((b) => !b.bodies)) {
    log(`R2 ${b.binding}: sikkerhetskopien har bare listen over ${b.count} objekter (de ligger i bøtta ${b.bucket})`);
  }
  if (later.length) {
    log(`D1: ${later.length} nyere migreringer fra denne koden (${later.at(-1)})`);
    await applyMigrations(project, options.stateDir, later, true);
  }
  // npm start loads no demo data over restored data.
  writeFileSync(
    seedMarker(options.stateDir),
    `${JSON.stringify({ restoredFrom: path.resolve(options.folder), restoredAt: new Date().toISOString() }, null, 2)}\n`,
  );
  return manifest;
}
