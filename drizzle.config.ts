import { defineConfig } from "drizzle-kit";

// drizzle-kit writes flat SQL files into migrations/, which `wrangler d1 migrations apply` reads.
export default defineConfig({
  dialect: "sqlite",
  // Each feature keeps its tables beside its code; worker/db/schema.ts holds the platform's own.
  schema: "./worker/{db,features/*}/schema.ts",
  out: "./migrations",
  migrations: { prefix: "index" },
});
