// The give-away queue in D1 (domain/giveaways.ts; docs/decisions/075-giveaway-queue.md). As with
// trades (decision 046) every move is one batch (one transaction): its first statement moves an
// entry only while the rules allow it and stamps it with this request's fresh change id; the later
// statements (the listing's status, the chat, the completed give-away, the others in the queue)
// apply only where an entry of the listing carries that id, i.e. only for the request that won. A
// request that loses writes nothing and is told why from a fresh read.
import { GIVEAWAY_ERROR_TEXTS as G, GIVEAWAY_JOINABLE_LISTING_STATUSES, giveawayTransition, isInQueue } from "../../../domain/giveaways";
import { isPublicListing } from "../../../domain/listing-lifecycle";
import type { ListingStatus } from "../../../domain/taxonomy";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { assertNotSuspended } from "../moderation/suspension";
import { UUID_RE } from "../../lib/uuid";
import type { RowOf } from "../../db/rows";
import type { giveawayQueue } from "./schema";

/** The joinable states as SQL (domain constants, never user input). */
const JOINABLE_SQL = GIVEAWAY_JOINABLE_LISTING_STATUSES.map((status) => `'${status}'`).join(", ");

export type GiveawayChange = "joined" | "withdrawn" | "reserved" | "released" | "given";

/** What a won move changed, for the notices (worker/features/giveaways/notices.ts). */
export interface GiveawayChangeResult {
  listingId: string;
  change: GiveawayChange;
  /** The entry the move was about (the taker who joined, left, was reserved, released or given the toy). */
  entryId: string;
  takerId: string;
  /** The reservation's chat, when there is one. */
  conversationId: string | null;
  /** Whether the entry was reserved before the move (leaving a reservation frees the listing). */
  wasReserved: boolean;
  /** `given`: the people who were still waiting (now passed). */
  passedUserIds: string[];
  /** `given`: the completed give-away's id. */
  giveawayId: string | null;
}

interface ListingFacts {
  id: string;
  user_id: string;
  status: ListingStatus;
  is_hidden: number;
  is_free: number;
}

async function listingFacts(db: Db, listingId: string): Promise<ListingFacts | null> {
  if (!UUID_RE.test(listingId)) return null;
  return db.prepare("SELECT id, user_id, status, is_hidden, is_free FROM listings WHERE id = ?1").bind(listingId).first<ListingFacts>();
}

/** The listing as the queue sees it: 404 for what the caller may not see, otherwise its facts. */
export async function queueListing(db: Db, listingId: string, userId: string | null): Promise<ListingFacts> {
  const row = await listingFacts(db, listingId);
  const visible = row && (row.user_id === userId || isPublicListing({ status: row.status, is_hidden: !!row.is_hidden }));
  // A given-away listing is not public any more, but the people who queued for it still read their outcome.
  const queued = row && !visible && userId ? await entryOf(db, row.id, userId) : null;
  if (!row || (!visible && !queued)) throw new AppError("NOT_FOUND", G.listingNotFound);
  return row;
}

type EntryRow = Pick<RowOf<typeof giveawayQueue>, "id" | "user_id" | "status" | "conversation_id">;

async function entryOf(db: Db, listingId: string, userId: string): Promise<EntryRow | null> {
  return db
    .prepare("SELECT id, user_id, status, conversation_id FROM giveaway_queue WHERE listing_id = ?1 AND user_id = ?2")
    .bind(listingId, userId)
    .first<EntryRow>();
}

/** SQL: an entry of listing ?1 carries change id ?2, i.e. this request's first statement moved it. */
const WON = "EXISTS (SELECT 1 FROM giveaway_queue w WHERE w.listing_id = ?1 AND w.change_id = ?2)";

/** SQL: listing ?1 is a free listing owned by ?4 (the giver acting). */
const GIVER_OWNS = "EXISTS (SELECT 1 FROM listings l WHERE l.id = ?1 AND l.user_id = ?4 AND l.is_free = 1)";

const result = (
  listingId: string,
  change: GiveawayChange,
  entry: EntryRow,
  extra: Partial<GiveawayChangeResult> = {},
): GiveawayChangeResult => ({
  listingId,
  change,
  entryId: entry.id,
  takerId: entry.user_id,
  conversationId: entry.conversation_id,
  wasReserved: false,
  passedUserIds: [],
  giveawayId: null,
  ...extra,
});

// ---- the taker ----------------------------------------------------------------------------------

export interface JoinOutcome {
  created: boolean;
  result: GiveawayChangeResult | null;
}

/**
 * "Jeg vil ha den": one INSERT that carries every rule (a free listing of someone else, active or
 * reserved, not hidden). Joining again while in the queue keeps the place and the first message
 * (idempotent); joining again after leaving starts at the back. Released and given-away entries
 * are final.
 */
export async function joinQueue(db: Db, listingId: string, userId: string, message: string, now: Date = new Date()): Promise<JoinOutcome> {
  // Not queueListing: someone who had the page open when the toy was given away is told so (409),
  // not that the listing does not exist; a hidden, deleted or unknown listing is still a 404.
  const listing = await listingFacts(db, listingId);
  if (!listing || listing.status === "deleted" || (listing.is_hidden && listing.user_id !== userId))
    throw new AppError("NOT_FOUND", G.listingNotFound);
  await assertNotSuspended(db, userId);
  const at = now.toISOString();
  const row = await db
    .prepare(
      `INSERT INTO giveaway_queue (id, listing_id, giver_id, user_id, message, status, created_at, updated_at, change_id, unseen)
       SELECT ?3, l.id, l.user_id, ?2, ?4, 'waiting', ?5, ?5, ?6, 0 FROM listings l
       WHERE l.id = ?1 AND l.is_free = 1 AND l.user_id <> ?2 AND l.status IN (${JOINABLE_SQL}) AND l.is_hidden = 0
       ON CONFLICT (listing_id, user_id) DO UPDATE
         SET status = 'waiting', message = excluded.message, created_at = excluded.created_at, updated_at = excluded.updated_at,
             change_id = excluded.change_id, conversation_id = NULL, reserved_at = NULL, unseen = 0
         WHERE giveaway_queue.status = 'withdrawn'
       RETURNING id, user_id, status, conversation_id`,
    )
    .bind(listing.id, userId, crypto.randomUUID(), message, at, crypto.randomUUID())
    .first<EntryRow>();
  if (row) return { created: true, result: result(listing.id, "joined", row) };
  const existing = await entryOf(db, listing.id, userId);
  if (existing && isInQueue(existing.status)) return { created: false, result: null };
  throw await whyNoJoin(db, listing.id, userId, existing);
}

async function whyNoJoin(db: Db, listingId: string, userId: string, entry: EntryRow | null): Promise<AppError> {
  const listing = await listingFacts(db, listingId);
  if (!listing) return new AppError("NOT_FOUND", G.listingNotFound);
  if (listing.user_id === userId) return new AppError("FORBIDDEN", G.ownListing);
  if (!listing.is_free) return new AppError("CONFLICT", G.notFree);
  if (listing.status === "given_away") return new AppError("CONFLICT", G.givenAway);
  if (entry?.status === "released") return new AppError("CONFLICT", G.released);
  if (entry && (entry.status === "given" || entry.status === "passed")) return new AppError("CONFLICT", G.givenAway);
  if (!isPublicListing({ status: listing.status, is_hidden: !!listing.is_hidden })) return new AppError("CONFLICT", G.unavailable);
  return new AppError("CONFLICT", G.concurrent);
}

/** "Forlat køen": the taker leaves, also out of a reservation (the listing is active again). */
export async function leaveQueue(db: Db, listingId: string, userId: string, now: Date = new Date()): Promise<GiveawayChangeResult> {
  const listing = await queueListing(db, listingId, userId);
  const entry = await entryOf(db, listing.id, userId);
  if (!entry || !giveawayTransition(entry.status, "taker", "withdraw")) throw new AppError("CONFLICT", G.notInQueue);
  const at = now.toISOString();
  const change = crypto.randomUUID();
  // ?1 listing, ?2 change, ?3 now, ?4 taker, ?5 the status just read
  const [moved] = await db.batch([
    db
      .prepare(
        `UPDATE giveaway_queue SET status = 'withdrawn', change_id = ?2, updated_at = ?3, unseen = 0
         WHERE listing_id = ?1 AND user_id = ?4 AND status = ?5`,
      )
      .bind(listing.id, change, at, userId, entry.status),
    db
      .prepare(
        `UPDATE listings SET status = 'active', updated_at = ?3 WHERE id = ?1 AND status = 'reserved' AND ?4 = 'reserved' AND ${WON}`,
      )
      .bind(listing.id, change, at, entry.status),
  ]);
  if (moved.meta.changes !== 1) throw new AppError("CONFLICT", G.concurrent);
  return result(listing.id, "withdrawn", entry, { wasReserved: entry.status === "reserved" });
}

// ---- the giver ----------------------------------------------------------------------------------

/** The giver's listing: 404 for what the caller may not see, 403 for someone else's, 409 if not free. */
async function giversListing(db: Db, listingId: string, userId: string): Promise<ListingFacts> {
  const listing = await queueListing(db, listingId, userId);
  if (listing.user_id !== userId) throw new AppError("FORBIDDEN", G.onlyGiver);
  if (!listing.is_free) throw new AppError("CONFLICT", G.notFree);
  return listing;
}

/**
 * "Reserver" (one person, `entryId`) or "Første i køen" (no id: the earliest waiting). One batch:
 * the entry is reserved only while the listing is the giver's, active and free and no entry is
 * reserved; then the reservation's chat is opened (or reused) and the listing becomes reserved.
 * Two reserves at once: the second batch finds a reserved entry and changes nothing.
 */
export async function reserveEntry(
  db: Db,
  listingId: string,
  userId: string,
  entryId: string | undefined,
  now: Date = new Date(),
): Promise<GiveawayChangeResult> {
  const listing = await giversListing(db, listingId, userId);
  await assertNotSuspended(db, userId);
  const at = now.toISOString();
  const change = crypto.randomUUID();
  // ?1 listing, ?2 change, ?3 now, ?4 giver, ?5 entry id or null, ?6 a new conversation id
  const results = await db.batch([
    db
      .prepare(
        `UPDATE giveaway_queue SET status = 'reserved', change_id = ?2, reserved_at = ?3, updated_at = ?3, unseen = 1
         WHERE id = (SELECT q.id FROM giveaway_queue q WHERE q.listing_id = ?1 AND q.status = 'waiting' AND (?5 IS NULL OR q.id = ?5)
                     ORDER BY q.created_at, q.id LIMIT 1)
           AND status = 'waiting' AND ${GIVER_OWNS}
           AND EXISTS (SELECT 1 FROM listings l WHERE l.id = ?1 AND l.status = 'active' AND l.is_hidden = 0)
           AND NOT EXISTS (SELECT 1 FROM giveaway_queue r WHERE r.listing_id = ?1 AND r.status = 'reserved')`,
      )
      .bind(listing.id, change, at, userId, entryId ?? null),
    // The one conversation per (listing, taker, giver) (decision 031): created here when missing.
    db
      .prepare(
        `INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq, created_at, updated_at)
         SELECT ?6, q.listing_id, q.user_id, ?4, 0, ?3, ?3 FROM giveaway_queue q
         WHERE q.listing_id = ?1 AND q.change_id = ?2 AND q.status = 'reserved'
         ON CONFLICT (listing_id, buyer_id, seller_id) DO NOTHING`,
      )
      .bind(listing.id, change, at, userId, entryId ?? null, crypto.randomUUID()),
    db
      .prepare(
        `UPDATE giveaway_queue SET conversation_id = (
           SELECT c.id FROM conversations c WHERE c.listing_id = giveaway_queue.listing_id AND c.buyer_id = giveaway_queue.user_id AND c.seller_id = ?3)
         WHERE listing_id = ?1 AND change_id = ?2 AND status = 'reserved'
         RETURNING id, user_id, status, conversation_id`,
      )
      .bind(listing.id, change, userId),
    db
      .prepare(`UPDATE listings SET status = 'reserved', updated_at = ?3 WHERE id = ?1 AND status = 'active' AND ${WON}`)
      .bind(listing.id, change, at),
  ]);
  const won = (results[2].results as EntryRow[])[0];
  if (results[0].meta.changes === 1 && won) return result(listing.id, "reserved", won);
  throw await whyNoReserve(db, listing.id, entryId);
}

async function whyNoReserve(db: Db, listingId: string, entryId: string | undefined): Promise<AppError> {
  const listing = await listingFacts(db, listingId);
  if (!listing) return new AppError("NOT_FOUND", G.listingNotFound);
  if (listing.status === "given_away") return new AppError("CONFLICT", G.givenAway);
  const reserved = await db.prepare("SELECT 1 FROM giveaway_queue WHERE listing_id = ?1 AND status = 'reserved'").bind(listingId).first();
  if (reserved) return new AppError("CONFLICT", G.alreadyReserved);
  if (listing.status !== "active" || listing.is_hidden) return new AppError("CONFLICT", G.notActive);
  if (entryId) {
    const entry = await db
      .prepare("SELECT status FROM giveaway_queue WHERE id = ?1 AND listing_id = ?2")
      .bind(entryId, listingId)
      .first<{ status: string }>();
    if (!entry) return new AppError("NOT_FOUND", G.entryNotWaiting);
    if (entry.status !== "waiting") return new AppError("CONFLICT", G.entryNotWaiting);
  } else {
    const waiting = await db.prepare("SELECT 1 FROM giveaway_queue WHERE listing_id = ?1 AND status = 'waiting'").bind(listingId).first();
    if (!waiting) return new AppError("CONFLICT", G.emptyQueue);
  }
  return new AppError("CONFLICT", G.concurrent);
}

/** "Frigi": the reservation ends (that person is out of the queue) and the listing is active again. */
export async function releaseReservation(db: Db, listingId: string, userId: string, now: Date = new Date()): Promise<GiveawayChangeResult> {
  const listing = await giversListing(db, listingId, userId);
  const at = now.toISOString();
  const change = crypto.randomUUID();
  const results = await db.batch([
    db
      .prepare(
        `UPDATE giveaway_queue SET status = 'released', change_id = ?2, updated_at = ?3, unseen = 1
         WHERE listing_id = ?1 AND status = 'reserved' AND ${GIVER_OWNS}
         RETURNING id, user_id, status, conversation_id`,
      )
      .bind(listing.id, change, at, userId),
    db
      .prepare(`UPDATE listings SET status = 'active', updated_at = ?3 WHERE id = ?1 AND status = 'reserved' AND ${WON}`)
      .bind(listing.id, change, at),
  ]);
  const won = (results[0].results as EntryRow[])[0];
  if (!won) throw new AppError("CONFLICT", listing.status === "given_away" ? G.givenAway : G.notReserved);
  return result(listing.id, "released", won);
}

/**
 * "Marker som gitt bort": the reserved person gets the toy. One batch: the entry is given, the
 * completed give-away is recorded (giver, taker, time), the listing is given away and everyone
 * still waiting is passed (they are told afterwards).
 */
export async function markGiven(db: Db, listingId: string, userId: string, now: Date = new Date()): Promise<GiveawayChangeResult> {
  const listing = await giversListing(db, listingId, userId);
  const at = now.toISOString();
  const change = crypto.randomUUID();
  const giveawayId = crypto.randomUUID();
  const results = await db.batch([
    db
      .prepare(
        `UPDATE giveaway_queue SET status = 'given', change_id = ?2, updated_at = ?3, unseen = 0
         WHERE listing_id = ?1 AND status = 'reserved' AND ${GIVER_OWNS}
           AND EXISTS (SELECT 1 FROM listings l WHERE l.id = ?1 AND l.status = 'reserved')
         RETURNING id, user_id, status, conversation_id`,
      )
      .bind(listing.id, change, at, userId),
    db
      .prepare(
        `INSERT INTO giveaways (id, listing_id, giver_id, taker_id, entry_id, conversation_id, given_at)
         SELECT ?4, q.listing_id, q.giver_id, q.user_id, q.id, q.conversation_id, ?3
         FROM giveaway_queue q WHERE q.listing_id = ?1 AND q.change_id = ?2 AND q.status = 'given'`,
      )
      .bind(listing.id, change, at, giveawayId),
    db
      .prepare(`UPDATE listings SET status = 'given_away', updated_at = ?3 WHERE id = ?1 AND status = 'reserved' AND ${WON}`)
      .bind(listing.id, change, at),
    db
      .prepare(
        `UPDATE giveaway_queue SET status = 'passed', updated_at = ?3, unseen = 1
         WHERE listing_id = ?1 AND status = 'waiting' AND ${WON}
         RETURNING user_id`,
      )
      .bind(listing.id, change, at),
  ]);
  const won = (results[0].results as EntryRow[])[0];
  if (!won) throw new AppError("CONFLICT", listing.status === "given_away" ? G.givenAway : G.notReserved);
  const passed = (results[3].results as { user_id: string }[]).map((r) => r.user_id);
  return result(listing.id, "given", won, { passedUserIds: passed, giveawayId });
}

// ---- guards for the listing's own status menu and deletion --------------------------------------

/**
 * SQL for "the queue holds this listing" (`alias` names the listings table): an entry is reserved
 * or the toy was given through the queue. The owner changes it through the queue, not the status
 * menu; a listing reserved for someone in the queue cannot be deleted until the reservation ends.
 */
export function heldByQueueSql(alias = "listings", statuses: "reserved" | "reserved-or-given" = "reserved-or-given"): string {
  const list = statuses === "reserved" ? "'reserved'" : "'reserved', 'given'";
  return `EXISTS (SELECT 1 FROM giveaway_queue g WHERE g.listing_id = ${alias}.id AND g.status IN (${list}))`;
}

export async function isHeldByQueue(db: Db, listingId: string): Promise<boolean> {
  return !!(await db.prepare(`SELECT 1 FROM listings WHERE id = ?1 AND ${heldByQueueSql()}`).bind(listingId).first());
}

/**
 * The owner took the listing off the market outside the queue (sold, given away, deleted):
 * everyone waiting is passed and sees it on "Mine køplasser" (decision 075).
 */
export async function closeQueue(db: Db, listingId: string, now: Date = new Date()): Promise<void> {
  await db
    .prepare("UPDATE giveaway_queue SET status = 'passed', updated_at = ?2, unseen = 1 WHERE listing_id = ?1 AND status = 'waiting'")
    .bind(listingId, now.toISOString())
    .run();
}

/**
 * Account deletion: the user leaves every queue (a listing reserved for them is active again), and
 * the queues of their own listings are closed (statements for the deletion's own batch).
 */
export function leaveQueuesOf(db: Db, userId: string, at: string): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE listings SET status = 'active', updated_at = ?2
         WHERE status = 'reserved' AND id IN (SELECT g.listing_id FROM giveaway_queue g WHERE g.user_id = ?1 AND g.status = 'reserved')`,
      )
      .bind(userId, at),
    db
      .prepare(
        "UPDATE giveaway_queue SET status = 'withdrawn', updated_at = ?2, unseen = 0 WHERE user_id = ?1 AND status IN ('waiting', 'reserved')",
      )
      .bind(userId, at),
    // Their messages to givers are personal data; a completed give-away keeps its record without it.
    db.prepare("UPDATE giveaway_queue SET message = '' WHERE user_id = ?1").bind(userId),
    db
      .prepare(
        "UPDATE giveaway_queue SET status = 'passed', updated_at = ?2, unseen = 1 WHERE giver_id = ?1 AND status IN ('waiting', 'reserved')",
      )
      .bind(userId, at),
  ];
}
