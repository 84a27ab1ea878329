// Reviews after a completed deal (decision 070): writing one, what a party of a deal sees
// about its reviews (the prompt in the chat and the trade history), the public profile /bruker/{id}
// and the seller's average on the listing page. The rules are domain/reviews.ts; the blind rule in
// SQL is worker/features/reviews/visibility.ts.
import { ANONYMOUS_NAME, DELETED_USER_NAME, SYSTEM_USER_ID } from "../../../domain/chat";
import {
  PROFILE_LISTINGS_LIMIT,
  PROFILE_REVIEWS_PAGE_SIZE,
  REVIEW_REFUSAL_MESSAGES,
  REVIEW_REFUSAL_STATUS,
  isReviewRevealed,
  isReviewWindowOpen,
  reviewEligibility,
  reviewWindowClosesAt,
  type DealKind,
  type DealRole,
  type ReviewRefusal,
  REVIEW_REFUSALS,
} from "../../../domain/reviews";
import type { CreateReview } from "../../../domain/schemas/reviews";
import type { ListingCard } from "../../../domain/schemas/listing";
import type { Actor } from "../../env";
import type { Db } from "../../db/client";
import { listedListingSql } from "../listings/visibility";
import { shownReviewSql } from "./visibility";
import { nowIso } from "../../lib/crypto";
import { AppError } from "../../lib/errors";
import { DEAL_SOURCES, findDeal, type DealRecord } from "./deals";
import { listingsByIds, newestFirst } from "../listings/listings";
import { assertNotSuspended } from "../moderation/suspension";
import { UUID_RE } from "../../lib/uuid";
import type { RowOf } from "../../db/rows";
import type { reviews } from "./schema";

export interface RatingSummary {
  /** Mean of the shown reviews' stars, null without any. */
  average: number | null;
  count: number;
}

export interface ReviewPerson {
  id: string;
  display_name: string;
  deleted: boolean;
}

/** One review as the profile and the deal prompt show it. */
export interface ReviewView {
  id: string;
  deal_kind: DealKind;
  rating: number;
  text: string | null;
  created_at: string;
  reviewer: ReviewPerson;
  /** What the reviewer was in the deal ("Kjøper", "Selger", "Bytte", …). */
  reviewer_role: DealRole | null;
}

function refuse(refusal: ReviewRefusal): never {
  const status = REVIEW_REFUSAL_STATUS[refusal];
  throw new AppError(status === 404 ? "NOT_FOUND" : "CONFLICT", REVIEW_REFUSAL_MESSAGES[refusal]);
}

function personName(name: string | null | undefined, deletedAt: string | null | undefined): string {
  if (deletedAt) return DELETED_USER_NAME;
  return name?.trim() || ANONYMOUS_NAME;
}

async function loadDeal(db: Db, kind: DealKind, dealId: string): Promise<DealRecord | null> {
  if (!UUID_RE.test(dealId)) return null;
  return findDeal(db, kind, dealId);
}

// ---- writing -------------------------------------------------------------------------------------

/**
 * "Send vurdering": the signed-in user rates the other party of a completed deal. Only its two
 * parties (anyone else: 404), after completion, within the window, once (409). A suspended user may
 * not (403). The insert relies on the unique index (deal, reviewer): of two submits at once exactly
 * one lands and the other gets "already reviewed".
 */
export async function submitReview(db: Db, actor: Actor, input: CreateReview, now: string = nowIso()): Promise<ReviewView> {
  const deal = await loadDeal(db, input.deal_kind, input.deal_id);
  const existing = deal
    ? await db
        .prepare("SELECT 1 AS x FROM reviews WHERE deal_kind = ?1 AND deal_id = ?2 AND reviewer_id = ?3")
        .bind(input.deal_kind, input.deal_id, actor.id)
        .first()
    : null;
  const verdict = reviewEligibility(deal, actor.id, now, !!existing);
  if (!verdict.ok) refuse(verdict.refusal);
  await assertNotSuspended(db, actor.id);
  const id = crypto.randomUUID();
  const row = await db
    .prepare(
      `INSERT INTO reviews (id, deal_kind, deal_id, reviewer_id, reviewee_id, rating, text, window_closes_at, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
       ON CONFLICT (deal_kind, deal_id, reviewer_id) DO NOTHING RETURNING id`,
    )
    .bind(
      id,
      input.deal_kind,
      input.deal_id,
      actor.id,
      verdict.revieweeId,
      input.rating,
      input.text,
      reviewWindowClosesAt(deal!.completedAt!),
      now,
    )
    .first<{ id: string }>();
  if (!row) refuse("already_reviewed");
  return {
    id,
    deal_kind: input.deal_kind,
    rating: input.rating,
    text: input.text,
    created_at: now,
    reviewer: { id: actor.id, display_name: personName(actor.displayName, null), deleted: false },
    reviewer_role: deal!.roles[actor.id] ?? null,
  };
}

// ---- a deal's reviews, for its parties -------------------------------------------------------------

export interface DealReviewState {
  deal_kind: DealKind;
  deal_id: string;
  title: string | null;
  conversation_id: string | null;
  other_user: ReviewPerson;
  completed_at: string;
  window_closes_at: string;
  window_open: boolean;
  /** The user may write their review now. */
  can_review: boolean;
  my_review: ReviewView | null;
  /** Has the other party written theirs? (Its content stays hidden until it is revealed.) */
  other_has_reviewed: boolean;
  /** The other party's review of the user, once revealed (and not hidden by a moderator). */
  their_review: ReviewView | null;
}

type ReviewRow = Pick<
  RowOf<typeof reviews>,
  "id" | "deal_kind" | "reviewer_id" | "rating" | "text" | "created_at" | "is_hidden" | "window_closes_at"
>;

async function stateFor(db: Db, deal: DealRecord, actor: Actor, now: string): Promise<DealReviewState | null> {
  if (!deal.completedAt || !deal.parties.includes(actor.id)) return null;
  const otherId = deal.parties[0] === actor.id ? deal.parties[1] : deal.parties[0];
  const [rows, people] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        "SELECT id, deal_kind, reviewer_id, rating, text, created_at, is_hidden, window_closes_at FROM reviews WHERE deal_kind = ?1 AND deal_id = ?2",
      )
      .bind(deal.kind, deal.id),
    db
      .prepare("SELECT u.id, u.deleted_at, p.display_name FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id IN (?1, ?2)")
      .bind(actor.id, otherId),
  ]);
  const reviews = rows.results as unknown as ReviewRow[];
  const names = new Map((people.results as { id: string; deleted_at: string | null; display_name: string | null }[]).map((p) => [p.id, p]));
  const person = (id: string): ReviewPerson => {
    const p = names.get(id);
    return { id, display_name: personName(p?.display_name, p?.deleted_at), deleted: !!p?.deleted_at };
  };
  const view = (r: ReviewRow): ReviewView => ({
    id: r.id,
    deal_kind: r.deal_kind,
    rating: r.rating,
    text: r.text,
    created_at: r.created_at,
    reviewer: person(r.reviewer_id),
    reviewer_role: deal.roles[r.reviewer_id] ?? null,
  });
  const mine = reviews.find((r) => r.reviewer_id === actor.id) ?? null;
  const theirs = reviews.find((r) => r.reviewer_id === otherId) ?? null;
  const closes = reviewWindowClosesAt(deal.completedAt);
  const open = isReviewWindowOpen(deal.completedAt, now);
  const revealed =
    theirs !== null && !theirs.is_hidden && isReviewRevealed({ window_closes_at: closes, counterpart_written: mine !== null }, now);
  return {
    deal_kind: deal.kind,
    deal_id: deal.id,
    title: deal.title,
    conversation_id: deal.conversationId,
    other_user: person(otherId),
    completed_at: deal.completedAt,
    window_closes_at: closes,
    window_open: open,
    can_review: open && mine === null,
    my_review: mine ? view(mine) : null,
    other_has_reviewed: theirs !== null,
    their_review: revealed ? view(theirs!) : null,
  };
}

/** GET /api/reviews/deals/:kind/:id: the deal's reviews as one of its parties sees them; anyone else 404. */
export async function dealReviewState(
  db: Db,
  actor: Actor,
  kind: DealKind,
  dealId: string,
  now: string = nowIso(),
): Promise<DealReviewState> {
  const deal = await loadDeal(db, kind, dealId);
  if (!deal?.parties.includes(actor.id)) refuse("not_found");
  if (!deal.completedAt) refuse("not_completed");
  return (await stateFor(db, deal, actor, now))!;
}

/**
 * GET /api/reviews/conversations/:id: the completed deals of a conversation (a sale, a trade) with
 * their reviews, for the prompt above the chat. Only the conversation's two parties (else 404).
 */
export async function conversationReviewStates(
  db: Db,
  actor: Actor,
  conversationId: string,
  now: string = nowIso(),
): Promise<DealReviewState[]> {
  if (!UUID_RE.test(conversationId)) throw new AppError("NOT_FOUND", REVIEW_REFUSALS.conversationNotFound);
  const member = await db
    .prepare("SELECT 1 AS x FROM conversations WHERE id = ?1 AND ?2 IN (buyer_id, seller_id)")
    .bind(conversationId, actor.id)
    .first();
  if (!member) throw new AppError("NOT_FOUND", REVIEW_REFUSALS.conversationNotFound);
  const states: DealReviewState[] = [];
  for (const [kind, source] of Object.entries(DEAL_SOURCES) as [DealKind, NonNullable<(typeof DEAL_SOURCES)[DealKind]>][]) {
    for (const id of await source.inConversation(db, conversationId)) {
      const deal = await source.find(db, id);
      const state = deal ? await stateFor(db, deal, actor, now) : null;
      if (state) states.push({ ...state, deal_kind: kind });
    }
  }
  return states;
}

// ---- the public profile ----------------------------------------------------------------------------

export interface PublicProfile {
  id: string;
  display_name: string;
  member_since: string;
  /** A phone number Vipps verified ("Verifisert med Vipps", decision 128); the number itself is never shown. */
  phone_verified: boolean;
  rating: RatingSummary;
  listings: ListingCard[];
  listing_count: number;
  reviews: ReviewView[];
  has_more_reviews: boolean;
  next_offset: number | null;
}

export function ratingSummaryStatement(db: Db, userId: string, now: string): D1PreparedStatement {
  return db
    .prepare(`SELECT COUNT(*) AS count, AVG(r.rating) AS average FROM reviews r WHERE r.reviewee_id = ?1 AND ${shownReviewSql("r", "?2")}`)
    .bind(userId, now);
}

interface ProfileReviewRow {
  id: string;
  deal_kind: DealKind;
  rating: number;
  text: string | null;
  created_at: string;
  reviewer_id: string;
  reviewer_name: string | null;
  reviewer_deleted: string | null;
}

/**
 * /bruker/{id} and GET /api/users/:id: name, member since, active listings, the average and count,
 * and the shown reviews, newest first (PROFILE_REVIEWS_PAGE_SIZE a page). One D1 batch. An unknown
 * or deleted user (or the system user) is 404. A suspended user's profile stays visible: the
 * reviews are other people's words about past deals (decision 071).
 */
export async function publicProfile(db: Db, userId: string, offset = 0, now: string = nowIso()): Promise<PublicProfile> {
  if (!UUID_RE.test(userId) || userId === SYSTEM_USER_ID) throw new AppError("NOT_FOUND", REVIEW_REFUSALS.userNotFound);
  const [user, summary, listingRows, reviewRows] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT u.id, u.deleted_at, p.display_name, COALESCE(p.created_at, u.created_at) AS member_since,
                u.phone_verified_at IS NOT NULL AS phone_verified,
                (SELECT COUNT(*) FROM listings l WHERE l.user_id = u.id AND ${listedListingSql("l")}) AS listing_count
         FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = ?1`,
      )
      .bind(userId),
    ratingSummaryStatement(db, userId, now),
    db
      .prepare(`SELECT id FROM listings l WHERE l.user_id = ?1 AND ${listedListingSql("l")} ORDER BY l.created_at DESC LIMIT ?2`)
      .bind(userId, PROFILE_LISTINGS_LIMIT),
    db
      .prepare(
        `SELECT r.id, r.deal_kind, r.rating, r.text, r.created_at, r.reviewer_id, rp.display_name AS reviewer_name, ru.deleted_at AS reviewer_deleted
         FROM reviews r LEFT JOIN users ru ON ru.id = r.reviewer_id LEFT JOIN profiles rp ON rp.user_id = r.reviewer_id
         WHERE r.reviewee_id = ?1 AND ${shownReviewSql("r", "?2")}
         ORDER BY r.created_at DESC, r.id LIMIT ?3 OFFSET ?4`,
      )
      .bind(userId, now, PROFILE_REVIEWS_PAGE_SIZE + 1, offset),
  ]);
  const u = user.results[0] as
    | {
        id: string;
        deleted_at: string | null;
        display_name: string | null;
        member_since: string;
        phone_verified: number;
        listing_count: number;
      }
    | undefined;
  if (!u || u.deleted_at) throw new AppError("NOT_FOUND", REVIEW_REFUSALS.userNotFound);
  const s = summary.results[0] as { count: number; average: number | null };
  const ids = (listingRows.results as { id: string }[]).map((r) => r.id);
  const cards = (await listingsByIds(db, ids)).sort(newestFirst);
  const rows = reviewRows.results as unknown as ProfileReviewRow[];
  const page = rows.slice(0, PROFILE_REVIEWS_PAGE_SIZE);
  const roles = await reviewerRoles(db, page);
  const hasMore = rows.length > PROFILE_REVIEWS_PAGE_SIZE;
  return {
    id: u.id,
    display_name: personName(u.display_name, null),
    member_since: u.member_since,
    phone_verified: u.phone_verified === 1,
    rating: { count: s.count, average: s.average },
    listings: cards,
    listing_count: u.listing_count,
    reviews: page.map((r) => ({
      id: r.id,
      deal_kind: r.deal_kind,
      rating: r.rating,
      text: r.text,
      created_at: r.created_at,
      reviewer: { id: r.reviewer_id, display_name: personName(r.reviewer_name, r.reviewer_deleted), deleted: !!r.reviewer_deleted },
      reviewer_role: roles.get(r.id) ?? null,
    })),
    has_more_reviews: hasMore,
    next_offset: hasMore ? offset + PROFILE_REVIEWS_PAGE_SIZE : null,
  };
}

/** What each reviewer was in the deal: a sale's seller or buyer; a trade is "Bytte" for both. */
async function reviewerRoles(db: Db, rows: ProfileReviewRow[]): Promise<Map<string, DealRole>> {
  const roles = new Map<string, DealRole>();
  const sales = rows.filter((r) => r.deal_kind === "sale");
  for (const r of rows) if (r.deal_kind === "trade") roles.set(r.id, "trader");
  if (sales.length) {
    const { results } = await db
      .prepare(
        `SELECT r.id, CASE WHEN p.seller_id = r.reviewer_id THEN 'seller' ELSE 'buyer' END AS role
         FROM reviews r JOIN orders t ON t.id = r.deal_id JOIN payments p ON p.id = t.payment_id WHERE r.id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(JSON.stringify(sales.map((r) => r.id)))
      .all<{ id: string; role: DealRole }>();
    for (const r of results) roles.set(r.id, r.role);
  }
  return roles;
}

// ---- the account's own data -------------------------------------------------------------------------

/** For "Last ned mine data": the reviews the user wrote, and the shown ones about them. */
export async function exportReviews(db: Db, userId: string): Promise<{ written: unknown[]; received: unknown[] }> {
  const [written, received] = await db.batch([
    db
      .prepare(
        "SELECT id, deal_kind, deal_id, reviewee_id, rating, text, is_hidden, created_at FROM reviews WHERE reviewer_id = ?1 ORDER BY created_at",
      )
      .bind(userId),
    db
      .prepare(
        `SELECT r.id, r.deal_kind, r.deal_id, r.reviewer_id, r.rating, r.text, r.created_at FROM reviews r WHERE r.reviewee_id = ?1 AND ${shownReviewSql("r", "?2")} ORDER BY r.created_at`,
      )
      .bind(userId, nowIso()),
  ]);
  return { written: written.results, received: received.results };
}
