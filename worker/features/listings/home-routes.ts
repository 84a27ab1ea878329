import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { getDb } from "../../db/client";
import { homeSections } from "./listings";

export const homeRoutes = new Hono<AppEnv>().get("/", async (c) => {
  c.header("Cache-Control", "no-store");
  return c.json(await homeSections(getDb(c.env.DB)));
});
