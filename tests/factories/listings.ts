// Listings inserted straight into D1 for worker tests, with a valid, unique seo_slug.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { SLUG_ID_CHARS } from "../../domain/limits";
import { listingSlug } from "../../domain/slug";
import { getDb } from "../../worker/db/client";
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
  };
}

export async function createListing(overrides: ListingOverrides = {}, db: D1Database = env.DB): Promise<ListingRow> {
  const userId = overrides.userId ?? (await createUser({}, db)).id;
  const row = buildListing({ ...overrides, userId });
  const orm = getDb(db);
  if (!overrides.seoSlug) row.seoSlug = await uniqueSlug(orm, row.title, row.id!);
  const [inserted] = await orm.insert(listings).values(row).returning();
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
async function uniqueSlug(orm: ReturnType<typeof getDb>, title: string, id: string): Promise<string> {
  for (let chars = SLUG_ID_CHARS; chars <= 32; chars++) {
    const slug = listingSlug(title, id, chars);
    const taken = await orm.select({ id: listings.id }).from(listings).where(eq(listings.seoSlug, slug)).get();
    if (!taken) return slug;
  }
  throw new Error(`No free slug for ${id}`);
}
