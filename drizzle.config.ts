import { defineConfig } from "drizzle-kit";

// drizzle-kit writes flat SQL files into migrations/, which `wrangler d1 migrations apply` reads.
export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/db/schema.ts",
  out: "./migrations",
  migrations: { prefix: "index" },
});
