import type { HomeSections, ListingCard, ListingDetail } from "../../../domain/schemas/listing";
import { HOME_FREE_COUNT, HOME_NEWEST_COUNT, HOME_TRADE_COUNT, SELLER_OTHER_LISTINGS } from "../../../domain/limits";
import { idPrefixFromSlug } from "../../../domain/slug";
import { isViewableListing, OWN_LIST_STATUSES } from "../../../domain/listing-lifecycle";
import { hasStaffRights } from "../../../domain/moderation";
import type { Actor } from "../../env";
import type { Db } from "../../db/client";
import { rowOf } from "../../db/rows";
import { listedListingSql } from "./visibility";
import { listings } from "./schema";
import { AppError } from "../../lib/errors";
import { nowIso } from "../../lib/crypto";
import { shownPayment } from "../../../domain/payments";
import { shownReviewSql } from "../reviews/visibility";
import { LISTING_REFUSALS } from "../../../domain/listings";
import { attributeValues } from "../../../domain/listing-fields";
import { handoverModes } from "../../../domain/carriers";

export type ListingRow = typeof listings.$inferSelect;

export const listingRow = (raw: Record<string, unknown>): ListingRow => rowOf(listings, raw);

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
    handover: handoverModes(row.canPickUp, row.canShip),
    created_at: row.createdAt,
  };
}

/** Newest first by creation time (ISO strings in UTC sort as the times do). */
export function newestFirst(a: ListingCard, b: ListingCard): number {
  return b.created_at.localeCompare(a.created_at);
}

/**
 * The home page's three sections in ONE D1 statement (decision 113): each section's rows
 * tagged with its name in a UNION ALL, `SELECT *`-shaped so listingRow() reads them. A listing in
 * more than one section comes once per section.
 */
export async function homeSections(db: Db): Promise<HomeSections> {
  const sections = { newest: "", free: " AND is_free = 1", trade: " AND is_trade_offer = 1" } as const;
  const counts = { newest: HOME_NEWEST_COUNT, free: HOME_FREE_COUNT, trade: HOME_TRADE_COUNT };
  const names = Object.keys(sections) as (keyof HomeSections)[];
  const sql = names
    .map(
      (name, i) =>
        `SELECT * FROM (SELECT '${name}' AS section, * FROM listings WHERE ${listedListingSql()}${sections[name]}
         ORDER BY created_at DESC LIMIT ?${i + 1})`,
    )
    .join(" UNION ALL ");
  const { results } = await db
    .prepare(sql)
    .bind(...names.map((name) => counts[name]))
    .all<Record<string, unknown> & { section: keyof HomeSections }>();
  const home: HomeSections = { newest: [], free: [], trade: [] };
  for (const raw of results) home[raw.section].push(toListingCard(listingRow(raw)));
  // A compound SELECT keeps no order of its own: each section is sorted here, newest first as its
  // own ORDER BY chose its rows. An outer ORDER BY would sort them in a temporary tree, which D1
  // counts as rows read a second time.
  for (const name of names) home[name].sort(newestFirst);
  return home;
}

/** Cards for the given ids, in no particular order (every caller sorts). */
export async function listingsByIds(db: Db, ids: string[]): Promise<ListingCard[]> {
  if (ids.length === 0) return [];
  // The ids as one JSON parameter: any number of them in one statement (D1 binds at most 100).
  const rows = await db
    .prepare("SELECT * FROM listings WHERE id IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify(ids))
    .all<Record<string, unknown>>();
  return rows.results.map((r) => toListingCard(listingRow(r)));
}

/**
 * Who may see a listing (docs/product.md "Listings"): the public states and finished deals (read
 * only) to all unless moderation hid it; any state to its owner and staff (decision 117).
 */
export function canView(row: ListingRow, actor: Actor | null): boolean {
  if (actor && (actor.id === row.userId || hasStaffRights(actor))) return true;
  return isViewableListing({ status: row.status, is_hidden: row.isHidden });
}

export async function loadRow(db: Db, id: string): Promise<ListingRow | undefined> {
  if (!UUID_LIKE.test(id)) return undefined;
  const raw = await db.prepare("SELECT * FROM listings WHERE id = ?1").bind(id).first<Record<string, unknown>>();
  return raw ? listingRow(raw) : undefined;
}

const UUID_LIKE = /^[0-9a-f-]{36}$/i;

export type ListingDetailView = ListingDetail & { more_from_seller: ListingCard[] };

/** Which listing: by id, or by a /annonse/{slug} (its seo_slug, else the id prefix in its last part). */
export type ListingKey = { id: string } | { slug: string };

/** What the listing page's row carries beside the listing's own columns. */
type DetailColumns = {
  seller_display_name: string | null;
  seller_member_since: string | null;
  seller_deleted_at: string | null;
  seller_place_name: string | null;
  seller_can_take_payments: number | null;
  seller_phone_verified: number | null;
  rating_count: number;
  rating_average: number | null;
};

/**
 * Each of those columns as one SQL expression over `l` (the listing), `u`/`p`/`pp` (its seller's
 * user, profile and place) and `stars` (the seller's shown reviews); `more` rows carry NULL in each.
 */
const DETAIL_COLUMNS: Record<keyof DetailColumns, string> = {
  seller_display_name: "p.display_name",
  seller_member_since: "COALESCE(p.created_at, u.created_at)",
  seller_deleted_at: "u.deleted_at",
  seller_place_name: "pp.place_name",
  seller_can_take_payments: "(p.stripe_account_id IS NOT NULL AND p.stripe_charges_enabled = 1)",
  seller_phone_verified: "(u.phone_verified_at IS NOT NULL)",
  rating_count: "stars.count",
  rating_average: "stars.average",
};

/**
 * The listing page's data in ONE D1 statement (decision 113; the page used to make four or
 * five round trips in a row, then one batch of three or four statements): the listing with its
 * seller and place and the seller's rating on a `'listing'` row; the seller's other listings on
 * `'more'` rows, `SELECT *`-shaped so
 * listingRow() reads both. The key (an id, or a slug to resolve) is written once, in the `target` CTE.
 * `id` is the listing the key named (null: none); `detail` is null when `actor` may not see it.
 */
export async function listingDetailByKey(
  db: Db,
  key: ListingKey,
  actor: Actor | null,
): Promise<{ id: string | null; detail: ListingDetailView | null }> {
  let target: string;
  const params: (string | number | null)[] = [];
  if ("id" in key) {
    if (!UUID_LIKE.test(key.id)) return { id: null, detail: null };
    target = "?1";
    params.push(key.id);
  } else {
    const slug = slugTarget(key.slug);
    target = slug.sql;
    params.push(...slug.params);
  }
  // Numbered after the key's parameters (D1 wants exactly as many as the SQL uses).
  const param = (value: string | number) => `?${params.push(value)}`;
  const now = param(nowIso());
  const count = param(SELLER_OTHER_LISTINGS);
  const extra = Object.entries(DETAIL_COLUMNS);
  const sql = `WITH target AS (SELECT id, user_id FROM listings WHERE id = ${target}),
    stars AS (SELECT COUNT(*) AS count, AVG(r.rating) AS average FROM reviews r, target
              WHERE r.reviewee_id = target.user_id AND ${shownReviewSql("r", now)})
    SELECT 'listing' AS kind, l.*, ${extra.map(([name, expr]) => `${expr} AS ${name}`).join(", ")}
    FROM target JOIN listings l ON l.id = target.id CROSS JOIN stars
      LEFT JOIN users u ON u.id = l.user_id LEFT JOIN profiles p ON p.user_id = l.user_id
      LEFT JOIN postal_places pp ON pp.postal_code = l.postal_code
    UNION ALL
    SELECT * FROM (SELECT 'more' AS kind, o.*, ${extra.map(([name]) => `NULL AS ${name}`).join(", ")}
      FROM target JOIN listings o ON o.user_id = target.user_id AND o.id <> target.id
      WHERE ${listedListingSql("o")} ORDER BY o.created_at DESC LIMIT ${count})`;
  const { results } = await db
    .prepare(sql)
    .bind(...params)
    .all<Record<string, unknown> & (({ kind: "listing" } & DetailColumns) | { kind: "more" })>();
  const raw = results.find((r) => r.kind === "listing");
  if (raw?.kind !== "listing") return { id: null, detail: null };
  const row = listingRow(raw);
  if (!canView(row, actor)) return { id: row.id, detail: null };

  // Payment as checkout would allow it: a seller without a Stripe account that takes charges (or a
  // deleted one) gets no "trygg betaling" promise on the page.
  const sellerCanTakePayments = !!raw.seller_can_take_payments && !raw.seller_deleted_at;
  const detail: ListingDetailView = {
    ...toListingCard(row, sellerCanTakePayments),
    description: row.description,
    parcel_size: row.parcelSize,
    ...attributeValues(row),
    updated_at: row.updatedAt,
    place_name: raw.seller_place_name ?? null,
    seller: {
      user_id: row.userId,
      display_name: raw.seller_deleted_at ? null : (raw.seller_display_name ?? null),
      created_at: raw.seller_member_since ?? row.createdAt,
      // "Verifisert med Vipps" on the seller card (decision 128).
      phone_verified: raw.seller_phone_verified === 1 && !raw.seller_deleted_at,
      // The seller card's average and count: shown reviews only (decision 070).
      rating: { count: raw.rating_count, average: raw.rating_average },
    },
    // A compound SELECT keeps no order of its own (see homeSections): newest first, as chosen.
    more_from_seller: results
      .filter((r) => r.kind === "more")
      .map((r) => toListingCard(listingRow(r)))
      .sort(newestFirst),
    // Only the owner and moderators can open a hidden listing; they see why it is hidden.
    ...(row.isHidden ? { hidden: { reason: row.hiddenReason, hidden_at: row.hiddenAt, auto: row.autoHidden } } : {}),
  };
  return { id: row.id, detail };
}

/** The listing page's data for one who may see it; a 404 in the listing's words otherwise. */
export async function getListingDetail(db: Db, key: string | ListingKey, actor: Actor | null): Promise<ListingDetailView> {
  const { detail } = await listingDetailByKey(db, typeof key === "string" ? { id: key } : key, actor);
  if (!detail) throw new AppError("NOT_FOUND", LISTING_REFUSALS.notFound);
  return detail;
}

/** /annonse/{slug}: by seo_slug first, then by the id prefix in the slug's last part (docs/product.md "Search engines"). */
export async function resolveSlug(db: Db, slug: string): Promise<string | null> {
  const target = slugTarget(slug);
  const row = await db
    .prepare(`SELECT ${target.sql} AS id`)
    .bind(...target.params)
    .first<{ id: string | null }>();
  return row?.id ?? null;
}

/**
 * The id a slug names as one SQL expression over ?1–?3: the listing with that seo_slug, else the
 * newest whose id starts with the slug's id prefix (none when its last part is no id prefix).
 */
function slugTarget(slug: string): { sql: string; params: [string, string | null, string | null] } {
  const range = slugIdRange(slug);
  return {
    sql: `COALESCE((SELECT id FROM listings WHERE seo_slug = ?1),
      (SELECT id FROM listings WHERE id >= ?2 AND id < ?3 ORDER BY created_at DESC LIMIT 1))`,
    params: [slug, range?.[0] ?? null, range?.[1] ?? null],
  };
}

/** The ids a slug's id prefix covers, [from, to), or null when its last part is no id prefix. */
function slugIdRange(slug: string): [string, string] | null {
  const prefix = idPrefixFromSlug(slug);
  if (!prefix) return null;
  // The id prefix is hex without hyphens; a UUID has its first hyphen after 8 characters.
  const dashed = prefix.length > 8 ? `${prefix.slice(0, 8)}-${prefix.slice(8)}` : prefix;
  return [dashed, `${dashed}\uffff`];
}

export function slugOwner(db: Db, slug: string): Promise<{ id: string } | null> {
  return db.prepare("SELECT id FROM listings WHERE seo_slug = ?1").bind(slug).first<{ id: string }>();
}

export async function ownListings(db: Db, actor: Actor): Promise<ListingCard[]> {
  const statuses = OWN_LIST_STATUSES.map((_, i) => `?${i + 2}`).join(", ");
  const raw = await db
    .prepare(`SELECT * FROM listings WHERE user_id = ?1 AND status IN (${statuses}) ORDER BY created_at DESC`)
    .bind(actor.id, ...OWN_LIST_STATUSES)
    .all<Record<string, unknown>>();
  const rows = raw.results.map(listingRow);
  return rows.map((r) => ({ ...toListingCard(r), is_hidden: r.isHidden, hidden_reason: r.isHidden ? r.hiddenReason : null }));
}
