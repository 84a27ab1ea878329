import { Hono } from "hono";
import { RATE_RULES } from "../../../domain/rate-limits";
import { joinGiveawaySchema, reserveGiveawaySchema } from "../../../domain/schemas/giveaways";
import type { Db } from "../../db/client";
import type { AppEnv, Bindings } from "../../env";
import type { GiveawayListingView } from "../../../domain/giveaways";
import { validate } from "../../lib/validate";
import { actorOf, requireUser } from "../../middleware/session";
import { noStore } from "../../middleware/cache";
import { enforceRateLimit } from "../../lib/rate-limit";
import { announceGiveawayChange } from "./notices";
import { giveawayListingView, markGiveawayNoticesSeen, myGiveawayPlaces, unseenGiveawayCount } from "./views";
import { joinQueue, leaveQueue, markGiven, releaseReservation, reserveEntry, type GiveawayChangeResult } from "./giveaways";

type Move = (db: Db, listingId: string, userId: string) => Promise<GiveawayChangeResult>;

/** Leave, reserve, release or give: rate limited per user, the people concerned told, the panel answered. */
async function move(env: Bindings, db: Db, userId: string, listingId: string, change: Move): Promise<GiveawayListingView> {
  await enforceRateLimit(db, RATE_RULES.giveawayAction, userId);
  const result = await change(db, listingId, userId);
  await announceGiveawayChange(env, result);
  return giveawayListingView(db, result.listingId, userId);
}

/**
 * The give-away queue of free listings (docs/decisions/075-giveaway-queue.md). The panel
 * is open to whoever may see the listing (counts only for visitors); joining and leaving are the
 * taker's, reserving, releasing and giving the listing owner's (403 for anyone else). Every move
 * answers with the panel as the caller now sees it.
 */
export const giveawayRoutes = new Hono<AppEnv>()
  .get("/mine", requireUser, noStore, async (c) => {
    return c.json(await myGiveawayPlaces(c.var.db, actorOf(c).id));
  })
  .get("/mine/unseen", requireUser, noStore, async (c) => {
    return c.json({ count: await unseenGiveawayCount(c.var.db, actorOf(c).id) });
  })
  .post("/mine/seen", requireUser, async (c) => {
    await markGiveawayNoticesSeen(c.var.db, actorOf(c).id);
    return c.body(null, 204);
  })
  .get("/listings/:listingId", noStore, async (c) => {
    return c.json(await giveawayListingView(c.var.db, c.req.param("listingId"), c.get("actor")?.id ?? null));
  })
  .post("/listings/:listingId/queue", requireUser, validate("json", joinGiveawaySchema), async (c) => {
    const userId = actorOf(c).id;
    const db = c.var.db;
    await enforceRateLimit(db, RATE_RULES.giveawayJoin, userId);
    const { created, result } = await joinQueue(db, c.req.param("listingId"), userId, c.req.valid("json").message);
    if (result) await announceGiveawayChange(c.env, result);
    return c.json(await giveawayListingView(db, c.req.param("listingId"), userId), created ? 201 : 200);
  })
  .post("/listings/:listingId/leave", requireUser, async (c) =>
    c.json(await move(c.env, c.var.db, actorOf(c).id, c.req.param("listingId"), leaveQueue)),
  )
  .post("/listings/:listingId/reserve", requireUser, validate("json", reserveGiveawaySchema), async (c) => {
    const entryId = c.req.valid("json").entry_id;
    return c.json(
      await move(c.env, c.var.db, actorOf(c).id, c.req.param("listingId"), (db, listingId, userId) =>
        reserveEntry(db, listingId, userId, entryId),
      ),
    );
  })
  .post("/listings/:listingId/release", requireUser, async (c) =>
    c.json(await move(c.env, c.var.db, actorOf(c).id, c.req.param("listingId"), releaseReservation)),
  )
  .post("/listings/:listingId/give", requireUser, async (c) =>
    c.json(await move(c.env, c.var.db, actorOf(c).id, c.req.param("listingId"), markGiven)),
  );
