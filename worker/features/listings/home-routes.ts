import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { homeSections } from "./listings";

/** The same for every visitor: its caching is the edge cache's (middleware/edge-cache.ts, decision 101). */
export const homeRoutes = new Hono<AppEnv>().get("/", async (c) => {
  return c.json(await homeSections(c.var.db));
});
