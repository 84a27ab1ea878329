// The deals a review can belong to (decision 070), one source per kind: how to find a deal by its id
// (its two parties, when it was completed, what each party was in it) and which deals a conversation
// holds (for the prompt in the chat). A kind without a source here cannot be reviewed (404).
import type { DealKind, DealRole, ReviewDeal } from "../../../domain/reviews";
import type { Db } from "../../db/client";

export interface DealRecord extends ReviewDeal {
  /** What each party was in the deal ("Kjøper", "Selger", "Bytte", …), by user id. */
  roles: Record<string, DealRole>;
  /** The listing the deal was about (a trade: the listing the offer asked for). */
  title: string | null;
  conversationId: string | null;
}

export interface DealSource {
  find(db: Db, dealId: string): Promise<DealRecord | null>;
  /** The ids of this kind's completed deals whose conversation is `conversationId`. */
  inConversation(db: Db, conversationId: string): Promise<string[]>;
}

/**
 * A sale is a paid order: the row fulfilment writes for the winning payment (decision
 * 034). It can be reviewed once its held money is released or refunded (decision 105): until then
 * `completedAt` is null.
 */
const sale: DealSource = {
  async find(db, dealId) {
    const row = await db
      .prepare(
        `SELECT t.id, p.seller_id, p.buyer_id, t.settled_at, t.conversation_id, l.title
         FROM orders t JOIN payments p ON p.id = t.payment_id JOIN listings l ON l.id = p.listing_id
         WHERE t.id = ?1`,
      )
      .bind(dealId)
      .first<{
        id: string;
        seller_id: string;
        buyer_id: string;
        settled_at: string | null;
        conversation_id: string | null;
        title: string;
      }>();
    if (!row) return null;
    return {
      kind: "sale",
      id: row.id,
      parties: [row.seller_id, row.buyer_id],
      completedAt: row.settled_at,
      roles: { [row.seller_id]: "seller", [row.buyer_id]: "buyer" },
      title: row.title,
      conversationId: row.conversation_id,
    };
  },
  async inConversation(db, conversationId) {
    const { results } = await db
      .prepare(
        `SELECT t.id FROM orders t
         WHERE t.conversation_id = ?1 AND t.settled_at IS NOT NULL ORDER BY t.settled_at`,
      )
      .bind(conversationId)
      .all<{ id: string }>();
    return results.map((r) => r.id);
  },
};

/**
 * A trade is a row of `trades` (decision 046). It is completed when both parties have confirmed
 * the handover; until then `completedAt` is null (not reviewable yet); a cancelled one is no deal.
 */
const trade: DealSource = {
  async find(db, dealId) {
    const row = await db
      .prepare(
        `SELECT s.id, s.user1_id, s.user2_id, s.status, s.completed_at, o.conversation_id, l.title
         FROM trades s JOIN trade_offers o ON o.id = s.trade_offer_id JOIN listings l ON l.id = o.requested_listing_id
         WHERE s.id = ?1 AND s.status <> 'cancelled'`,
      )
      .bind(dealId)
      .first<{
        id: string;
        user1_id: string;
        user2_id: string;
        status: string;
        completed_at: string | null;
        conversation_id: string;
        title: string;
      }>();
    if (!row) return null;
    return {
      kind: "trade",
      id: row.id,
      parties: [row.user1_id, row.user2_id],
      completedAt: row.status === "completed" ? row.completed_at : null,
      roles: { [row.user1_id]: "trader", [row.user2_id]: "trader" },
      title: row.title,
      conversationId: row.conversation_id,
    };
  },
  async inConversation(db, conversationId) {
    const { results } = await db
      .prepare(
        `SELECT s.id FROM trades s JOIN trade_offers o ON o.id = s.trade_offer_id
         WHERE o.conversation_id = ?1 AND s.status = 'completed' ORDER BY s.completed_at`,
      )
      .bind(conversationId)
      .all<{ id: string }>();
    return results.map((r) => r.id);
  },
};

/**
 * A give-away is the record "Marker som gitt bort" writes (decision 075): giver and taker, the time it
 * was given, the chat the reservation opened. It exists only once the toy is given, so it is complete.
 */
const giveaway: DealSource = {
  async find(db, dealId) {
    const row = await db
      .prepare(
        `SELECT g.id, g.giver_id, g.taker_id, g.given_at, g.conversation_id, l.title
         FROM giveaways g JOIN listings l ON l.id = g.listing_id WHERE g.id = ?1`,
      )
      .bind(dealId)
      .first<{ id: string; giver_id: string; taker_id: string; given_at: string; conversation_id: string | null; title: string }>();
    if (!row) return null;
    return {
      kind: "giveaway",
      id: row.id,
      parties: [row.giver_id, row.taker_id],
      completedAt: row.given_at,
      roles: { [row.giver_id]: "giver", [row.taker_id]: "taker" },
      title: row.title,
      conversationId: row.conversation_id,
    };
  },
  async inConversation(db, conversationId) {
    const { results } = await db
      .prepare("SELECT id FROM giveaways WHERE conversation_id = ?1 ORDER BY given_at")
      .bind(conversationId)
      .all<{ id: string }>();
    return results.map((r) => r.id);
  },
};

export const DEAL_SOURCES: Record<DealKind, DealSource> = { sale, trade, giveaway };

export async function findDeal(db: Db, kind: DealKind, dealId: string): Promise<DealRecord | null> {
  return (await DEAL_SOURCES[kind]?.find(db, dealId)) ?? null;
}

/**
 * SQL for how many completed deals (sales, trades, give-aways) the user in `userColumn` has had with
 * an account created at or before the bound parameter `cutoffParam` (decision 082): two accounts
 * made the same day cannot vouch for each other by trading.
 */
export function completedDealsWithEstablishedSql(userColumn: string, cutoffParam: string): string {
  const other = (a: string, b: string) =>
    `(SELECT created_at FROM users WHERE id = CASE WHEN ${a} = ${userColumn} THEN ${b} ELSE ${a} END)`;
  return `((SELECT COUNT(*) FROM orders t JOIN payments p ON p.id = t.payment_id
             WHERE p.status = 'completed' AND ${userColumn} IN (p.seller_id, p.buyer_id) AND ${other("p.seller_id", "p.buyer_id")} <= ${cutoffParam})
         + (SELECT COUNT(*) FROM trades s
             WHERE s.status = 'completed' AND ${userColumn} IN (s.user1_id, s.user2_id) AND ${other("s.user1_id", "s.user2_id")} <= ${cutoffParam})
         + (SELECT COUNT(*) FROM giveaways g
             WHERE ${userColumn} IN (g.giver_id, g.taker_id) AND ${other("g.giver_id", "g.taker_id")} <= ${cutoffParam}))`;
}
