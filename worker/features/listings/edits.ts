// The owner's side of a listing: create and edit from the form (photos, slug, payment settings),
// status moves and soft delete, each as one conditional statement so a hold or a concurrent change
// is refused instead of overwritten (decisions 046, 075, 086). Reads are in listings.ts.
import type { ListingCard, ListingDetail, ListingForm } from "../../../domain/schemas/listing";
import { SLUG_ID_CHARS } from "../../../domain/limits";
import { listingSlug } from "../../../domain/slug";
import { canOwnerMove, type OwnerStatus } from "../../../domain/listing-lifecycle";
import { isOwnPhotoKey } from "../../../domain/photos";
import { TRADE_ERROR_TEXTS } from "../../../domain/trades";
import type { Actor, Bindings } from "../../env";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { listingsChanged } from "../../lib/listing-changes";
import { nowIso } from "../../lib/crypto";
import { paymentColumnsForCreate, paymentColumnsForUpdate, sellerCanTakePayments } from "../payments/listing-payment";
import { assertNotSuspended } from "../moderation/suspension";
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
import { attributeValues, listingAttributes, type ListingAttributeKey } from "../../../domain/listing-fields";
import { searchTextOf } from "../../../domain/search-language";
import { canView, getListingDetail, listingRow, loadRow, slugOwner, toListingCard, type ListingRow } from "./listings";
import { deletePhotos } from "./images";

async function uniqueSlug(db: Db, title: string, id: string, exceptId?: string): Promise<string> {
  for (let chars = SLUG_ID_CHARS; chars <= 32; chars++) {
    const slug = listingSlug(title, id, chars);
    const taken = await slugOwner(db, slug);
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
    canPickUp: form.handover.includes("in_person"),
    canShip: form.handover.includes("shipping"),
    parcelSize: form.parcel_size,
    ...attributeValues(form),
  };
}

/** formColumns as SQL: the column names, in the order formColumnValues binds them. */
const FORM_COLUMN_NAMES = [
  "title",
  "description",
  "category",
  "age_range",
  "condition_rating",
  "price",
  "is_free",
  "is_trade_offer",
  "postal_code",
  "images",
  "can_pick_up",
  "can_ship",
  "parcel_size",
  ...listingAttributes().map((a) => a.key),
  "search_text",
];
const FORM_COLUMNS_SQL = FORM_COLUMN_NAMES.join(", ");
/** `?7, ?8, …` for an INSERT whose form values are bound from `?first` on. */
const formPlaceholdersSql = (first: number) => FORM_COLUMN_NAMES.map((_, i) => `?${first + i}`).join(", ");
/** `title = ?7, …` for an UPDATE whose form values are bound from `?first` on. */
const formAssignmentsSql = (first: number) => FORM_COLUMN_NAMES.map((name, i) => `${name} = ?${first + i}`).join(", ");

/** The form columns as D1 stores them: booleans as 0/1, the photo keys as a JSON array. */
function formColumnValues(c: ReturnType<typeof formColumns>): unknown[] {
  return [
    c.title,
    c.description,
    c.category,
    c.ageRange,
    c.conditionRating,
    c.price,
    c.isFree ? 1 : 0,
    c.isTradeOffer ? 1 : 0,
    c.postalCode,
    JSON.stringify(c.images),
    c.canPickUp ? 1 : 0,
    c.canShip ? 1 : 0,
    c.parcelSize,
    ...listingAttributes().map((a) => c[a.key as ListingAttributeKey]),
    // The language index's text, written with the title it is made from (decision 151).
    searchTextOf(
      c.title,
      listingAttributes().map((a) => c[a.key as ListingAttributeKey]),
    ),
  ];
}

export async function createListing(
  env: Bindings,
  db: Db,
  actor: Actor,
  form: ListingForm,
): Promise<ListingDetail & { more_from_seller: ListingCard[] }> {
  await assertNotSuspended(db, actor.id);
  const images = formImages(form);
  await checkImages(env.IMAGES, actor.id, images);
  const id = crypto.randomUUID();
  const now = nowIso();
  const payment = paymentColumnsForCreate(await sellerCanTakePayments(db, actor.id), form);
  const columns = formColumns(form, images);
  // The columns not named here take their defaults: not hidden, not auto-hidden.
  await db
    .prepare(
      `INSERT INTO listings (id, user_id, payment_enabled, pricing_mode, status, seo_slug, created_at, updated_at, ${FORM_COLUMNS_SQL})
       VALUES (?1, ?2, ?3, ?4, 'active', ?5, ?6, ?6, ${formPlaceholdersSql(7)})`,
    )
    .bind(
      id,
      actor.id,
      payment.paymentEnabled ? 1 : 0,
      payment.pricingMode,
      await uniqueSlug(db, form.title, id),
      now,
      ...formColumnValues(columns),
    )
    .run();
  await listingsChanged(env, [{ id, user_id: actor.id }]);
  return getListingDetail(db, id, actor);
}

/** The owner's listing, or 404 when it does not exist or is not visible, 403 when visible but not theirs. */
async function ownedRow(db: Db, id: string, actor: Actor): Promise<ListingRow> {
  const row = await loadRow(db, id);
  if (!row || row.status === "deleted" || !canView(row, actor)) throw new AppError("NOT_FOUND", LISTING_REFUSALS.notFoundOrNotOwn);
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
  env: Bindings,
  db: Db,
  actor: Actor,
  id: string,
  form: ListingForm,
  /** Closes the listing's open checkouts (worker/features/payments/settle.ts) once the price has changed. */
  closeCheckouts: (listingId: string) => Promise<void>,
) {
  const row = await ownedRow(db, id, actor);
  await assertNotSuspended(db, actor.id);
  const images = formImages(form);
  const payment = paymentColumnsForUpdate(await sellerCanTakePayments(db, actor.id), form, row);
  const columns = { ...formColumns(form, images), ...payment };
  const changed = changedEditFields(row, columns);
  const forbidding = holdsForbidding(changed);
  const holdGuards = forbidding.map((hold) => ` AND ${HOLD_GUARDS[hold]}`).join("");
  const added = images.filter((k) => !row.images.includes(k));
  await checkImages(env.IMAGES, actor.id, added);
  const slug = form.title === row.title ? row.seoSlug : await uniqueSlug(db, form.title, row.id, row.id);
  // A payment setting the form may not change is bound as null and keeps its value.
  const updated = await db
    .prepare(
      `UPDATE listings SET payment_enabled = COALESCE(?3, payment_enabled), pricing_mode = COALESCE(?4, pricing_mode),
         seo_slug = ?5, updated_at = ?6, ${formAssignmentsSql(7)}
       WHERE id = ?1 AND user_id = ?2${holdGuards}
       RETURNING id`,
    )
    .bind(
      id,
      actor.id,
      payment.paymentEnabled === undefined ? null : payment.paymentEnabled ? 1 : 0,
      payment.pricingMode ?? null,
      slug,
      nowIso(),
      ...formColumnValues(columns),
    )
    .all();
  if (updated.results.length === 0)
    throw new AppError("CONFLICT", (await heldEditRefusalFor(db, id, forbidding)) ?? LISTING_REFUSALS.concurrent);
  await listingsChanged(env, [{ id, user_id: actor.id }]);
  const removed = row.images.filter((k) => !images.includes(k));
  if (removed.length) await deletePhotos(env.IMAGES, removed);
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
  if (forbidding.includes("paid") && (await isPaid(db, id))) holds.push("paid");
  return heldEditRefusal(holds, LISTING_EDIT_FIELDS);
}

/** A listing promised in an agreed trade stays as it is until the trade is completed or called off (decision 046). */
const NOT_PROMISED = `NOT ${promisedInTradeSql("listings")}`;
/** …and one reserved or given through the give-away queue is changed through the queue (decision 075). */
const NOT_HELD_BY_QUEUE = `NOT ${heldByQueueSql("listings")}`;
const NOT_RESERVED_IN_QUEUE = `NOT ${heldByQueueSql("listings", "reserved")}`;
/** …and one a buyer has paid for keeps the ways it could change hands (decision 148). */
const NOT_PAID = "NOT EXISTS (SELECT 1 FROM payments p WHERE p.listing_id = listings.id AND p.status = 'completed')";
const HOLD_GUARDS: Record<ListingHold, string> = { trade: NOT_PROMISED, giveaway: NOT_HELD_BY_QUEUE, paid: NOT_PAID };

async function isPaid(db: Db, id: string): Promise<boolean> {
  const row = await db.prepare(`SELECT 1 AS paid FROM listings WHERE id = ?1 AND NOT ${NOT_PAID}`).bind(id).first();
  return row !== null;
}

/** Soft delete: conversations, trades and payments keep pointing at the row. */
export async function deleteListing(env: Bindings, db: Db, actor: Actor, id: string): Promise<void> {
  await ownedRow(db, id, actor);
  const deleted = await db
    .prepare(
      `UPDATE listings SET status = 'deleted', updated_at = ?3
       WHERE id = ?1 AND user_id = ?2 AND ${NOT_PROMISED} AND ${NOT_RESERVED_IN_QUEUE} RETURNING id`,
    )
    .bind(id, actor.id, nowIso())
    .all();
  if (deleted.results.length === 0) {
    if (await isHeldByQueue(db, id)) throw new AppError("CONFLICT", GIVEAWAY_ERROR_TEXTS.heldByQueue);
    throw new AppError("CONFLICT", TRADE_ERROR_TEXTS.listingPromised);
  }
  await listingsChanged(env, [{ id, user_id: actor.id }]);
  await closeQueue(db, id);
}

/**
 * A seller-driven status change (domain/listing-lifecycle.ts). The UPDATE only applies while the
 * status is still the one just read, so of two competing changes exactly one wins; the other gets
 * 409 and changes nothing.
 */
export async function changeStatus(env: Bindings, db: Db, actor: Actor, id: string, to: OwnerStatus): Promise<ListingCard> {
  const row = await ownedRow(db, id, actor);
  // A suspended seller may still reserve or close a listing, but not put one (back) on the market.
  if (to === "active") await assertNotSuspended(db, actor.id);
  if (!canOwnerMove(row.status, to)) {
    throw new AppError("CONFLICT", LISTING_REFUSALS.statusNotAllowed);
  }
  const updated = await db
    .prepare(
      `UPDATE listings SET status = ?4, updated_at = ?5
       WHERE id = ?1 AND user_id = ?2 AND status = ?3 AND ${NOT_PROMISED} AND ${NOT_HELD_BY_QUEUE} RETURNING *`,
    )
    .bind(id, actor.id, row.status, to, nowIso())
    .first<Record<string, unknown>>();
  if (!updated) {
    if (await isPromisedInTrade(db, id)) throw new AppError("CONFLICT", TRADE_ERROR_TEXTS.listingPromised);
    if (await isHeldByQueue(db, id)) throw new AppError("CONFLICT", GIVEAWAY_ERROR_TEXTS.heldByQueue);
    throw new AppError("CONFLICT", LISTING_REFUSALS.concurrent);
  }
  await listingsChanged(env, [{ id, user_id: actor.id }]);
  // Sold or given away outside the queue: nobody waiting can get it any more. (Reserved by hand
  // keeps the queue: the owner may put it back on the market.)
  if (to === "sold" || to === "given_away") await closeQueue(db, id);
  return toListingCard(listingRow(updated));
}
