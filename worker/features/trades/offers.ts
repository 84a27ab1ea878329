// The trade lifecycle in D1 (domain/trades.ts; docs/decisions/046-trade-lifecycle.md). D1 has no
// interactive transaction, so every change is one batch (one transaction) whose statements carry
// the rules as conditions: the first statement moves the offer only while the lifecycle allows it
// and stamps it with this request's fresh change id; the later ones apply only where the offer
// carries that id, i.e. only for the request that won. A request that loses writes nothing and is
// told why (409, 403) by reading the offer again. Only the two parties ever see an offer (404).
import { isPublicListing } from "../../../domain/listing-lifecycle";
import type { ListingStatus } from "../../../domain/taxonomy";
import { TRADE_ERROR_TEXTS as T, isExpired, roleOf, tradeExpiresAt, type TradeAction } from "../../../domain/trades";
import type { Db } from "../../db/client";
import { listedListingSql } from "../listings/visibility";
import { AppError } from "../../lib/errors";
import { assertNotSuspended } from "../moderation/suspension";
import { UUID_RE } from "../../lib/uuid";
import type { RowOf } from "../../db/rows";
import type { tradeOffers } from "./schema";

/** A listing that can be offered, asked for or promised in a trade: listed (active, not hidden). */
const tradable = listedListingSql;

/** An offer some other conversation holds that the accepted trade made void. */
export interface AffectedOffer {
  id: string;
  conversation_id: string;
}

export type TradeChange = "created" | "accepted" | "rejected" | "withdrawn" | "cancelled" | "confirmed" | "completed";

export interface TradeChangeResult {
  offerId: string;
  conversationId: string;
  change: TradeChange;
  /** Pending offers on either listing that accepting cancelled (docs/product.md "Trades"). */
  superseded: AffectedOffer[];
  /** The listings whose state the move changed (reserved, active again, traded): their pages are purged (decision 116). */
  listings: { id: string; user_id: string }[];
}

type OfferRow = Pick<
  RowOf<typeof tradeOffers>,
  "id" | "conversation_id" | "from_user_id" | "to_user_id" | "offered_listing_id" | "requested_listing_id" | "status" | "expires_at"
>;

/** SQL: the offer ?1 carries the change id ?2, i.e. this request's first statement moved it. */
const WON = "EXISTS (SELECT 1 FROM trade_offers w WHERE w.id = ?1 AND w.change_id = ?2)";

const OFFER_COLUMNS =
  "o.id, o.conversation_id, o.from_user_id, o.to_user_id, o.offered_listing_id, o.requested_listing_id, o.status, o.expires_at";

/** The two listings of a trade, each with its owner. */
const bothListings = (offer: OfferRow) => [
  { id: offer.offered_listing_id, user_id: offer.from_user_id },
  { id: offer.requested_listing_id, user_id: offer.to_user_id },
];

/** The offer if `userId` is one of its two parties; to anyone else it does not exist. */
async function offerFor(db: Db, offerId: string, userId: string): Promise<OfferRow> {
  if (!UUID_RE.test(offerId)) throw new AppError("NOT_FOUND", T.offerNotFound);
  const row = await db
    .prepare(`SELECT ${OFFER_COLUMNS} FROM trade_offers o WHERE o.id = ?1 AND ?2 IN (o.from_user_id, o.to_user_id)`)
    .bind(offerId, userId)
    .first<OfferRow>();
  if (!row) throw new AppError("NOT_FOUND", T.offerNotFound);
  return row;
}

// ---- proposing ----------------------------------------------------------------------------------

export interface NewTradeOffer {
  requestedListingId: string;
  offeredListingId: string;
  message: string | null;
}

/**
 * "Send bytteforslag": one batch that opens (or reuses) the conversation about the wanted listing
 * between the sender and its owner and stores the pending offer there. Both statements carry every
 * rule: the wanted listing is someone else's, open for trade and tradable; the offered one is the
 * sender's and tradable; the sender has no live offer of the same pair. So a refused offer writes
 * nothing, not even the conversation.
 */
export async function createTradeOffer(db: Db, senderId: string, input: NewTradeOffer, now: Date = new Date()): Promise<TradeChangeResult> {
  // A suspended user offers no trades (docs/decisions/051-suspensions.md).
  await assertNotSuspended(db, senderId);
  const at = now.toISOString();
  const offerId = crypto.randomUUID();
  // ?1 wanted listing, ?2 sender, ?3 offered listing, ?4 now
  const rules = `
    r.id = ?1 AND r.user_id <> ?2 AND r.is_trade_offer = 1 AND ${tradable("r")}
    AND EXISTS (SELECT 1 FROM listings x WHERE x.id = ?3 AND x.user_id = ?2 AND ${tradable("x")})
    AND NOT EXISTS (SELECT 1 FROM trade_offers d WHERE d.from_user_id = ?2 AND d.offered_listing_id = ?3
                    AND d.requested_listing_id = ?1 AND d.status = 'pending' AND d.expires_at > ?4)`;
  const [, inserted] = await db.batch([
    // The one conversation per (listing, buyer, seller) (decision 031): created here when missing.
    db
      .prepare(
        `INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq, created_at, updated_at)
         SELECT ?5, r.id, ?2, r.user_id, 0, ?4, ?4 FROM listings r WHERE ${rules}
         ON CONFLICT (listing_id, buyer_id, seller_id) DO NOTHING`,
      )
      .bind(input.requestedListingId, senderId, input.offeredListingId, at, crypto.randomUUID()),
    db
      .prepare(
        `INSERT INTO trade_offers (id, conversation_id, from_user_id, to_user_id, offered_listing_id, requested_listing_id,
                                   message, status, created_at, updated_at, expires_at, change_id)
         SELECT ?5, c.id, ?2, r.user_id, ?3, r.id, ?6, 'pending', ?4, ?4, ?7, ?5
         FROM listings r JOIN conversations c ON c.listing_id = r.id AND c.buyer_id = ?2 AND c.seller_id = r.user_id
         WHERE ${rules}
         RETURNING id, conversation_id`,
      )
      .bind(input.requestedListingId, senderId, input.offeredListingId, at, offerId, input.message, tradeExpiresAt(now)),
  ]);
  const row = (inserted.results as AffectedOffer[])[0];
  if (row) return { offerId: row.id, conversationId: row.conversation_id, change: "created", superseded: [], listings: [] };
  throw await whyNoOffer(db, senderId, input, at);
}

interface ListingFacts {
  id: string;
  user_id: string;
  status: ListingStatus;
  is_hidden: number;
  is_trade_offer: number;
  promised: number;
}

/** Why the offer was refused, read after the fact (the batch itself decided). */
async function whyNoOffer(db: Db, senderId: string, input: NewTradeOffer, at: string): Promise<AppError> {
  const facts = (id: string) =>
    db
      .prepare(
        `SELECT l.id, l.user_id, l.status, l.is_hidden, l.is_trade_offer,
                EXISTS (SELECT 1 FROM trade_offers a WHERE a.status = 'accepted' AND l.id IN (a.offered_listing_id, a.requested_listing_id)) AS promised
         FROM listings l WHERE l.id = ?1`,
      )
      .bind(id)
      .first<ListingFacts>();
  const [wanted, offered] = await Promise.all([facts(input.requestedListingId), facts(input.offeredListingId)]);
  // What the sender could not see (sold, deleted, hidden) does not exist for them.
  if (!wanted || !isPublicListing({ status: wanted.status, is_hidden: !!wanted.is_hidden }))
    return new AppError("NOT_FOUND", T.listingNotFound);
  if (wanted.user_id === senderId) return new AppError("FORBIDDEN", T.ownListing);
  if (!wanted.is_trade_offer) return new AppError("CONFLICT", T.notOpenForTrade);
  if (wanted.status !== "active") return new AppError("CONFLICT", wanted.promised ? T.requestedPromised : T.requestedUnavailable);
  if (!offered || offered.user_id !== senderId || offered.status === "deleted") {
    return new AppError("VALIDATION", T.offeredNotOwn, { offered_listing_id: T.offeredNotOwn });
  }
  if (offered.status !== "active" || offered.is_hidden)
    return new AppError("CONFLICT", offered.promised ? T.offeredPromised : T.offeredUnavailable);
  const duplicate = await db
    .prepare(
      `SELECT 1 FROM trade_offers WHERE from_user_id = ?1 AND offered_listing_id = ?2 AND requested_listing_id = ?3
       AND status = 'pending' AND expires_at > ?4`,
    )
    .bind(senderId, input.offeredListingId, input.requestedListingId, at)
    .first();
  if (duplicate) return new AppError("CONFLICT", T.duplicate);
  return new AppError("CONFLICT", T.concurrent);
}

// ---- answering ----------------------------------------------------------------------------------

/** "Aksepter": the recipient promises both listings to each other (reserved) and voids the rival offers. */
export async function acceptTradeOffer(db: Db, offerId: string, userId: string, now: Date = new Date()): Promise<TradeChangeResult> {
  const offer = await offerFor(db, offerId, userId);
  await assertNotSuspended(db, userId);
  const at = now.toISOString();
  const change = crypto.randomUUID();
  // ?1 offer, ?2 this request's change id, ?3 now
  const results = await db.batch([
    db
      .prepare(
        `UPDATE trade_offers SET status = 'accepted', change_id = ?2, updated_at = ?3
         WHERE id = ?1 AND status = 'pending' AND to_user_id = ?4 AND expires_at > ?3
           AND EXISTS (SELECT 1 FROM listings x WHERE x.id = trade_offers.offered_listing_id AND x.user_id = trade_offers.from_user_id AND ${tradable("x")})
           AND EXISTS (SELECT 1 FROM listings r WHERE r.id = trade_offers.requested_listing_id AND r.user_id = trade_offers.to_user_id AND ${tradable("r")})`,
      )
      .bind(offer.id, change, at, userId),
    // The trade (docs/product.md "Server calls"): user1 offered, user2 was asked; completed once both confirm.
    db
      .prepare(
        `INSERT INTO trades (id, trade_offer_id, user1_id, user2_id, user1_listing_id, user2_listing_id, status, created_at)
         SELECT ?4, w.id, w.from_user_id, w.to_user_id, w.offered_listing_id, w.requested_listing_id, 'pending', ?3
         FROM trade_offers w WHERE w.id = ?1 AND w.change_id = ?2`,
      )
      .bind(offer.id, change, at, crypto.randomUUID()),
    db
      .prepare(`UPDATE listings SET status = 'reserved', updated_at = ?3 WHERE id IN (?4, ?5) AND ${WON}`)
      .bind(offer.id, change, at, offer.offered_listing_id, offer.requested_listing_id),
    // Every other live offer that involves either listing is void now.
    db
      .prepare(
        `UPDATE trade_offers SET status = 'cancelled', change_id = ?2, updated_at = ?3
         WHERE id <> ?1 AND status = 'pending' AND expires_at > ?3
           AND (offered_listing_id IN (?4, ?5) OR requested_listing_id IN (?4, ?5))
           AND ${WON}
         RETURNING id, conversation_id`,
      )
      .bind(offer.id, change, at, offer.offered_listing_id, offer.requested_listing_id),
  ]);
  if (results[0].meta.changes !== 1) throw await whyRefused(db, offer.id, userId, "accept", now);
  return {
    offerId: offer.id,
    conversationId: offer.conversation_id,
    change: "accepted",
    superseded: results[3].results as AffectedOffer[],
    listings: bothListings(offer),
  };
}

/** "Avslå": only the recipient, only while pending and not expired. */
export async function rejectTradeOffer(db: Db, offerId: string, userId: string, now: Date = new Date()): Promise<TradeChangeResult> {
  const offer = await offerFor(db, offerId, userId);
  const at = now.toISOString();
  const result = await db
    .prepare(
      `UPDATE trade_offers SET status = 'rejected', change_id = ?2, updated_at = ?3
       WHERE id = ?1 AND status = 'pending' AND to_user_id = ?4 AND expires_at > ?3`,
    )
    .bind(offer.id, crypto.randomUUID(), at, userId)
    .run();
  if (result.meta.changes !== 1) throw await whyRefused(db, offer.id, userId, "reject", now);
  return { offerId: offer.id, conversationId: offer.conversation_id, change: "rejected", superseded: [], listings: [] };
}

/**
 * Cancel: the sender withdraws a pending offer; or either party calls off an accepted trade before
 * the handover, and both listings are active again.
 */
export async function cancelTradeOffer(db: Db, offerId: string, userId: string, now: Date = new Date()): Promise<TradeChangeResult> {
  const offer = await offerFor(db, offerId, userId);
  const at = now.toISOString();
  const change = crypto.randomUUID();
  if (offer.status !== "accepted") {
    const result = await db
      .prepare(
        `UPDATE trade_offers SET status = 'cancelled', change_id = ?2, updated_at = ?3
         WHERE id = ?1 AND status = 'pending' AND from_user_id = ?4 AND expires_at > ?3`,
      )
      .bind(offer.id, change, at, userId)
      .run();
    if (result.meta.changes !== 1) throw await whyRefused(db, offer.id, userId, "cancel", now);
    return { offerId: offer.id, conversationId: offer.conversation_id, change: "withdrawn", superseded: [], listings: [] };
  }
  const results = await db.batch([
    db
      .prepare(
        `UPDATE trade_offers SET status = 'cancelled', change_id = ?2, updated_at = ?3
         WHERE id = ?1 AND status = 'accepted' AND ?4 IN (from_user_id, to_user_id)`,
      )
      .bind(offer.id, change, at, userId),
    db.prepare(`UPDATE trades SET status = 'cancelled' WHERE trade_offer_id = ?1 AND status = 'pending' AND ${WON}`).bind(offer.id, change),
    db
      .prepare(`UPDATE listings SET status = 'active', updated_at = ?3 WHERE id IN (?4, ?5) AND status = 'reserved' AND ${WON}`)
      .bind(offer.id, change, at, offer.offered_listing_id, offer.requested_listing_id),
  ]);
  if (results[0].meta.changes !== 1) throw await whyRefused(db, offer.id, userId, "cancel", now);
  return { offerId: offer.id, conversationId: offer.conversation_id, change: "cancelled", superseded: [], listings: bothListings(offer) };
}

/**
 * "Bekreft overlevering": each party confirms once (again is harmless); the confirmation that makes
 * two completes the trade and the offer and marks both listings traded.
 */
export async function confirmHandover(db: Db, offerId: string, userId: string, now: Date = new Date()): Promise<TradeChangeResult> {
  const offer = await offerFor(db, offerId, userId);
  const at = now.toISOString();
  const completedTx = "SELECT 1 FROM trades t WHERE t.trade_offer_id = ?1 AND t.status = 'completed'";
  const results = await db.batch([
    db
      .prepare(
        `UPDATE trades
         SET user1_confirmed_at = CASE WHEN user1_id = ?2 THEN COALESCE(user1_confirmed_at, ?3) ELSE user1_confirmed_at END,
             user2_confirmed_at = CASE WHEN user2_id = ?2 THEN COALESCE(user2_confirmed_at, ?3) ELSE user2_confirmed_at END
         WHERE trade_offer_id = ?1 AND status = 'pending' AND ?2 IN (user1_id, user2_id)
           AND EXISTS (SELECT 1 FROM trade_offers w WHERE w.id = ?1 AND w.status = 'accepted')`,
      )
      .bind(offer.id, userId, at),
    db
      .prepare(
        `UPDATE trades SET status = 'completed', completed_at = ?2
         WHERE trade_offer_id = ?1 AND status = 'pending' AND user1_confirmed_at IS NOT NULL AND user2_confirmed_at IS NOT NULL
         RETURNING id`,
      )
      .bind(offer.id, at),
    db
      .prepare(
        `UPDATE trade_offers SET status = 'completed', change_id = ?3, updated_at = ?2 WHERE id = ?1 AND status = 'accepted' AND EXISTS (${completedTx})`,
      )
      .bind(offer.id, at, crypto.randomUUID()),
    db
      .prepare(
        `UPDATE listings SET status = 'traded', updated_at = ?2 WHERE id IN (?3, ?4) AND status = 'reserved' AND EXISTS (${completedTx})`,
      )
      .bind(offer.id, at, offer.offered_listing_id, offer.requested_listing_id),
  ]);
  if (results[0].meta.changes !== 1) throw await whyRefused(db, offer.id, userId, "confirm", now);
  const completed = results[1].results.length === 1;
  return {
    offerId: offer.id,
    conversationId: offer.conversation_id,
    change: completed ? "completed" : "confirmed",
    superseded: [],
    listings: completed ? bothListings(offer) : [],
  };
}

/** Why a party's action changed nothing, from a fresh read (the batch itself decided). */
async function whyRefused(db: Db, offerId: string, userId: string, action: TradeAction, now: Date): Promise<AppError> {
  const offer = await offerFor(db, offerId, userId);
  const role = roleOf(offer, userId);
  if ((action === "accept" || action === "reject") && role !== "recipient") return new AppError("FORBIDDEN", T.onlyRecipientAnswers);
  if (action === "cancel" && offer.status === "pending" && role !== "sender") return new AppError("FORBIDDEN", T.onlySenderWithdraws);
  if (offer.status === "pending" && isExpired(offer, now) && action !== "confirm") return new AppError("CONFLICT", T.expired);
  if (offer.status === "completed")
    return new AppError("CONFLICT", action === "accept" || action === "reject" ? T.alreadyAnswered : T.alreadyCompleted);
  if (offer.status === "cancelled" && (action === "cancel" || action === "confirm")) return new AppError("CONFLICT", T.alreadyCancelled);
  if (action === "confirm" && offer.status !== "accepted") return new AppError("CONFLICT", T.notAccepted);
  if ((action === "accept" || action === "reject") && offer.status !== "pending") return new AppError("CONFLICT", T.alreadyAnswered);
  if (action === "cancel" && offer.status === "rejected") return new AppError("CONFLICT", T.alreadyAnswered);
  if (action === "accept" && offer.status === "pending") {
    const unavailable = await db
      .prepare(
        `SELECT 1 FROM listings l WHERE l.id IN (?1, ?2)
         AND NOT (${tradable("l")} AND l.user_id = CASE l.id WHEN ?1 THEN ?3 ELSE ?4 END) LIMIT 1`,
      )
      .bind(offer.offered_listing_id, offer.requested_listing_id, offer.from_user_id, offer.to_user_id)
      .first();
    if (unavailable) return new AppError("CONFLICT", T.listingsUnavailable);
  }
  return new AppError("CONFLICT", T.concurrent);
}

// ---- the listings' side -------------------------------------------------------------------------

/**
 * SQL for "this listing is promised in an accepted trade" (`alias` names the listings table): the
 * owner may not change or delete it until the trade is completed or called off.
 */
export function promisedInTradeSql(alias = "listings"): string {
  return `EXISTS (SELECT 1 FROM trade_offers p WHERE p.status = 'accepted' AND ${alias}.id IN (p.offered_listing_id, p.requested_listing_id))`;
}

export async function isPromisedInTrade(db: Db, listingId: string): Promise<boolean> {
  return !!(await db.prepare(`SELECT 1 FROM listings WHERE id = ?1 AND ${promisedInTradeSql()}`).bind(listingId).first());
}

/**
 * Account deletion: the user's live offers and agreed trades are called off, and the other party's
 * listings promised to them are active again (statements for the deletion's own batch).
 */
export function callOffTradesOf(db: Db, userId: string, at: string): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE listings SET status = 'active', updated_at = ?2
         WHERE status = 'reserved' AND user_id <> ?1 AND id IN (
           SELECT CASE WHEN a.from_user_id = ?1 THEN a.requested_listing_id ELSE a.offered_listing_id END
           FROM trade_offers a WHERE a.status = 'accepted' AND ?1 IN (a.from_user_id, a.to_user_id))`,
      )
      .bind(userId, at),
    db.prepare("UPDATE trades SET status = 'cancelled' WHERE status = 'pending' AND ?1 IN (user1_id, user2_id)").bind(userId),
    db
      .prepare(
        `UPDATE trade_offers SET status = 'cancelled', change_id = ?3, updated_at = ?2
         WHERE status IN ('pending', 'accepted') AND ?1 IN (from_user_id, to_user_id)`,
      )
      .bind(userId, at, crypto.randomUUID()),
  ];
}
