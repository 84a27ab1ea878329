// Runs before every worker test file, inside workerd. Storage is isolated per test file, so each file
// starts from an empty database with all migrations applied (applyD1Migrations skips applied ones).
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { checkConsoleGuard, installConsoleGuard } from "./support/console-guard";

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});

beforeEach(() => {
  installConsoleGuard();
});

afterEach(() => {
  checkConsoleGuard();
});
