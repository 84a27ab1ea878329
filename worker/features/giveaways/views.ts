// Reading the give-away queue (docs/decisions/075-giveaway-queue.md): the listing's panel as each
// viewer sees it (one D1 round trip), and a taker's own places in queues with their notices.
import type { GiveawayEntryStatus, GiveawayListingView, GiveawayMine, GiveawayQueueEntry } from "../../../domain/giveaways";
import { ANONYMOUS_NAME, DELETED_USER_NAME } from "../../../domain/chat";
import type { Db } from "../../db/client";
import { queueListing } from "./giveaways";

interface QueueRow {
  id: string;
  user_id: string;
  display_name: string | null;
  deleted_at: string | null;
  message: string;
  status: GiveawayEntryStatus;
  created_at: string;
  conversation_id: string | null;
  position: number | null;
}

const nameOf = (row: Pick<QueueRow, "display_name" | "deleted_at">) =>
  row.deleted_at ? DELETED_USER_NAME : row.display_name?.trim() || ANONYMOUS_NAME;

/** Waiting and reserved first (the live queue, in join order), then everyone the giver has dealt with. */
const STATUS_ORDER = "CASE q.status WHEN 'reserved' THEN 0 WHEN 'waiting' THEN 1 WHEN 'given' THEN 2 ELSE 3 END";

/**
 * GET /api/giveaways/listings/:id. Everyone who may see the listing gets the counts; a signed-in
 * viewer their own entry with their place among those waiting; the giver the whole queue with
 * names and messages. Nobody else ever sees who is in the queue.
 */
export async function giveawayListingView(db: Db, listingId: string, userId: string | null): Promise<GiveawayListingView> {
  const listing = await queueListing(db, listingId, userId);
  const isGiver = userId === listing.user_id;
  const [counts, mine, queue] = await db.batch([
    db
      .prepare(
        `SELECT COALESCE(SUM(status = 'waiting'), 0) AS waiting, COALESCE(SUM(status = 'reserved'), 0) AS reserved, COALESCE(SUM(status = 'given'), 0) AS given
         FROM giveaway_queue WHERE listing_id = ?1`,
      )
      .bind(listing.id),
    db
      .prepare(
        `SELECT q.status, q.message, q.created_at, q.conversation_id,
                CASE WHEN q.status = 'waiting' THEN 1 + (
                  SELECT COUNT(*) FROM giveaway_queue e WHERE e.listing_id = q.listing_id AND e.status = 'waiting'
                    AND (e.created_at < q.created_at OR (e.created_at = q.created_at AND e.id < q.id))) END AS position
         FROM giveaway_queue q WHERE q.listing_id = ?1 AND q.user_id = ?2`,
      )
      .bind(listing.id, userId ?? ""),
    db
      .prepare(
        `SELECT q.id, q.user_id, p.display_name, u.deleted_at, q.message, q.status, q.created_at, q.conversation_id
         FROM giveaway_queue q JOIN users u ON u.id = q.user_id LEFT JOIN profiles p ON p.user_id = q.user_id
         WHERE q.listing_id = ?1 AND ?2 = 1 AND q.status <> 'withdrawn'
         ORDER BY ${STATUS_ORDER}, q.created_at, q.id`,
      )
      .bind(listing.id, isGiver ? 1 : 0),
  ]);
  const c = counts.results[0] as { waiting: number; reserved: number; given: number };
  const own = (mine.results as QueueRow[])[0];
  return {
    listing_id: listing.id,
    waiting_count: c.waiting,
    reserved: c.reserved > 0,
    given: c.given > 0,
    mine: own ? toMine(own) : null,
    queue: isGiver ? (queue.results as QueueRow[]).map(toQueueEntry) : null,
  };
}

function toMine(row: QueueRow): GiveawayMine {
  return {
    status: row.status,
    message: row.message,
    joined_at: row.created_at,
    position: row.position ?? null,
    conversation_id: row.conversation_id,
  };
}

function toQueueEntry(row: QueueRow): GiveawayQueueEntry {
  return {
    id: row.id,
    display_name: nameOf(row),
    message: row.message,
    status: row.status,
    joined_at: row.created_at,
    conversation_id: row.conversation_id,
  };
}

/** A taker's place in one queue, for "Mine køplasser" (the in-app notice of the giver's moves). */
export interface MyGiveawayPlace extends GiveawayMine {
  listing: { id: string; title: string; seo_slug: string; images: string[]; public: boolean };
  /** The giver's last move on this place (reserved, released, given to someone else) is not seen yet. */
  unseen: boolean;
}

/** Every queue the user is or was in (not the ones they left), newest change first, at most 100. */
export async function myGiveawayPlaces(db: Db, userId: string): Promise<MyGiveawayPlace[]> {
  const rows = await db
    .prepare(
      `SELECT q.status, q.message, q.created_at, q.conversation_id, q.unseen,
              l.id AS listing_id, l.title, l.seo_slug, l.images, (l.status IN ('active', 'reserved') AND l.is_hidden = 0) AS public,
              CASE WHEN q.status = 'waiting' THEN 1 + (
                SELECT COUNT(*) FROM giveaway_queue e WHERE e.listing_id = q.listing_id AND e.status = 'waiting'
                  AND (e.created_at < q.created_at OR (e.created_at = q.created_at AND e.id < q.id))) END AS position
       FROM giveaway_queue q JOIN listings l ON l.id = q.listing_id
       WHERE q.user_id = ?1 AND q.status <> 'withdrawn'
       ORDER BY q.updated_at DESC LIMIT 100`,
    )
    .bind(userId)
    .all<QueueRow & { unseen: number; listing_id: string; title: string; seo_slug: string; images: string; public: number }>();
  return rows.results.map((row) => ({
    ...toMine(row),
    listing: {
      id: row.listing_id,
      title: row.title,
      seo_slug: row.seo_slug,
      images: row.public ? (JSON.parse(row.images) as string[]) : [],
      public: !!row.public,
    },
    unseen: !!row.unseen,
  }));
}

/** How many of the user's places have a move they have not seen (the account menu's badge). */
export async function unseenGiveawayCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .prepare("SELECT COUNT(*) AS n FROM giveaway_queue WHERE user_id = ?1 AND unseen = 1")
    .bind(userId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Opening "Mine køplasser" marks every notice seen. */
export async function markGiveawayNoticesSeen(db: Db, userId: string): Promise<void> {
  await db.prepare("UPDATE giveaway_queue SET unseen = 0 WHERE user_id = ?1 AND unseen = 1").bind(userId).run();
}

/**
 * A completed give-away as a deal between two parties (for reviews: the deal kinds sale,
 * trade and give-away): who gave, who took, when. Null for an unknown id.
 */
export interface GiveawayDeal {
  kind: "giveaway";
  id: string;
  listing_id: string;
  giver_id: string;
  taker_id: string;
  completed_at: string;
}

export async function giveawayDeal(db: Db, giveawayId: string): Promise<GiveawayDeal | null> {
  const row = await db
    .prepare("SELECT id, listing_id, giver_id, taker_id, given_at FROM giveaways WHERE id = ?1")
    .bind(giveawayId)
    .first<{ id: string; listing_id: string; giver_id: string; taker_id: string; given_at: string }>();
  return row
    ? {
        kind: "giveaway",
        id: row.id,
        listing_id: row.listing_id,
        giver_id: row.giver_id,
        taker_id: row.taker_id,
        completed_at: row.given_at,
      }
    : null;
}
