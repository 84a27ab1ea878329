// Runs before every worker test file, inside workerd. The files of a pool worker share one workerd
// process and its loaded modules (vitest.worker.config.mts, isolate: false), so each file first
// empties D1 and R2 and then applies all migrations: every file starts from an empty database and
// empty buckets, as it would alone.
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach } from "vitest";
import type { Bindings } from "../../worker/env";
import { ALL_TAG, purgeEdgeCache } from "../../worker/lib/edge-cache";
import { checkConsoleGuard, installConsoleGuard } from "./support/console-guard";
import { applyMigrations, emptyBucket, emptyDatabase } from "./support/storage";

beforeAll(async () => {
  await Promise.all([emptyDatabase(env.DB), emptyDatabase(env.TEST_REPLICA), emptyBucket(env.IMAGES), emptyBucket(env.PRIVATE)]);
  // Not through cloudflare:test's applyD1Migrations: importing that module loads the whole Worker,
  // which a process whose files never call the Worker does not need (docs/testing.md).
  await applyMigrations(env.DB);
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
