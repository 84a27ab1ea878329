import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { noStore } from "../../middleware/cache";
import { homeSections } from "./listings";

export const homeRoutes = new Hono<AppEnv>().get("/", noStore, async (c) => {
  return c.json(await homeSections(c.var.db));
});
