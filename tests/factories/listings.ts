// Listings inserted straight into D1 for worker tests, with a valid, unique seo_slug.
import { env } from "cloudflare:workers";
import { getTableColumns } from "drizzle-orm";
import { SLUG_ID_CHARS } from "../../domain/limits";
import { listingSlug } from "../../domain/slug";
import { searchTextOf } from "../../domain/search-language";
import { listingAttributes, type ListingAttributeKey } from "../../domain/listing-fields";
import { rowOf } from "../../worker/db/rows";
import { listings } from "../../worker/features/listings/schema";
import { nextTimestamp } from "./clock";
import { createUser } from "./users";

export type ListingRow = typeof listings.$inferSelect;
/** Any column may be overridden; userId defaults to a freshly created user. */
export type ListingOverrides = Partial<typeof listings.$inferInsert>;

let sequence = 0;

/** Builds the row without touching D1 (no owner is created; pass userId or use createListing). */
export function buildListing(overrides: ListingOverrides & { userId: string }): typeof listings.$inferInsert {
  sequence += 1;
  const id = overrides.id ?? crypto.randomUUID();
  const isFree = overrides.isFree ?? false;
  const createdAt = overrides.createdAt ?? nextTimestamp();
  const title = overrides.title ?? `Testleke nummer ${sequence}`;
  return {
    title,
    description: "Pent brukt, fra røykfritt hjem.",
    category: "lego",
    ageRange: "6-8 år",
    conditionRating: 4,
    price: isFree ? null : 250,
    isTradeOffer: false,
    postalCode: "0150",
    images: [],
    status: "active",
    isHidden: false,
    pricingMode: "standard",
    paymentEnabled: false,
    updatedAt: createdAt,
    ...overrides,
    id,
    isFree,
    createdAt,
    seoSlug: overrides.seoSlug ?? listingSlug(title, id),
    // Written with the title, as the listing form writes it (worker/features/listings/edits.ts).
    searchText:
      overrides.searchText !== undefined
        ? overrides.searchText
        : searchTextOf(
            title,
            listingAttributes().map((a) => overrides[a.key as ListingAttributeKey]),
          ),
  };
}

export async function createListing(overrides: ListingOverrides = {}, db: D1Database = env.DB): Promise<ListingRow> {
  const userId = overrides.userId ?? (await createUser({}, db)).id;
  const row = buildListing({ ...overrides, userId });
  if (!overrides.seoSlug) row.seoSlug = await uniqueSlug(db, row.title, row.id!);
  const inserted = await insertListing(db, row);
  return rowOf(listings, inserted);
}

/**
 * The row as the schema encodes it (JSON, 0/1). A test may override any column, so the column list
 * is the row's own: a column left undefined is not named and takes its default.
 */
async function insertListing(db: D1Database, row: typeof listings.$inferInsert): Promise<Record<string, unknown>> {
  const names: string[] = [];
  const values: unknown[] = [];
  for (const [key, column] of Object.entries(getTableColumns(listings))) {
    const value = row[key as keyof typeof row];
    if (value === undefined) continue;
    names.push(column.name);
    values.push(value === null ? null : column.mapToDriverValue(value));
  }
  const params = names.map((_, i) => `?${i + 1}`).join(", ");
  const inserted = await db
    .prepare(`INSERT INTO listings (${names.join(", ")}) VALUES (${params}) RETURNING *`)
    .bind(...values)
    .first<Record<string, unknown>>();
  if (!inserted) throw new Error("INSERT … RETURNING returned no row");
  return inserted;
}

/** Several listings for one owner, oldest first; `each(i)` adds per-item overrides. */
export async function createListings(
  count: number,
  overrides: ListingOverrides = {},
  each: (i: number) => ListingOverrides = () => ({}),
  db: D1Database = env.DB,
): Promise<ListingRow[]> {
  const userId = overrides.userId ?? (await createUser({}, db)).id;
  const rows: ListingRow[] = [];
  for (let i = 0; i < count; i++) rows.push(await createListing({ ...overrides, userId, ...each(i) }, db));
  return rows;
}

/** Deletes every listing (the FTS triggers clean the search tables). For tests that read global lists. */
export async function deleteAllListings(db: D1Database = env.DB): Promise<void> {
  await db.batch([db.prepare("DELETE FROM favourites"), db.prepare("DELETE FROM listings")]);
}

// The same rule as the service: extend the id part on a collision (docs/product.md "Listings").
async function uniqueSlug(db: D1Database, title: string, id: string): Promise<string> {
  for (let chars = SLUG_ID_CHARS; chars <= 32; chars++) {
    const slug = listingSlug(title, id, chars);
    const taken = await db.prepare("SELECT 1 FROM listings WHERE seo_slug = ?1").bind(slug).first();
    if (!taken) return slug;
  }
  throw new Error(`No free slug for ${id}`);
}
