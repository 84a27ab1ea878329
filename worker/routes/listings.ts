import { Hono } from "hono";
import { z } from "../../domain/schemas/zod";
import { listingFormSchema } from "../../domain/schemas/listing";
import type { AppEnv } from "../env";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { enforceRateLimit } from "../lib/rate-limit";
import { validate } from "../lib/validate";
import { actorOf, requireUser } from "../middleware/session";
import { changeStatus, createListing, deleteListing, getListingDetail, resolveSlug, updateListing } from "../services/listings";

const statusSchema = z.object({
  status: z.enum(["active", "reserved", "sold", "given_away"], { error: "Ugyldig status" }),
});

export const listingRoutes = new Hono<AppEnv>()
  .get("/by-slug/:slug", async (c) => {
    const db = getDb(c.env.DB);
    const id = await resolveSlug(db, c.req.param("slug"));
    if (!id) throw new AppError("NOT_FOUND", "Kunne ikke hente annonse");
    return c.json(await getListingDetail(db, id, c.get("actor")));
  })
  .get("/:id", async (c) => {
    return c.json(await getListingDetail(getDb(c.env.DB), c.req.param("id"), c.get("actor")));
  })
  .post("/", requireUser, validate("json", listingFormSchema), async (c) => {
    const actor = actorOf(c);
    await enforceRateLimit(c.env.DB, { scope: "listing:create", limit: 30, windowSeconds: 3600 }, actor.id);
    return c.json(await createListing(getDb(c.env.DB), c.env.IMAGES, actor, c.req.valid("json")), 201);
  })
  .put("/:id", requireUser, validate("json", listingFormSchema), async (c) => {
    return c.json(await updateListing(getDb(c.env.DB), c.env.IMAGES, actorOf(c), c.req.param("id"), c.req.valid("json")));
  })
  .post("/:id/status", requireUser, validate("json", statusSchema), async (c) => {
    return c.json(await changeStatus(getDb(c.env.DB), actorOf(c), c.req.param("id"), c.req.valid("json").status));
  })
  .delete("/:id", requireUser, async (c) => {
    await deleteListing(getDb(c.env.DB), actorOf(c), c.req.param("id"));
    return c.body(null, 204);
  });
