import { Hono } from "hono";
import { profileUpdateSchema } from "../../domain/schemas/account";
import type { AppEnv } from "../env";
import { clearSessionCookies } from "../lib/cookies";
import { validate } from "../lib/validate";
import { actorOf, requireUser } from "../middleware/session";
import { deleteAccount, exportUserData, getProfile, updateProfile } from "../services/account";
import { getDb } from "../db/client";
import { getOwnListing, ownListings, toListingCard } from "../services/listings";

/** The signed-in user's own profile and data. */
export const meRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(await getProfile(c.env.DB, actorOf(c).id));
  })
  .patch("/profile", validate("json", profileUpdateSchema), async (c) => {
    return c.json(await updateProfile(c.env.DB, actorOf(c).id, c.req.valid("json")));
  })
  .get("/listings", async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(await ownListings(getDb(c.env.DB), actorOf(c)));
  })
  .get("/listings/:id", async (c) => {
    const row = await getOwnListing(getDb(c.env.DB), c.req.param("id"), actorOf(c));
    return c.json({ ...toListingCard(row), description: row.description });
  })
  .get("/export", async (c) => {
    const data = await exportUserData(c.env.DB, actorOf(c).id);
    c.header("Cache-Control", "no-store");
    c.header("Content-Disposition", `attachment; filename="lekebytte-mine-data-${new Date().toISOString().slice(0, 10)}.json"`);
    return c.body(JSON.stringify(data, null, 2), 200, { "Content-Type": "application/json; charset=utf-8" });
  })
  .delete("/", async (c) => {
    await deleteAccount(c.env, actorOf(c).id);
    clearSessionCookies(c);
    return c.body(null, 204);
  });
