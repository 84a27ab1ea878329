import { Hono } from "hono";
import type { AppEnv } from "../env";
import { getDb } from "../db/client";
import { actorOf, requireUser } from "../middleware/session";
import { addFavourite, favouriteIds, favouriteListings, removeFavourite } from "../services/favourites";

export const favouriteRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => c.json(await favouriteListings(getDb(c.env.DB), actorOf(c).id)))
  .get("/ids", async (c) => c.json(await favouriteIds(getDb(c.env.DB), actorOf(c).id)))
  .put("/:listingId", async (c) => {
    await addFavourite(getDb(c.env.DB), actorOf(c).id, c.req.param("listingId"));
    return c.body(null, 204);
  })
  .delete("/:listingId", async (c) => {
    await removeFavourite(getDb(c.env.DB), actorOf(c).id, c.req.param("listingId"));
    return c.body(null, 204);
  });
