import { Hono } from "hono";
import { searchParamsSchema } from "../../domain/schemas/search";
import type { AppEnv } from "../env";
import { validate } from "../lib/validate";
import { searchListings } from "../services/search";

export const searchRoutes = new Hono<AppEnv>().get("/", validate("query", searchParamsSchema), async (c) => {
  c.header("Cache-Control", "no-store");
  return c.json(await searchListings(c.env.DB, c.req.valid("query")));
});
