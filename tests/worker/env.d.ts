// Test-only bindings added in vitest.worker.config.mts (a global script: it augments the generated
// Cloudflare.Env from worker-configuration.d.ts).
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    /** A second database that stands for a lagging read replica (tests/worker/read-replicas.integration.test.ts). */
    TEST_REPLICA: D1Database;
    /** The payment sandbox the global setup started (tests/worker/support/payment-sandbox.global.ts). */
    TEST_SANDBOX_URL: string;
    /** The sandbox's keys (scripts/payment-sandbox/dev-keys.mjs), bound as the Worker's secrets. */
    STRIPE_SECRET_KEY: string;
    STRIPE_WEBHOOK_SECRET: string;
    VIPPS_WEBHOOK_SECRET: string;
    VIPPS_MERCHANT_SERIAL_NUMBER: string;
    VIPPS_CLIENT_ID: string;
    BRING_API_BASE: string;
    BRING_API_UID: string;
    BRING_API_KEY: string;
    BRING_CUSTOMER_NUMBER: string;
    BRING_WEBHOOK_SECRET: string;
    HELTHJEM_CLIENT_ID: string;
    HELTHJEM_CLIENT_SECRET: string;
    HELTHJEM_SHOP_ID: string;
    HELTHJEM_WEBHOOK_SECRET: string;
  }
}

// Vite's `?raw` imports (the worker tests run through Vite): the file's text.
declare module "*?raw" {
  const text: string;
  export default text;
}
