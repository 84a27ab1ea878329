// The listing visibility rules of domain/listing-lifecycle.ts as SQL, for every query that filters
// listings (home, favourites, the seller's other listings, photos, the sitemap, IndexNow). The
// status lists are domain constants, never user input, so they are written into the SQL text.
import { and, eq, inArray } from "drizzle-orm";
import { LISTED_LISTING_STATUSES, PUBLIC_LISTING_STATUSES } from "../../domain/listing-lifecycle";
import type { ListingStatus } from "../../domain/taxonomy";
import { listings } from "./schema";

const sqlList = (values: readonly ListingStatus[]) => values.map((v) => `'${v}'`).join(", ");

/** "Publicly visible listing" (active or reserved, not hidden) for a raw SQL WHERE; `alias` names the listings table. */
export function publicListingSql(alias = "listings"): string {
  return `(${alias}.status IN (${sqlList(PUBLIC_LISTING_STATUSES)}) AND ${alias}.is_hidden = 0)`;
}

/** Listed in home, search and the sitemap (active, not hidden) for a raw SQL WHERE. */
export function listedListingSql(alias = "listings"): string {
  return `(${alias}.status IN (${sqlList(LISTED_LISTING_STATUSES)}) AND ${alias}.is_hidden = 0)`;
}

/** The same two rules as drizzle conditions. */
export const publicListing = and(inArray(listings.status, [...PUBLIC_LISTING_STATUSES]), eq(listings.isHidden, false));
export const listedListing = and(inArray(listings.status, [...LISTED_LISTING_STATUSES]), eq(listings.isHidden, false));
