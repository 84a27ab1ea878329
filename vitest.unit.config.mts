import { defineConfig } from "vitest/config";

// Pure unit tests in Node (tests/unit): domain rules with no bindings, no `cloudflare:*` import, no
// I/O. They ran in workerd until decision 093; Node starts them in a fraction of the time. A test
// that needs env, D1, R2 or a Durable Object belongs in tests/worker.
// workerd's clock runs in UTC; so do these, whatever the machine's zone (formatters name their zone
// anyway, decision 056).
process.env.TZ = "UTC";

export default defineConfig({
  test: {
    name: "unit",
    environment: "node",
    include: ["tests/unit/**/*.test.ts"],
    // The same console.error guard as the worker tests (decision 013).
    setupFiles: ["tests/unit/setup.ts"],
    maxWorkers: 2,
    // Property tests run thousands of cases: on a loaded two-core machine a few seconds of CPU can
    // take several times that, and vitest's 5 s default then fails a test that found nothing.
    testTimeout: 60_000,
  },
});
