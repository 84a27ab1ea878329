// Browser tests (tests/e2e) against a running app. scripts/e2e.mjs starts the app exactly as
// `npm start` does and passes its address in E2E_BASE_URL; set it yourself to test another server.
import { defineConfig } from "@playwright/test";

const CI = !!process.env.CI;

// Debian's Chromium headless shell (decision 106): nothing may download a browser on these machines
// (docs/platform.md "Toolchain"). scripts/e2e.mjs sets CHROMIUM_PATH to what scripts/chromium.mjs found.
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};

export default defineConfig({
  testDir: "tests/e2e",
  // Two spec files at a time (the tests of a file run in order, in one worker). Specs run side by
  // side: each makes the users and listings it changes, and reads of the demo data name listings
  // nobody changes (tests/e2e/support/demo.ts; docs/decisions/096-e2e-specs-side-by-side.md).
  workers: 2,
  fullyParallel: false,
  forbidOnly: CI,
  // No retries, on CI either: a flaky test is a bug to fix, not to hide.
  retries: 0,
  // A test's limit catches a hang, not slowness: beside the Worker tests on a slower CI machine a
  // test of 22 s here (a page walk through five pages) takes 30 s or more.
  timeout: 60_000,
  expect: { timeout: 7_500 },
  reporter: "list",
  outputDir: "test-results",
  use: {
    baseURL: process.env.E2E_BASE_URL ?? "http://localhost:8799",
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    locale: "nb-NO",
    timezoneId: "Europe/Oslo",
    // Phones first (the audience browses on phones).
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
    serviceWorkers: "block",
    // No half-faded toasts in the axe scans.
    reducedMotion: "reduce",
  },
  projects: [
    { name: "chromium", use: { browserName: "chromium", launchOptions } },
    // The same browser in UTC: the spec of dates and times again (they show Europe/Oslo either way).
    { name: "chromium-utc", testMatch: /time-zones\.spec\.ts$/, use: { browserName: "chromium", launchOptions, timezoneId: "UTC" } },
  ],
});
