// Runs before every worker test file, inside workerd. Storage is isolated per test file, so each file
// starts from an empty database with all migrations applied.
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach } from "vitest";
import type { Bindings } from "../../worker/env";
import { ALL_TAG, purgeEdgeCache } from "../../worker/lib/edge-cache";
import { checkConsoleGuard, installConsoleGuard } from "./support/console-guard";

// Each migration in one batch, as wrangler applies it. Not through cloudflare:test's
// applyD1Migrations: importing that module loads the whole Worker into the file (about 4 s of a
// file's time), which a test file that never calls the Worker does not need (docs/testing.md).
beforeAll(async () => {
  for (const migration of env.TEST_MIGRATIONS) {
    await env.DB.batch(migration.queries.map((query) => env.DB.prepare(query)));
  }
});

beforeEach(async () => {
  installConsoleGuard();
  // The edge cache (caches.default) is isolated per file too; each test also starts with it empty,
  // since the factories write D1 directly and purge nothing (docs/decisions/101-edge-cache.md).
  await purgeEdgeCache(env as Bindings, [ALL_TAG]);
});

afterEach(() => {
  checkConsoleGuard();
});
