import { Hono } from "hono";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { AppEnv } from "../../env";
import { actorOf, requireUser } from "../../middleware/session";
import { addFavourite, favouriteIds, favouriteListings, removeFavourite } from "./favourites";
import { enforceBindingLimit } from "../../lib/rate-limit";

export const favouriteRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => c.json(await favouriteListings(c.var.db, actorOf(c).id)))
  .get("/ids", async (c) => c.json(await favouriteIds(c.var.db, actorOf(c).id)))
  .put("/:listingId", async (c) => {
    const db = c.var.db;
    await enforceBindingLimit(c.env, RATE_RULES.favourite, actorOf(c).id);
    await addFavourite(db, actorOf(c).id, c.req.param("listingId"));
    return c.body(null, 204);
  })
  .delete("/:listingId", async (c) => {
    const db = c.var.db;
    await enforceBindingLimit(c.env, RATE_RULES.favourite, actorOf(c).id);
    await removeFavourite(db, actorOf(c).id, c.req.param("listingId"));
    return c.body(null, 204);
  });
