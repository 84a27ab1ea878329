import { Hono } from "hono";
import { RATE_RULES } from "../../../domain/rate-limits";
import { createTradeOfferSchema, tradeHistoryQuerySchema, tradeOffersDirectionSchema } from "../../../domain/schemas/trades";
import type { Db } from "../../db/client";
import type { AppEnv, Bindings } from "../../env";
import type { TradeOfferView } from "../../../domain/trades";
import { validate } from "../../lib/validate";
import { actorOf, requireUser } from "../../middleware/session";
import { noStore } from "../../middleware/cache";
import { enforceRateLimit } from "../../lib/rate-limit";
import { announceTradeChange } from "./notices";
import { acceptTradeOffer, cancelTradeOffer, confirmHandover, createTradeOffer, rejectTradeOffer, type TradeChangeResult } from "./offers";
import { conversationTradeOffers, tradeHistoryCompleted, tradeHistoryOffers, tradeOfferView, tradeProposal } from "./views";

type Move = (db: Db, offerId: string, userId: string) => Promise<TradeChangeResult>;

/** Accept, reject, cancel or confirm: rate limited per party, then the parties are told. */
async function move(env: Bindings, db: Db, userId: string, offerId: string, change: Move): Promise<TradeOfferView> {
  await enforceRateLimit(db, RATE_RULES.tradeOfferAction, userId);
  const result = await change(db, offerId, userId);
  await announceTradeChange(env, result);
  return tradeOfferView(db, result.offerId, userId);
}

/**
 * Trades (docs/product.md "Trades", "States", "Validation", "Who may do what", "Server calls", "Error messages";
 * docs/decisions/046-trade-lifecycle.md). Signed-in users only; an offer exists only for its two
 * parties (404 for anyone else). Every change answers with the offer as the caller now sees it.
 */
export const tradeOfferRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/proposal/:listingId", noStore, async (c) => {
    return c.json(await tradeProposal(c.var.db, c.req.param("listingId"), actorOf(c).id));
  })
  .post("/", validate("json", createTradeOfferSchema), async (c) => {
    const actor = actorOf(c);
    const db = c.var.db;
    await enforceRateLimit(db, RATE_RULES.tradeOfferCreate, actor.id);
    const body = c.req.valid("json");
    const result = await createTradeOffer(db, actor.id, {
      requestedListingId: body.requested_listing_id,
      offeredListingId: body.offered_listing_id,
      message: body.message,
    });
    await announceTradeChange(c.env, result);
    return c.json({ id: result.offerId, conversation_id: result.conversationId }, 201);
  })
  .get("/conversation/:conversationId", noStore, async (c) => {
    return c.json(await conversationTradeOffers(c.var.db, c.req.param("conversationId"), actorOf(c).id));
  })
  .get("/history/completed", validate("query", tradeHistoryQuerySchema), noStore, async (c) => {
    return c.json(await tradeHistoryCompleted(c.var.db, actorOf(c).id, c.req.valid("query").offset));
  })
  .get(
    "/history/:direction",
    validate("param", tradeOffersDirectionSchema),
    validate("query", tradeHistoryQuerySchema),
    noStore,
    async (c) => {
      return c.json(await tradeHistoryOffers(c.var.db, actorOf(c).id, c.req.valid("param").direction, c.req.valid("query").offset));
    },
  )
  .get("/:id", noStore, async (c) => {
    return c.json(await tradeOfferView(c.var.db, c.req.param("id"), actorOf(c).id));
  })
  .post("/:id/accept", async (c) => c.json(await move(c.env, c.var.db, actorOf(c).id, c.req.param("id"), acceptTradeOffer)))
  .post("/:id/reject", async (c) => c.json(await move(c.env, c.var.db, actorOf(c).id, c.req.param("id"), rejectTradeOffer)))
  .post("/:id/cancel", async (c) => c.json(await move(c.env, c.var.db, actorOf(c).id, c.req.param("id"), cancelTradeOffer)))
  .post("/:id/confirm", async (c) => c.json(await move(c.env, c.var.db, actorOf(c).id, c.req.param("id"), confirmHandover)));
