import react from "@vitejs/plugin-react";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * The script tests (tests/scripts) first. They run the real tools (wrangler, a local D1, tsx) one
 * step after another, on about one core for up to a minute; on a fresh clone Vitest knows no earlier
 * durations and starts larger files first, which left them for last, running nearly alone while the
 * other core idled at the end of `npm test`. Started first, the component tests fill the other core
 * beside them.
 */
class ScriptsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isScript = (file: TestSpecification) => file.moduleId.includes("/tests/scripts/");
    return [...sorted.filter(isScript), ...sorted.filter((file) => !isScript(file))];
  }
}

// Web component tests in jsdom. Only the React plugin: the Cloudflare plugin belongs to the Worker
// build and its tests (vitest.worker.config.mts).
export default defineConfig({
  plugins: [react()],
  test: {
    name: "web",
    environment: "jsdom",
    // tests/scripts: the Node scripts behind `npm test` (jsdom leaves Node's own modules usable).
    include: ["tests/web/**/*.test.{ts,tsx}", "tests/scripts/**/*.test.ts"],
    setupFiles: ["tests/web/setup.ts"],
    restoreMocks: true,
    unstubGlobals: true,
    // Vitest's default is cores - 1, one file at a time on the two-core build machines; the files
    // share nothing (no ports, no files on disk), so two run at once (decision 093).
    maxWorkers: 2,
    // Each of the two workers runs its files one after another in one process, not a fresh process
    // per file: starting Node and loading React, Testing Library and jsdom's wrapper again for each
    // of some fifty files was about a third of these tests' CPU (docs/testing.md). Every file still
    // gets a fresh jsdom and, through tests/web/setup.ts, fresh app modules and its own mocks.
    isolate: false,
    // Beside the end-to-end tests on two cores a test of about a second has taken over 5 s (Vitest's
    // default): the limit is for a test that hangs, not a measure of speed.
    testTimeout: 15_000,
    sequence: { sequencer: ScriptsFirst },
  },
});
