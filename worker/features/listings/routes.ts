import { Hono } from "hono";
import { listingFormSchema, listingStatusSchema } from "../../../domain/schemas/listing";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { AppEnv } from "../../env";
import { validate } from "../../lib/validate";
import { actorOf, requireUser } from "../../middleware/session";
import { getListingDetail } from "./listings";
import { changeStatus, createListing, deleteListing, updateListing } from "./edits";
import { closeOpenCheckouts } from "../payments/settle";
import { enforceRateLimit } from "../../lib/rate-limit";
import { queueListingForAlerts } from "../saved-searches/alerts";
import { listingAnswerTags } from "../../lib/edge-cache";

export const listingRoutes = new Hono<AppEnv>()
  .get("/by-slug/:slug", async (c) => {
    const detail = await getListingDetail(c.var.db, { slug: c.req.param("slug") }, c.get("actor"));
    c.set("edgeTags", listingAnswerTags(detail));
    return c.json(detail);
  })
  .get("/:id", async (c) => {
    const detail = await getListingDetail(c.var.db, c.req.param("id"), c.get("actor"));
    c.set("edgeTags", listingAnswerTags(detail));
    return c.json(detail);
  })
  .post("/", requireUser, validate("json", listingFormSchema), async (c) => {
    const actor = actorOf(c);
    const db = c.var.db;
    await enforceRateLimit(db, RATE_RULES.listingCreate, actor.id);
    const listing = await createListing(c.env, db, actor, c.req.valid("json"));
    // Saved-search alerts are matched by the queue consumer, after the answer (decision 040); the
    // hourly cron matches the listing should the message be lost.
    c.executionCtx.waitUntil(
      queueListingForAlerts(c.env, listing.id).catch((error) =>
        console.error("Could not queue listing for saved searches", listing.id, error),
      ),
    );
    return c.json(listing, 201);
  })
  .put("/:id", requireUser, validate("json", listingFormSchema), async (c) => {
    const actor = actorOf(c);
    const db = c.var.db;
    await enforceRateLimit(db, RATE_RULES.listingEdit, actor.id);
    return c.json(
      await updateListing(c.env, db, actor, c.req.param("id"), c.req.valid("json"), (listingId) =>
        closeOpenCheckouts(c.env, db, listingId),
      ),
    );
  })
  .post("/:id/status", requireUser, validate("json", listingStatusSchema), async (c) => {
    const actor = actorOf(c);
    const db = c.var.db;
    await enforceRateLimit(db, RATE_RULES.listingStatus, actor.id);
    return c.json(await changeStatus(c.env, db, actor, c.req.param("id"), c.req.valid("json").status));
  })
  .delete("/:id", requireUser, async (c) => {
    const actor = actorOf(c);
    const db = c.var.db;
    await enforceRateLimit(db, RATE_RULES.listingStatus, actor.id);
    await deleteListing(c.env, db, actor, c.req.param("id"));
    return c.body(null, 204);
  });
