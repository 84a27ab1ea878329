// `npm run db:migrate` (and `npm start`, the restore): the D1 migrations of `migrations/` applied to the
// local state in STATE_DIR, exactly as `wrangler d1 migrations apply DB --local` applies them: the same
// `d1_migrations` table, each migration with its row in that table as one batch (all or nothing), in
// file order, those already recorded skipped. Wrangler starts a local runtime for every migration
// (~0.6 s of CPU each, 18 s for the whole folder); here one runtime applies them all. A deployed
// database is migrated with wrangler itself (`npm run deploy`).
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { localBindings, readProjectConfig } from "./local-bindings";
import { OFFLINE_ENV, persistPath } from "./local-env.mjs";

/** The table wrangler records applied migrations in (its default `migrations_table`). */
export const MIGRATIONS_TABLE = "d1_migrations";

/** The D1 binding's part used here (the local proxy's and the Worker's). */
export interface MigratingDb {
  prepare(query: string): { all<T>(): Promise<{ results: T[] }>; run(): Promise<unknown> };
  batch(statements: ReturnType<MigratingDb["prepare"]>[]): Promise<unknown>;
}

/** The `.sql` files of a migrations folder in the order they apply. */
export function migrationFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
}

/**
 * Applies the migrations among `names` (default: every file of `dir`) that the database has not
 * recorded yet, in order; returns the ones it applied. A migration that fails leaves nothing of itself
 * behind and stops the rest, with its name and the database's message.
 */
export async function applyMigrations(db: MigratingDb, dir: string, names = migrationFiles(dir)): Promise<string[]> {
  // Wrangler's own statement, so a database either tool started reads the same.
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}"(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`,
    )
    .run();
  const applied = new Set((await db.prepare(`SELECT name FROM "${MIGRATIONS_TABLE}"`).all<{ name: string }>()).results.map((r) => r.name));
  const { unstable_splitSqlQuery: splitSql } = await import("wrangler");
  const done: string[] = [];
  for (const name of names.filter((n) => !applied.has(n))) {
    const sql = `${readFileSync(path.join(dir, name), "utf8")}\nINSERT INTO "${MIGRATIONS_TABLE}" (name)\nvalues ('${name.replace(/'/g, "''")}');`;
    try {
      await db.batch(splitSql(sql).map((statement) => db.prepare(statement)));
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause ?? error;
      throw new Error(`Migreringen ${name} feilet, og ingenting av den ble lagret: ${(cause as Error).message ?? String(cause)}`);
    }
    done.push(name);
  }
  return done;
}

async function main(): Promise<void> {
  for (const [key, value] of Object.entries(OFFLINE_ENV)) process.env[key] ??= value;
  const dir = (await readProjectConfig()).d1.migrationsDir;
  const bindings = await localBindings<{ DB: MigratingDb }>(persistPath(), { d1: true });
  try {
    const done = await applyMigrations(bindings.env.DB, dir);
    console.log(done.length ? `Migrerte ${done.length}: ${done.at(0)} … ${done.at(-1)}` : "Databasen er allerede oppdatert.");
  } finally {
    await bindings.dispose();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`✗ ${(error as Error).message}`);
    process.exit(1);
  });
}
