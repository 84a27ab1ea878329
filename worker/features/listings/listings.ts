import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { HomeSections, ListingCard, ListingDetail, ListingForm } from "../../../domain/schemas/listing";
import { HOME_FREE_COUNT, HOME_NEWEST_COUNT, HOME_TRADE_COUNT, SELLER_OTHER_LISTINGS, SLUG_ID_CHARS } from "../../../domain/limits";
import { idPrefixFromSlug, listingSlug } from "../../../domain/slug";
import { canOwnerMove, DEAL_DONE_STATUSES, isPublicListing, OWN_LIST_STATUSES, type OwnerStatus } from "../../../domain/listing-lifecycle";
import { isOwnPhotoKey } from "../../../domain/photos";
import { TRADE_ERROR_TEXTS } from "../../../domain/trades";
import { hasStaffRights } from "../../../domain/moderation";
import type { Actor } from "../../env";
import type { Db } from "../../db/client";
import { dealPartyListingSql, listedListing, listedListingSql } from "./visibility";
import { listings } from "./schema";
import { AppError } from "../../lib/errors";
import { nowIso } from "../../lib/crypto";
import { shownPayment } from "../../../domain/payments";
import { paymentColumnsForCreate, paymentColumnsForUpdate, sellerCanTakePayments } from "../payments/listing-payment";
import { assertNotSuspended } from "../moderation/suspension";
import { shownReviewSql } from "../reviews/visibility";
import { isPromisedInTrade, promisedInTradeSql } from "../trades/offers";
import { closeQueue, heldByQueueSql, isHeldByQueue } from "../giveaways/giveaways";
import { GIVEAWAY_ERROR_TEXTS } from "../../../domain/giveaways";
import {
  changedEditFields,
  changesPurchaseTerms,
  heldEditRefusal,
  holdsForbidding,
  LISTING_EDIT_FIELDS,
  type ListingHold,
} from "../../../domain/listing-holds";
import { LISTING_REFUSALS } from "../../../domain/listings";

type ListingRow = typeof listings.$inferSelect;

/** `sellerCanTakePayments`: unknown on cards (true), looked up for the listing page (decision 089). */
export function toListingCard(row: ListingRow, sellerCanTakePayments = true): ListingCard {
  const payment = shownPayment(
    { payment_enabled: row.paymentEnabled, pricing_mode: row.pricingMode, is_free: row.isFree, price: row.price },
    sellerCanTakePayments,
  );
  return {
    id: row.id,
    user_id: row.userId,
    title: row.title,
    price: row.price,
    is_free: row.isFree,
    is_trade_offer: row.isTradeOffer,
    condition_rating: row.conditionRating,
    category: row.category,
    age_range: row.ageRange,
    postal_code: row.postalCode,
    images: row.images,
    status: row.status,
    seo_slug: row.seoSlug,
    ...payment,
    created_at: row.createdAt,
  };
}

/** The home page's three sections in one D1 round trip (one batch). */
export async function homeSections(db: Db): Promise<HomeSections> {
  const [newest, free, trade] = await db.batch([
    db.select().from(listings).where(listedListing).orderBy(desc(listings.createdAt)).limit(HOME_NEWEST_COUNT),
    db
      .select()
      .from(listings)
      .where(and(listedListing, eq(listings.isFree, true)))
      .orderBy(desc(listings.createdAt))
      .limit(HOME_FREE_COUNT),
    db
      .select()
      .from(listings)
      .where(and(listedListing, eq(listings.isTradeOffer, true)))
      .orderBy(desc(listings.createdAt))
      .limit(HOME_TRADE_COUNT),
  ]);
  return {
    newest: newest.map((r) => toListingCard(r)),
    free: free.map((r) => toListingCard(r)),
    trade: trade.map((r) => toListingCard(r)),
  };
}

export async function listingsByIds(db: Db, ids: string[]): Promise<ListingCard[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(listings).where(inArray(listings.id, ids));
  return rows.map((r) => toListingCard(r));
}

/**
 * Who may see a listing (docs/product.md "Listings"): public states to all, the rest to owner and
 * staff, and a sold, traded or given-away one also to the parties of that deal (decision 088).
 */
async function canView(db: Db, row: ListingRow, actor: Actor | null): Promise<boolean> {
  if (actor && (actor.id === row.userId || hasStaffRights(actor))) return true;
  if (isPublicListing({ status: row.status, is_hidden: row.isHidden })) return true;
  if (!actor || !(DEAL_DONE_STATUSES as readonly string[]).includes(row.status)) return false;
  const party = await db.$client
    .prepare(`SELECT 1 AS x FROM listings WHERE id = ?1 AND ${dealPartyListingSql("listings", "?2")}`)
    .bind(row.id, actor.id)
    .first();
  return !!party;
}

async function loadRow(db: Db, id: string): Promise<ListingRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  return db.select().from(listings).where(eq(listings.id, id)).get();
}

export async function getListingDetail(
  db: Db,
  id: string,
  actor: Actor | null,
): Promise<ListingDetail & { more_from_seller: ListingCard[] }> {
  const row = await loadRow(db, id);
  if (!row || !(await canView(db, row, actor))) throw new AppError("NOT_FOUND", LISTING_REFUSALS.notFound);
  const d1 = db.$client;
  const [extra, more, rating] = await d1.batch<Record<string, unknown>>([
    d1
      .prepare(
        `SELECT p.display_name, COALESCE(p.created_at, u.created_at) AS member_since, u.deleted_at, pp.place_name,
                (p.stripe_account_id IS NOT NULL AND p.stripe_charges_enabled = 1) AS can_take_payments
         FROM users u LEFT JOIN profiles p ON p.user_id = u.id LEFT JOIN postal_places pp ON pp.postal_code = ?2
         WHERE u.id = ?1`,
      )
      .bind(row.userId, row.postalCode),
    d1
      .prepare(
        `SELECT id FROM listings WHERE user_id = ?1 AND id <> ?2 AND ${listedListingSql()}
         ORDER BY created_at DESC LIMIT ?3`,
      )
      .bind(row.userId, row.id, SELLER_OTHER_LISTINGS),
    // The seller card's average and count (shown reviews only, decision 070).
    d1
      .prepare(
        `SELECT COUNT(*) AS count, AVG(r.rating) AS average FROM reviews r WHERE r.reviewee_id = ?1 AND ${shownReviewSql("r", "?2")}`,
      )
      .bind(row.userId, nowIso()),
  ]);
  const stars = rating.results[0] as { count: number; average: number | null };
  const info = (extra.results[0] ?? {}) as {
    display_name?: string | null;
    member_since?: string;
    deleted_at?: string | null;
    place_name?: string | null;
    can_take_payments?: number;
  };
  const moreIds = (more.results as { id: string }[]).map((r) => r.id);
  const moreCards = (await listingsByIds(db, moreIds)).sort((a, b) => b.created_at.localeCompare(a.created_at));
  // Payment as checkout would allow it: a seller without a Stripe account that takes charges (or a
  // deleted one) gets no "trygg betaling" promise on the page.
  const sellerCanTakePayments = !!info.can_take_payments && !info.deleted_at;
  return {
    ...toListingCard(row, sellerCanTakePayments),
    description: row.description,
    updated_at: row.updatedAt,
    place_name: info.place_name ?? null,
    seller: {
      user_id: row.userId,
      display_name: info.deleted_at ? null : (info.display_name ?? null),
      created_at: info.member_since ?? row.createdAt,
      rating: { count: stars.count, average: stars.average },
    },
    more_from_seller: moreCards,
    // Only the owner and moderators can open a hidden listing; they see why it is hidden.
    ...(row.isHidden ? { hidden: { reason: row.hiddenReason, hidden_at: row.hiddenAt, auto: row.autoHidden } } : {}),
  };
}

/** /annonse/{slug}: by seo_slug first, then by the id prefix in the slug's last part (docs/product.md "Search engines"). */
export async function resolveSlug(db: Db, slug: string): Promise<string | null> {
  const exact = await db.select({ id: listings.id }).from(listings).where(eq(listings.seoSlug, slug)).get();
  if (exact) return exact.id;
  const prefix = idPrefixFromSlug(slug);
  if (!prefix) return null;
  // The id prefix is hex without hyphens; a UUID has its first hyphen after 8 characters.
  const dashed = prefix.length > 8 ? `${prefix.slice(0, 8)}-${prefix.slice(8)}` : prefix;
  const row = await db.$client
    .prepare("SELECT id FROM listings WHERE id >= ?1 AND id < ?2 ORDER BY created_at DESC LIMIT 1")
    .bind(dashed, `${dashed}\uffff`)
    .first<{ id: string }>();
  return row?.id ?? null;
}

async function uniqueSlug(db: Db, title: string, id: string, exceptId?: string): Promise<string> {
  for (let chars = SLUG_ID_CHARS; chars <= 32; chars++) {
    const slug = listingSlug(title, id, chars);
    const taken = await db.select({ id: listings.id }).from(listings).where(eq(listings.seoSlug, slug)).get();
    if (!taken || taken.id === exceptId) return slug;
  }
  throw new Error("could not find a unique slug");
}

/** Every image must be the owner's own upload that exists in R2. */
async function checkImages(bucket: R2Bucket, userId: string, keys: string[]): Promise<void> {
  for (const key of keys) {
    if (!isOwnPhotoKey(userId, key))
      throw new AppError("VALIDATION", LISTING_REFUSALS.invalidImage, { images: LISTING_REFUSALS.invalidImage });
    const head = await bucket.head(key);
    if (!head) throw new AppError("VALIDATION", LISTING_REFUSALS.imageGone, { images: LISTING_REFUSALS.imageGoneField });
  }
}

/** The form's photos without repeats; a listing needs at least one. */
function formImages(form: ListingForm): string[] {
  if (form.images.length === 0)
    throw new AppError("VALIDATION", LISTING_REFUSALS.imageRequired, { images: LISTING_REFUSALS.imageRequired });
  return [...new Set(form.images)];
}

/** The columns a listing form writes (create and edit); server-owned columns are never among them. */
function formColumns(form: ListingForm, images: string[]) {
  return {
    title: form.title,
    description: form.description,
    category: form.category,
    ageRange: form.age_range,
    conditionRating: form.condition_rating,
    price: form.price,
    isFree: form.is_free,
    isTradeOffer: form.is_trade_offer,
    postalCode: form.postal_code,
    images,
  };
}

export async function createListing(
  db: Db,
  bucket: R2Bucket,
  actor: Actor,
  form: ListingForm,
): Promise<ListingDetail & { more_from_seller: ListingCard[] }> {
  await assertNotSuspended(db, actor.id);
  const images = formImages(form);
  await checkImages(bucket, actor.id, images);
  const id = crypto.randomUUID();
  const now = nowIso();
  const payment = paymentColumnsForCreate(await sellerCanTakePayments(db, actor.id), form);
  await db.insert(listings).values({
    id,
    userId: actor.id,
    ...formColumns(form, images),
    ...payment,
    status: "active",
    seoSlug: await uniqueSlug(db, form.title, id),
    createdAt: now,
    updatedAt: now,
  });
  return getListingDetail(db, id, actor);
}

/** The owner's listing, or 404 when it does not exist or is not visible, 403 when visible but not theirs. */
async function ownedRow(db: Db, id: string, actor: Actor): Promise<ListingRow> {
  const row = await loadRow(db, id);
  if (!row || row.status === "deleted" || !(await canView(db, row, actor)))
    throw new AppError("NOT_FOUND", LISTING_REFUSALS.notFoundOrNotOwn);
  if (row.userId !== actor.id) throw new AppError("FORBIDDEN", LISTING_REFUSALS.notFoundOrNotOwn);
  return row;
}

export async function getOwnListing(db: Db, id: string, actor: Actor): Promise<ListingRow> {
  return ownedRow(db, id, actor);
}

/**
 * The owner's edit. While the listing is held (promised in an agreed trade, reserved or given through
 * the give-away queue) only what domain/listing-holds.ts allows may change; the UPDATE itself rules
 * out the holds that forbid this edit, so an accept or a reserve landing after the read cannot let
 * it through (decision 086).
 */
export async function updateListing(
  db: Db,
  bucket: R2Bucket,
  actor: Actor,
  id: string,
  form: ListingForm,
  /** Closes the listing's open checkouts (worker/features/payments/settle.ts) once the price has changed. */
  closeCheckouts: (listingId: string) => Promise<void>,
) {
  const row = await ownedRow(db, id, actor);
  await assertNotSuspended(db, actor.id);
  const images = formImages(form);
  const columns = { ...formColumns(form, images), ...paymentColumnsForUpdate(await sellerCanTakePayments(db, actor.id), form, row) };
  const changed = changedEditFields(row, columns);
  const forbidding = holdsForbidding(changed);
  const holdGuards = forbidding.map((hold) => (hold === "trade" ? notPromised : notHeldByQueue));
  const added = images.filter((k) => !row.images.includes(k));
  await checkImages(bucket, actor.id, added);
  const slug = form.title === row.title ? row.seoSlug : await uniqueSlug(db, form.title, row.id, row.id);
  const updated = await db
    .update(listings)
    .set({ ...columns, seoSlug: slug, updatedAt: nowIso() })
    .where(and(eq(listings.id, id), eq(listings.userId, actor.id), ...holdGuards))
    .returning({ id: listings.id });
  if (updated.length === 0) throw new AppError("CONFLICT", (await heldEditRefusalFor(db, id, forbidding)) ?? LISTING_REFUSALS.concurrent);
  const removed = row.images.filter((k) => !images.includes(k));
  if (removed.length) await bucket.delete(removed);
  // A listing that is no longer given away has no queue: those waiting are told (decision 075).
  if (row.isFree && !columns.isFree) await closeQueue(db, id);
  // A buyer mid-checkout must not pay the old price (decision 087).
  if (changesPurchaseTerms(changed)) await closeCheckouts(id);
  return getListingDetail(db, id, actor);
}

/** Which of the holds that forbid an edit are on the listing now, as the refusal to show. */
async function heldEditRefusalFor(db: Db, id: string, forbidding: ListingHold[]): Promise<string | null> {
  const holds: ListingHold[] = [];
  if (forbidding.includes("trade") && (await isPromisedInTrade(db, id))) holds.push("trade");
  if (forbidding.includes("giveaway") && (await isHeldByQueue(db, id))) holds.push("giveaway");
  return heldEditRefusal(holds, LISTING_EDIT_FIELDS);
}

/** A listing promised in an agreed trade stays as it is until the trade is completed or called off (decision 046). */
const notPromised = sql.raw(`NOT ${promisedInTradeSql("listings")}`);
/** …and one reserved or given through the give-away queue is changed through the queue (decision 075). */
const notHeldByQueue = sql.raw(`NOT ${heldByQueueSql("listings")}`);
const notReservedInQueue = sql.raw(`NOT ${heldByQueueSql("listings", "reserved")}`);

/** Soft delete: conversations, trades and payments keep pointing at the row. */
export async function deleteListing(db: Db, actor: Actor, id: string): Promise<void> {
  await ownedRow(db, id, actor);
  const deleted = await db
    .update(listings)
    .set({ status: "deleted", updatedAt: nowIso() })
    .where(and(eq(listings.id, id), eq(listings.userId, actor.id), notPromised, notReservedInQueue))
    .returning({ id: listings.id });
  if (deleted.length === 0) {
    if (await isHeldByQueue(db, id)) throw new AppError("CONFLICT", GIVEAWAY_ERROR_TEXTS.heldByQueue);
    throw new AppError("CONFLICT", TRADE_ERROR_TEXTS.listingPromised);
  }
  await closeQueue(db, id);
}

/**
 * A seller-driven status change (domain/listing-lifecycle.ts). The UPDATE only applies while the
 * status is still the one just read, so of two competing changes exactly one wins; the other gets
 * 409 and changes nothing.
 */
export async function changeStatus(db: Db, actor: Actor, id: string, to: OwnerStatus): Promise<ListingCard> {
  const row = await ownedRow(db, id, actor);
  // A suspended seller may still reserve or close a listing, but not put one (back) on the market.
  if (to === "active") await assertNotSuspended(db, actor.id);
  if (!canOwnerMove(row.status, to)) {
    throw new AppError("CONFLICT", LISTING_REFUSALS.statusNotAllowed);
  }
  const updated = await db
    .update(listings)
    .set({ status: to, updatedAt: nowIso() })
    .where(and(eq(listings.id, id), eq(listings.userId, actor.id), eq(listings.status, row.status), notPromised, notHeldByQueue))
    .returning();
  if (updated.length === 0) {
    if (await isPromisedInTrade(db, id)) throw new AppError("CONFLICT", TRADE_ERROR_TEXTS.listingPromised);
    if (await isHeldByQueue(db, id)) throw new AppError("CONFLICT", GIVEAWAY_ERROR_TEXTS.heldByQueue);
    throw new AppError("CONFLICT", LISTING_REFUSALS.concurrent);
  }
  // Sold or given away outside the queue: nobody waiting can get it any more. (Reserved by hand
  // keeps the queue: the owner may put it back on the market.)
  if (to === "sold" || to === "given_away") await closeQueue(db, id);
  return toListingCard(updated[0]);
}

export async function ownListings(db: Db, actor: Actor): Promise<ListingCard[]> {
  const rows = await db
    .select()
    .from(listings)
    .where(and(eq(listings.userId, actor.id), inArray(listings.status, [...OWN_LIST_STATUSES])))
    .orderBy(desc(listings.createdAt));
  return rows.map((r) => ({ ...toListingCard(r), is_hidden: r.isHidden, hidden_reason: r.isHidden ? r.hiddenReason : null }));
}
