// Reading trades: the proposal page, the offer cards of a conversation and the trade history. Each
// list is one statement with the listings and the other party joined in (no lookup per row), and
// the history's three counts come in the same D1 round trip as the list.
import { isPublicListing } from "../../../domain/listing-lifecycle";
import { ANONYMOUS_NAME, DELETED_USER_NAME } from "../../../domain/chat";
import type { ListingStatus } from "../../../domain/taxonomy";
import {
  TRADE_ERROR_TEXTS as T,
  TRADE_HISTORY_PAGE_SIZE,
  type CompletedTrade,
  type TradeHistoryCounts,
  type TradeHistoryPage,
  type TradeListing,
  type TradeOfferStatus,
  type TradeOfferView,
  type TradeParty,
  type TradeProposal,
} from "../../../domain/trades";
import type { Db } from "../../db/client";
import { listedListingSql } from "../listings/visibility";
import { AppError } from "../../lib/errors";
import { requireParticipant } from "../chat/conversations";
import { UUID_RE } from "../../lib/uuid";

type ListingColumns<P extends string> = {
  [K in "id" | "title" | "price" | "is_free" | "images" | "status" | "is_hidden" | "seo_slug" as `${P}_${K}`]: K extends "price"
    ? number | null
    : K extends "is_free" | "is_hidden"
      ? number
      : string;
};

/** The listing columns of `alias`, prefixed `prefix_`. */
const listingColumns = (alias: string, prefix: string) =>
  ["id", "title", "price", "is_free", "images", "status", "is_hidden", "seo_slug"].map((c) => `${alias}.${c} AS ${prefix}_${c}`).join(", ");

function toListing<P extends string>(row: ListingColumns<P>, prefix: P): TradeListing {
  const get = <K extends string>(key: K) => (row as Record<string, unknown>)[`${prefix}_${key}`];
  const status = get("status") as string;
  let images: string[] = [];
  // The photos of a deleted or hidden listing are not served: show the stock picture instead.
  if (status !== "deleted" && !get("is_hidden")) {
    try {
      images = JSON.parse(get("images") as string) as string[];
    } catch {
      images = [];
    }
  }
  return {
    id: get("id") as string,
    title: get("title") as string,
    price: get("price") as number | null,
    is_free: !!get("is_free"),
    images,
    status,
    seo_slug: get("seo_slug") as string,
  };
}

interface PartyColumns {
  other_id: string;
  other_name: string | null;
  other_deleted_at: string | null;
}

function toParty(row: PartyColumns): TradeParty {
  return {
    id: row.other_id,
    display_name: row.other_deleted_at ? DELETED_USER_NAME : row.other_name?.trim() || ANONYMOUS_NAME,
    deleted: !!row.other_deleted_at,
  };
}

// ---- offers -------------------------------------------------------------------------------------

type OfferRow = PartyColumns &
  ListingColumns<"o"> &
  ListingColumns<"r"> & {
    id: string;
    conversation_id: string;
    from_user_id: string;
    to_user_id: string;
    status: TradeOfferStatus;
    message: string | null;
    created_at: string;
    updated_at: string;
    expires_at: string;
    user1_confirmed_at: string | null;
    user2_confirmed_at: string | null;
    completed_at: string | null;
  };

// ?1 is the viewer; the condition and the order come after.
const OFFER_SELECT = `
  SELECT o.id, o.conversation_id, o.from_user_id, o.to_user_id, o.status, o.message, o.created_at, o.updated_at, o.expires_at,
         ou.id AS other_id, op.display_name AS other_name, ou.deleted_at AS other_deleted_at,
         ${listingColumns("lo", "o")}, ${listingColumns("lr", "r")},
         t.user1_confirmed_at, t.user2_confirmed_at, t.completed_at
  FROM trade_offers o
  JOIN users ou ON ou.id = CASE WHEN o.from_user_id = ?1 THEN o.to_user_id ELSE o.from_user_id END
  LEFT JOIN profiles op ON op.user_id = ou.id
  JOIN listings lo ON lo.id = o.offered_listing_id
  JOIN listings lr ON lr.id = o.requested_listing_id
  LEFT JOIN trades t ON t.trade_offer_id = o.id`;

function toOfferView(row: OfferRow, viewerId: string): TradeOfferView {
  const sender = row.from_user_id === viewerId;
  const mine = sender ? row.user1_confirmed_at : row.user2_confirmed_at;
  const theirs = sender ? row.user2_confirmed_at : row.user1_confirmed_at;
  const agreed = row.status === "accepted" || row.status === "completed";
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    from_user_id: row.from_user_id,
    to_user_id: row.to_user_id,
    status: row.status,
    message: row.message,
    created_at: row.created_at,
    updated_at: row.updated_at,
    expires_at: row.expires_at,
    other_user: toParty(row),
    offered_listing: toListing(row, "o"),
    requested_listing: toListing(row, "r"),
    handover: agreed ? { confirmed_by_me: !!mine, confirmed_by_other: !!theirs, completed_at: row.completed_at } : null,
  };
}

/** One offer as `viewerId` sees it (404 to anyone who is not a party). */
export async function tradeOfferView(db: Db, offerId: string, viewerId: string): Promise<TradeOfferView> {
  if (!UUID_RE.test(offerId)) throw new AppError("NOT_FOUND", T.offerNotFound);
  const row = await db
    .prepare(`${OFFER_SELECT} WHERE o.id = ?2 AND ?1 IN (o.from_user_id, o.to_user_id)`)
    .bind(viewerId, offerId)
    .first<OfferRow>();
  if (!row) throw new AppError("NOT_FOUND", T.offerNotFound);
  return toOfferView(row, viewerId);
}

/** The offer cards above a chat's messages, newest first (participants only, else 404). */
export async function conversationTradeOffers(db: Db, conversationId: string, viewerId: string): Promise<TradeOfferView[]> {
  const conv = await requireParticipant(db, conversationId, viewerId);
  const { results } = await db
    .prepare(`${OFFER_SELECT} WHERE o.conversation_id = ?2 AND ?1 IN (o.from_user_id, o.to_user_id) ORDER BY o.created_at DESC, o.id`)
    .bind(viewerId, conv.id)
    .all<OfferRow>();
  return results.map((row) => toOfferView(row, viewerId));
}

// ---- the trade history --------------------------------------------------------------------------

function countsStatement(db: Db, userId: string) {
  return db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM trade_offers WHERE from_user_id = ?1) AS sent,
              (SELECT COUNT(*) FROM trade_offers WHERE to_user_id = ?1) AS received,
              (SELECT COUNT(*) FROM trades WHERE user1_id = ?1 AND status = 'completed')
                + (SELECT COUNT(*) FROM trades WHERE user2_id = ?1 AND status = 'completed') AS completed`,
    )
    .bind(userId);
}

/** "Sendt" or "Mottatt": the user's offers in that direction, newest first, with the three counts. */
export async function tradeHistoryOffers(
  db: Db,
  userId: string,
  direction: "sent" | "received",
  offset = 0,
): Promise<TradeHistoryPage<TradeOfferView>> {
  const column = direction === "sent" ? "o.from_user_id" : "o.to_user_id";
  const [counts, list] = await db.batch([
    countsStatement(db, userId),
    db
      .prepare(`${OFFER_SELECT} WHERE ${column} = ?1 ORDER BY o.created_at DESC, o.id LIMIT ?2 OFFSET ?3`)
      .bind(userId, TRADE_HISTORY_PAGE_SIZE + 1, offset),
  ]);
  const rows = list.results as OfferRow[];
  return {
    counts: counts.results[0] as TradeHistoryCounts,
    items: rows.slice(0, TRADE_HISTORY_PAGE_SIZE).map((row) => toOfferView(row, userId)),
    has_more: rows.length > TRADE_HISTORY_PAGE_SIZE,
  };
}

type TradeRow = PartyColumns &
  ListingColumns<"m"> &
  ListingColumns<"t"> & {
    id: string;
    trade_offer_id: string;
    conversation_id: string;
    created_at: string;
    completed_at: string;
    reviewed_by_me: number;
  };

/** "Fullført": the user's completed trades, most recently completed first, with the three counts. */
export async function tradeHistoryCompleted(db: Db, userId: string, offset = 0): Promise<TradeHistoryPage<CompletedTrade>> {
  const [counts, list] = await db.batch([
    countsStatement(db, userId),
    db
      .prepare(
        `SELECT s.id, s.trade_offer_id, o.conversation_id, s.created_at, s.completed_at,
                EXISTS (SELECT 1 FROM reviews r WHERE r.deal_kind = 'trade' AND r.deal_id = s.id AND r.reviewer_id = ?1) AS reviewed_by_me,
                ou.id AS other_id, op.display_name AS other_name, ou.deleted_at AS other_deleted_at,
                ${listingColumns("ml", "m")}, ${listingColumns("tl", "t")}
         FROM trades s
         JOIN trade_offers o ON o.id = s.trade_offer_id
         JOIN users ou ON ou.id = CASE WHEN s.user1_id = ?1 THEN s.user2_id ELSE s.user1_id END
         LEFT JOIN profiles op ON op.user_id = ou.id
         JOIN listings ml ON ml.id = CASE WHEN s.user1_id = ?1 THEN s.user1_listing_id ELSE s.user2_listing_id END
         JOIN listings tl ON tl.id = CASE WHEN s.user1_id = ?1 THEN s.user2_listing_id ELSE s.user1_listing_id END
         WHERE s.status = 'completed' AND (s.user1_id = ?1 OR s.user2_id = ?1)
         ORDER BY s.completed_at DESC, s.id LIMIT ?2 OFFSET ?3`,
      )
      .bind(userId, TRADE_HISTORY_PAGE_SIZE + 1, offset),
  ]);
  const rows = list.results as TradeRow[];
  return {
    counts: counts.results[0] as TradeHistoryCounts,
    items: rows.slice(0, TRADE_HISTORY_PAGE_SIZE).map((row) => ({
      id: row.id,
      trade_offer_id: row.trade_offer_id,
      conversation_id: row.conversation_id,
      other_user: toParty(row),
      my_listing: toListing(row, "m"),
      their_listing: toListing(row, "t"),
      created_at: row.created_at,
      completed_at: row.completed_at,
      reviewed_by_me: !!row.reviewed_by_me,
    })),
    has_more: rows.length > TRADE_HISTORY_PAGE_SIZE,
  };
}

// ---- the proposal page --------------------------------------------------------------------------

/** Most listings a proposal offers to choose from (a sender with more sees the newest). */
const PROPOSAL_OWN_LISTINGS = 100;

type ProposalRow = ListingColumns<"l"> & { user_id: string; is_trade_offer: number; owner_name: string | null };

/**
 * "Foreslå bytte": the wanted listing (it must be someone else's, open for trade and active; a
 * listing that is missing, hidden or no longer active is "Annonse ikke funnet") and the sender's
 * own tradable listings, each saying whether it is already offered for this one.
 */
export async function tradeProposal(db: Db, listingId: string, userId: string): Promise<TradeProposal> {
  if (!UUID_RE.test(listingId)) throw new AppError("NOT_FOUND", T.listingNotFound);
  const [wantedResult, ownResult] = await db.batch([
    db
      .prepare(
        `SELECT ${listingColumns("l", "l")}, l.user_id, l.is_trade_offer, p.display_name AS owner_name
         FROM listings l LEFT JOIN profiles p ON p.user_id = l.user_id WHERE l.id = ?1`,
      )
      .bind(listingId),
    db
      .prepare(
        `SELECT ${listingColumns("l", "l")},
                EXISTS (SELECT 1 FROM trade_offers d WHERE d.from_user_id = ?1 AND d.offered_listing_id = l.id
                        AND d.requested_listing_id = ?2 AND d.status = 'pending' AND d.expires_at > ?3) AS already_offered
         FROM listings l WHERE l.user_id = ?1 AND ${listedListingSql("l")}
         ORDER BY l.created_at DESC LIMIT ?4`,
      )
      .bind(userId, listingId, new Date().toISOString(), PROPOSAL_OWN_LISTINGS),
  ]);
  const wanted = wantedResult.results[0] as ProposalRow | undefined;
  if (!wanted || !isPublicListing({ status: wanted.l_status as ListingStatus, is_hidden: !!wanted.l_is_hidden })) {
    throw new AppError("NOT_FOUND", T.listingNotFound);
  }
  if (wanted.user_id === userId) throw new AppError("FORBIDDEN", T.ownListing);
  if (wanted.l_status !== "active") throw new AppError("NOT_FOUND", T.listingNotFound);
  if (!wanted.is_trade_offer) throw new AppError("CONFLICT", T.notOpenForTrade);
  return {
    listing: { ...toListing(wanted, "l"), owner_name: wanted.owner_name?.trim() || ANONYMOUS_NAME },
    own_listings: (ownResult.results as (ListingColumns<"l"> & { already_offered: number })[]).map((row) => ({
      ...toListing(row, "l"),
      already_offered: !!row.already_offered,
    })),
  };
}
