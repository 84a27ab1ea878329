// The listing visibility rules of domain/listing-lifecycle.ts as SQL, each written once, for every
// query that filters listings (home, favourites, the seller's other listings, photos, the sitemap,
// IndexNow). The status lists are domain constants, never user input, so they are written into the
// SQL text (decision 099).
import { LISTED_LISTING_STATUSES, PUBLIC_LISTING_STATUSES, VIEWABLE_LISTING_STATUSES } from "../../../domain/listing-lifecycle";
import type { ListingStatus } from "../../../domain/taxonomy";

const sqlList = (values: readonly ListingStatus[]) => values.map((v) => `'${v}'`).join(", ");

/** "Publicly visible listing" (active or reserved, not hidden) for a raw SQL WHERE; `alias` names the listings table. */
export function publicListingSql(alias = "listings"): string {
  return `(${alias}.status IN (${sqlList(PUBLIC_LISTING_STATUSES)}) AND ${alias}.is_hidden = 0)`;
}

/**
 * "Anyone may open its page" (the public states and finished deals, not hidden) for a raw SQL WHERE:
 * the listing page and its photos (decision 117).
 */
export function viewableListingSql(alias = "listings"): string {
  return `(${alias}.status IN (${sqlList(VIEWABLE_LISTING_STATUSES)}) AND ${alias}.is_hidden = 0)`;
}

/** Listed in home, search and the sitemap (active, not hidden) for a raw SQL WHERE. */
export function listedListingSql(alias = "listings"): string {
  return `(${alias}.status IN (${sqlList(LISTED_LISTING_STATUSES)}) AND ${alias}.is_hidden = 0)`;
}
