import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { siteConfig } from "./site-config";

export const configRoutes = new Hono<AppEnv>().get("/", (c) => {
  c.header("Cache-Control", "public, max-age=300");
  return c.json(siteConfig(c.env));
});
