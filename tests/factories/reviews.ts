// Completed deals and reviews inserted straight into D1 for worker tests, as the payment and trade
// services and the review service write them.
import { env } from "cloudflare:workers";
import { reviewWindowClosesAt, type DealKind } from "../../domain/reviews";
import { nextTimestamp } from "./clock";
import { createListing, type ListingRow } from "./listings";
import { createTrade } from "./trades";
import { createUser, type TestUser } from "./users";

export interface DealFixture {
  kind: DealKind;
  id: string;
  conversationId: string;
  /** The seller, or the trade's sender. */
  a: TestUser;
  /** The buyer, or the trade's recipient. */
  b: TestUser;
  completedAt: string;
  /** The listings the deal was about: the one sold or given away; a trade's requested and offered. */
  listings: ListingRow[];
}

/** A paid order: the listing sold, a completed payment and its order in a conversation. */
export async function createSale(
  options: {
    seller?: TestUser;
    buyer?: TestUser;
    paidAt?: string;
    paymentStatus?: string;
    /** The held money (decision 105): released by default, so the sale can be reviewed. */
    orderState?: "held" | "handed_over" | "problem" | "released";
    listing?: Parameters<typeof createListing>[0];
  } = {},
  db: D1Database = env.DB,
): Promise<DealFixture> {
  const seller = options.seller ?? (await createUser({ displayName: "Selma Selger" }, db));
  const buyer = options.buyer ?? (await createUser({ displayName: "Kjell Kjøper" }, db));
  const listing = await createListing({ userId: seller.id, title: "Solgt dukkehus", price: 250, status: "sold", ...options.listing }, db);
  const paidAt = options.paidAt ?? nextTimestamp();
  const paymentId = crypto.randomUUID();
  const conversationId = crypto.randomUUID();
  const id = crypto.randomUUID();
  await db.batch([
    db
      .prepare(
        "INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 0, ?5, ?5)",
      )
      .bind(conversationId, listing.id, buyer.id, seller.id, paidAt),
    db
      .prepare(
        "INSERT INTO payments (id, listing_id, seller_id, buyer_id, provider, provider_ref, amount, status, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 'stripe', ?5, 25000, ?6, ?7, ?7)",
      )
      .bind(paymentId, listing.id, seller.id, buyer.id, `cs_test_${paymentId}`, options.paymentStatus ?? "completed", paidAt),
    db
      .prepare(
        `INSERT INTO orders (id, payment_id, paid_at, conversation_id, state, settled_at, money_moved_at)
         VALUES (?1, ?2, ?3, ?4, ?5, CASE ?5 WHEN 'released' THEN ?3 END, CASE ?5 WHEN 'released' THEN ?3 END)`,
      )
      .bind(id, paymentId, paidAt, conversationId, options.orderState ?? "released"),
  ]);
  return { kind: "sale", id, conversationId, a: seller, b: buyer, completedAt: paidAt, listings: [listing] };
}

/** A trade whose handover both confirmed (`completedAt` moves the completion back in time). */
export async function createCompletedTrade(
  options: { completedAt?: string; status?: "accepted" | "completed" } = {},
  db: D1Database = env.DB,
): Promise<DealFixture> {
  const trade = await createTrade({ status: options.status ?? "completed" }, db);
  const row = await db
    .prepare("SELECT id, completed_at FROM trades WHERE trade_offer_id = ?1")
    .bind(trade.offerId)
    .first<{ id: string; completed_at: string | null }>();
  if (options.completedAt) await db.prepare("UPDATE trades SET completed_at = ?2 WHERE id = ?1").bind(row!.id, options.completedAt).run();
  return {
    kind: "trade",
    id: row!.id,
    conversationId: trade.conversationId,
    a: trade.sender,
    b: trade.recipient,
    completedAt: options.completedAt ?? row!.completed_at ?? "",
    listings: [trade.requested, trade.offered],
  };
}

/**
 * A give-away as "Marker som gitt bort" leaves it (decision 075): the taker's queue entry given, the
 * record of the deal, the listing given away. `a` is the giver, `b` the taker.
 */
export async function createGiveaway(options: { giver?: TestUser; taker?: TestUser } = {}, db: D1Database = env.DB): Promise<DealFixture> {
  const giver = options.giver ?? (await createUser({ displayName: "Gina Giver" }, db));
  const taker = options.taker ?? (await createUser({ displayName: "Tor Taker" }, db));
  const listing = await createListing(
    { userId: giver.id, title: "Gitt bort sandkasse", isFree: true, price: null, status: "given_away" },
    db,
  );
  const givenAt = nextTimestamp();
  const conversationId = crypto.randomUUID();
  const entryId = crypto.randomUUID();
  const id = crypto.randomUUID();
  await db.batch([
    db
      .prepare(
        "INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 0, ?5, ?5)",
      )
      .bind(conversationId, listing.id, taker.id, giver.id, givenAt),
    db
      .prepare(
        `INSERT INTO giveaway_queue (id, listing_id, giver_id, user_id, message, status, reserved_at, conversation_id, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, 'Kan hente i dag', 'given', ?5, ?6, ?5, ?5)`,
      )
      .bind(entryId, listing.id, giver.id, taker.id, givenAt, conversationId),
    db
      .prepare(
        "INSERT INTO giveaways (id, listing_id, giver_id, taker_id, entry_id, conversation_id, given_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
      )
      .bind(id, listing.id, giver.id, taker.id, entryId, conversationId, givenAt),
  ]);
  return { kind: "giveaway", id, conversationId, a: giver, b: taker, completedAt: givenAt, listings: [listing] };
}

/** A review as the service stores it. */
export async function createReview(
  deal: DealFixture,
  reviewer: TestUser,
  reviewee: TestUser,
  overrides: { rating?: number; text?: string | null; hidden?: boolean; createdAt?: string } = {},
  db: D1Database = env.DB,
): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .prepare(
      `INSERT INTO reviews (id, deal_kind, deal_id, reviewer_id, reviewee_id, rating, text, window_closes_at, is_hidden, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`,
    )
    .bind(
      id,
      deal.kind,
      deal.id,
      reviewer.id,
      reviewee.id,
      overrides.rating ?? 5,
      overrides.text === undefined ? "Alt gikk fint." : overrides.text,
      reviewWindowClosesAt(deal.completedAt),
      overrides.hidden ? 1 : 0,
      overrides.createdAt ?? nextTimestamp(),
    )
    .run();
  return id;
}
