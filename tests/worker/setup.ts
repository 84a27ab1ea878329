// Runs before every worker test file, inside workerd. The files of a pool worker share one workerd
// process and its loaded modules (vitest.worker.config.mts, isolate: false), so each file first
// empties D1 and R2 and then applies all migrations: every file starts from an empty database and
// empty buckets, as it would alone.
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach } from "vitest";
import type { Bindings } from "../../worker/env";
import { ALL_TAG, purgeEdgeCache } from "../../worker/lib/edge-cache";
import { checkConsoleGuard, installConsoleGuard } from "./support/console-guard";

beforeAll(async () => {
  await Promise.all([emptyDatabase(env.DB), emptyDatabase(env.TEST_REPLICA), emptyBucket(env.IMAGES), emptyBucket(env.PRIVATE)]);
  // Each migration in one batch, as wrangler applies it. Not through cloudflare:test's
  // applyD1Migrations: importing that module loads the whole Worker, which a process whose files
  // never call the Worker does not need (docs/testing.md).
  for (const migration of env.TEST_MIGRATIONS) {
    await env.DB.batch(migration.queries.map((query) => env.DB.prepare(query)));
  }
});

beforeEach(async () => {
  installConsoleGuard();
  // Each test starts with the edge cache (caches.default, shared by the process's files) empty, since
  // the factories write D1 directly and purge nothing (docs/decisions/101-edge-cache.md).
  await purgeEdgeCache(env as Bindings, [ALL_TAG]);
});

afterEach(() => {
  checkConsoleGuard();
});

/** The tables FTS5 keeps for a virtual table `t` (`t_data`, …): dropped with it, never alone. */
const FTS5_SHADOW_SUFFIXES = ["data", "idx", "content", "docsize", "config"];

/**
 * Drops what the migrations or an earlier file made. A table goes before the tables it refers to
 * (the implicit delete of a drop checks its foreign keys); a virtual (FTS) table takes its shadow
 * tables with it, and a table its triggers.
 */
async function emptyDatabase(db: D1Database): Promise<void> {
  const objects = await db
    .prepare(
      "SELECT type, name, sql LIKE 'CREATE VIRTUAL TABLE%' AS virtual FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    )
    .all<{ type: string; name: string; virtual: number }>();
  const shadow = new Set(
    objects.results.filter((o) => o.virtual === 1).flatMap((o) => FTS5_SHADOW_SUFFIXES.map((suffix) => `${o.name}_${suffix}`)),
  );
  const left = new Map(objects.results.filter((o) => !shadow.has(o.name)).map((o) => [o.name, o.type]));
  const tables = [...left].filter(([, type]) => type === "table").map(([name]) => name);
  const keys =
    tables.length === 0 ? [] : await db.batch<{ table: string }>(tables.map((name) => db.prepare(`PRAGMA foreign_key_list("${name}")`)));
  const references = tables.flatMap((name, i) => keys[i].results.filter((k) => k.table !== name).map((k) => ({ name, parent: k.table })));
  const order: string[] = [];
  while (left.size > 0) {
    // Whatever no remaining table refers to can go now.
    const referenced = new Set(references.filter((r) => left.has(r.name)).map((r) => r.parent));
    const free = [...left.keys()].filter((name) => !referenced.has(name));
    if (free.length === 0) throw new Error(`tests/worker/setup.ts: foreign keys in a cycle among ${[...left.keys()]}`);
    for (const name of free) {
      order.push(`DROP ${left.get(name) === "view" ? "VIEW" : "TABLE"} "${name}"`);
      left.delete(name);
    }
  }
  if (order.length > 0) await db.batch(order.map((statement) => db.prepare(statement)));
}

/** Deletes every object, a page (at most 1,000 keys) at a time. */
async function emptyBucket(bucket: R2Bucket): Promise<void> {
  for (;;) {
    const page = await bucket.list({ limit: 1000 });
    if (page.objects.length === 0) return;
    await bucket.delete(page.objects.map((o) => o.key));
  }
}
