import { defineConfig } from "vitest/config";

// The payment sandbox's own tests, in Node (it is a Node server, never part of the Worker).
export default defineConfig({
  test: {
    name: "sandbox",
    environment: "node",
    include: ["tests/sandbox/**/*.test.ts"],
    restoreMocks: true,
  },
});
