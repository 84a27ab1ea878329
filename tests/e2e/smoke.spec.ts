// The smoke test that CI runs after each deploy (scripts/smoke.mjs, docs/deploy.md) passes against
// the app started as `npm start` starts it: every check it makes holds for the real Worker. Its
// failures are tested in tests/scripts/smoke.test.ts.
import { runSmoke } from "../../scripts/smoke.mjs";
import { expect, test } from "./fixtures";

test("scripts/smoke.mjs passes against the running app", async ({ baseURL }) => {
  const results = await runSmoke(baseURL!);
  expect(results.filter((r) => r.error)).toEqual([]);
  expect(results.length).toBeGreaterThanOrEqual(7);
});
