import { Hono } from "hono";
import { searchParamsSchema } from "../../../domain/schemas/search";
import type { AppEnv } from "../../env";
import { validate } from "../../lib/validate";
import { searchListings } from "./search";

/** The same for every visitor: its caching is the edge cache's (middleware/edge-cache.ts, decision 101). */
export const searchRoutes = new Hono<AppEnv>().get("/", validate("query", searchParamsSchema), async (c) => {
  // Date.now() advances across I/O in workerd, so this is the D1 query's time (benchmarks read it).
  const started = Date.now();
  const result = await searchListings(c.var.db, c.req.valid("query"));
  c.header("Server-Timing", `d1;dur=${Date.now() - started}`);
  return c.json(result);
});
