// `npm run backup`'s work: D1 table by table into SQL files, R2's objects listed (locally with their
// bodies), and the manifest (docs/deploy.md "Backups and restore", docs/decisions/137).
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { localBindings, readProjectConfig } from "../local-bindings";
import { type D1Source, readRows, readSchema, runWrangler, whereArgs } from "./d1-read";
import { type BucketEntry, type Manifest, MANIFEST_FORMAT, type TableEntry, folderName, writeManifest } from "./manifest";
import { type Bucket, copyLocalBucket, listRemoteBucket } from "./r2";

export interface BackupOptions extends D1Source {
  /** Where the dated folder goes (default `backups/`). */
  outDir: string;
  log?: (line: string) => void;
  now?: Date;
}

/** Writes a backup folder and returns its path and manifest. */
export async function backup(options: BackupOptions): Promise<{ folder: string; manifest: Manifest }> {
  const log = options.log ?? (() => undefined);
  const source: D1Source = { remote: options.remote, stateDir: options.stateDir, env: options.env };
  if (!source.remote && !existsSync(path.join(source.stateDir, "v3"))) {
    throw new Error(`Ingen lokal data i ${source.stateDir} (STATE_DIR): ingenting å ta sikkerhetskopi av.`);
  }
  const project = await readProjectConfig(source.env);
  const folder = path.join(options.outDir, folderName(options.now ?? new Date(), source.remote ? "remote" : "local", source.env));
  if (existsSync(folder)) throw new Error(`${folder} finnes allerede`);
  mkdirSync(path.join(folder, "d1"), { recursive: true });

  // A remote database's bookmark first: Time Travel can bring back exactly the state this backup starts from.
  const bookmark = source.remote ? await currentBookmark(source) : null;
  const schema = await readSchema(source);
  log(
    `D1: ${schema.tables.length} tabeller (nivå ${schema.migrations.at(-1) ?? "ingen migreringer"}); søkeindeksen bygges på nytt ved gjenoppretting`,
  );
  const files = new Map(schema.tables.map((t) => [t.name, `d1/${t.name}.sql`]));
  for (const file of files.values()) writeFileSync(path.join(folder, file), "");
  const rows = await readRows(source, schema.tables, (table, statements) => {
    if (statements.length) appendFileSync(path.join(folder, files.get(table)!), `${statements.join("\n")}\n`);
  });
  const tables: TableEntry[] = schema.tables.map((t) => ({
    name: t.name,
    file: files.get(t.name)!,
    rows: rows.get(t.name) ?? 0,
    columns: t.columns,
  }));
  log(`D1: ${tables.reduce((n, t) => n + t.rows, 0)} rader`);

  const buckets: BucketEntry[] = [];
  if (source.remote) {
    for (const b of project.buckets) {
      const objects = await listRemoteBucket(b.bucketName);
      buckets.push(bucketEntry(b.binding, b.bucketName, false, objects));
    }
  } else {
    const bindings = await localBindings<Record<string, Bucket>>(path.join(source.stateDir, "v3"), {
      buckets: project.buckets.map((b) => b.binding),
    });
    try {
      for (const b of project.buckets) {
        const objects = await copyLocalBucket(bindings.env[b.binding], b.binding, folder);
        buckets.push(bucketEntry(b.binding, b.bucketName, true, objects));
      }
    } finally {
      await bindings.dispose();
    }
  }
  for (const b of buckets)
    log(`R2 ${b.binding}: ${b.count} objekter, ${(b.bytes / 1e6).toFixed(1)} MB${b.bodies ? " (kopiert)" : " (bare listen)"}`);

  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    createdAt: (options.now ?? new Date()).toISOString(),
    source: source.remote ? "remote" : "local",
    env: source.env ?? null,
    database: { name: project.d1.databaseName, migrations: schema.migrations, level: schema.migrations.at(-1) ?? null, bookmark },
    tables,
    rebuilt: schema.virtual,
    buckets,
  };
  writeManifest(folder, manifest);
  return { folder, manifest };
}

function bucketEntry(binding: string, bucket: string, bodies: boolean, objects: BucketEntry["objects"]): BucketEntry {
  return { binding, bucket, bodies, count: objects.length, bytes: objects.reduce((n, o) => n + o.size, 0), objects };
}

async function currentBookmark(source: D1Source): Promise<string> {
  const args = ["d1", "time-travel", "info", "DB", "--json", ...whereArgs(source).filter((a) => a !== "--remote")];
  const out = JSON.parse(await runWrangler(args)) as { bookmark?: string };
  if (!out.bookmark) throw new Error("wrangler d1 time-travel info ga ikke noe bokmerke");
  return out.bookmark;
}
