// The storage a Worker test file starts from (tests/worker/setup.ts): the files of a pool worker
// share one workerd process (vitest.worker.config.mts, isolate: false), so each file empties D1 and
// R2 and applies the migrations itself.
import { env } from "cloudflare:workers";

/** Each migration in one batch, as wrangler applies it. */
export async function applyMigrations(db: D1Database): Promise<void> {
  for (const migration of env.TEST_MIGRATIONS) {
    await db.batch(migration.queries.map((query) => db.prepare(query)));
  }
}

/** The tables FTS5 keeps for a virtual table `t` (`t_data`, …): dropped with it, never alone. */
const FTS5_SHADOW_SUFFIXES = ["data", "idx", "content", "docsize", "config"];

/**
 * Drops every table the migrations or an earlier file made. A table goes before the tables it
 * refers to (the implicit delete of a drop checks its foreign keys); a virtual (FTS) table takes its
 * shadow tables with it, and a table its triggers.
 */
export async function emptyDatabase(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare(
      "SELECT name, sql LIKE 'CREATE VIRTUAL TABLE%' AS virtual FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    )
    .all<{ name: string; virtual: number }>();
  const shadow = new Set(
    results.filter((t) => t.virtual === 1).flatMap((t) => FTS5_SHADOW_SUFFIXES.map((suffix) => `${t.name}_${suffix}`)),
  );
  const left = new Set(results.map((t) => t.name).filter((name) => !shadow.has(name)));
  if (left.size === 0) return;
  const tables = [...left];
  const keys = await db.batch<{ table: string }>(tables.map((name) => db.prepare(`PRAGMA foreign_key_list("${name}")`)));
  const references = tables.flatMap((name, i) => keys[i].results.filter((k) => k.table !== name).map((k) => ({ name, parent: k.table })));
  const order: string[] = [];
  while (left.size > 0) {
    // Whatever no remaining table refers to can go now.
    const referenced = new Set(references.filter((r) => left.has(r.name)).map((r) => r.parent));
    const free = [...left].filter((name) => !referenced.has(name));
    if (free.length === 0) throw new Error(`tests/worker/support/storage.ts: foreign keys in a cycle among ${[...left]}`);
    for (const name of free) {
      order.push(`DROP TABLE "${name}"`);
      left.delete(name);
    }
  }
  await db.batch(order.map((statement) => db.prepare(statement)));
}

/** Deletes every object, a page (at most 1,000 keys) at a time. */
export async function emptyBucket(bucket: R2Bucket): Promise<void> {
  for (;;) {
    const page = await bucket.list({ limit: 1000 });
    if (page.objects.length === 0) return;
    await bucket.delete(page.objects.map((o) => o.key));
  }
}
