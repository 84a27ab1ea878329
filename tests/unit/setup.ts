// Runs before every unit test file: a console.error fails the test unless it says it expects one,
// as in tests/worker/setup.ts (the guard is shared; it needs nothing from workerd).
import { afterEach, beforeEach } from "vitest";
import { checkConsoleGuard, installConsoleGuard } from "../worker/support/console-guard";

beforeEach(() => {
  installConsoleGuard();
});

afterEach(() => {
  checkConsoleGuard();
});
