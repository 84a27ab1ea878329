// Test-only bindings added in vitest.worker.config.mts (a global script: it augments the generated
// Cloudflare.Env from worker-configuration.d.ts).
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}

// Vite's `?raw` imports (the worker tests run through Vite): the file's text.
declare module "*?raw" {
  const text: string;
  export default text;
}
