// Trades inserted straight into D1 for worker tests, consistent with what the trade service writes:
// an accepted offer has a pending trade and both listings reserved, a completed one a
// completed trade and both listings traded, a cancelled or rejected one active listings.
import { env } from "cloudflare:workers";
import { tradeExpiresAt, type TradeOfferStatus } from "../../domain/trades";
import { nextTimestamp } from "./clock";
import { createListing, type ListingRow } from "./listings";
import { createUser, type TestUser } from "./users";

export interface TradeFixture {
  offerId: string;
  conversationId: string;
  /** Sent the offer (the conversation's buyer). */
  sender: TestUser;
  /** Owns the wanted listing (the conversation's seller). */
  recipient: TestUser;
  offered: ListingRow;
  requested: ListingRow;
}

export interface TradeOptions {
  status?: TradeOfferStatus;
  /** A pending offer whose seven days are over. */
  expired?: boolean;
  /** Reuse people or listings (to make offers compete for a listing). */
  sender?: TestUser;
  recipient?: TestUser;
  offered?: ListingRow;
  requested?: ListingRow;
  /** Accepted trades: who has confirmed the handover already. */
  confirmedBy?: ("sender" | "recipient")[];
}

const LISTING_STATUS: Record<TradeOfferStatus, "active" | "reserved" | "traded"> = {
  pending: "active",
  rejected: "active",
  cancelled: "active",
  accepted: "reserved",
  completed: "traded",
};

export async function createTrade(options: TradeOptions = {}, db: D1Database = env.DB): Promise<TradeFixture> {
  const status = options.status ?? "pending";
  const sender = options.sender ?? (await createUser({ displayName: "Siri Sender" }, db));
  const recipient = options.recipient ?? (await createUser({ displayName: "Mats Mottaker" }, db));
  const requested = options.requested ?? (await createListing({ userId: recipient.id, isTradeOffer: true, title: "Ønsket leke" }, db));
  const offered = options.offered ?? (await createListing({ userId: sender.id, title: "Tilbudt leke" }, db));
  const at = nextTimestamp();
  const created = options.expired ? new Date(Date.now() - 8 * 24 * 3_600_000) : new Date(at);
  await db
    .prepare(
      `INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, 0, ?5, ?5) ON CONFLICT (listing_id, buyer_id, seller_id) DO NOTHING`,
    )
    .bind(crypto.randomUUID(), requested.id, sender.id, recipient.id, at)
    .run();
  const conv = await db
    .prepare("SELECT id FROM conversations WHERE listing_id = ?1 AND buyer_id = ?2 AND seller_id = ?3")
    .bind(requested.id, sender.id, recipient.id)
    .first<{ id: string }>();
  const offerId = crypto.randomUUID();
  const stmts = [
    db
      .prepare(
        `INSERT INTO trade_offers (id, conversation_id, from_user_id, to_user_id, offered_listing_id, requested_listing_id, message, status, created_at, updated_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'Vil du bytte?', ?7, ?8, ?8, ?9)`,
      )
      .bind(offerId, conv!.id, sender.id, recipient.id, offered.id, requested.id, status, created.toISOString(), tradeExpiresAt(created)),
    db.prepare("UPDATE listings SET status = ?1 WHERE id IN (?2, ?3)").bind(LISTING_STATUS[status], offered.id, requested.id),
  ];
  if (status === "accepted" || status === "completed") {
    const confirmed = status === "completed" ? ["sender", "recipient"] : (options.confirmedBy ?? []);
    stmts.push(
      db
        .prepare(
          `INSERT INTO trades (id, trade_offer_id, user1_id, user2_id, user1_listing_id, user2_listing_id, status, created_at, completed_at, user1_confirmed_at, user2_confirmed_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`,
        )
        .bind(
          crypto.randomUUID(),
          offerId,
          sender.id,
          recipient.id,
          offered.id,
          requested.id,
          status === "completed" ? "completed" : "pending",
          at,
          status === "completed" ? at : null,
          confirmed.includes("sender") ? at : null,
          confirmed.includes("recipient") ? at : null,
        ),
    );
  }
  await db.batch(stmts);
  return {
    offerId,
    conversationId: conv!.id,
    sender,
    recipient,
    offered: { ...offered, status: LISTING_STATUS[status] },
    requested: { ...requested, status: LISTING_STATUS[status] },
  };
}
