// Runs before every worker test file, inside workerd. Storage is isolated per test file, so each file
// starts from an empty database with all migrations applied (applyD1Migrations skips applied ones).
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach } from "vitest";
import type { Bindings } from "../../worker/env";
import { ALL_TAG, purgeEdgeCache } from "../../worker/lib/edge-cache";
import { checkConsoleGuard, installConsoleGuard } from "./support/console-guard";

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
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
