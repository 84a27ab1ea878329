// The listing visibility rules of domain/listing-lifecycle.ts as SQL, each written once, for every
// query that filters listings (home, favourites, the seller's other listings, photos, the sitemap,
// IndexNow). The status lists are domain constants, never user input, so they are written into the
// SQL text (decision 099).
import { DEAL_DONE_STATUSES, LISTED_LISTING_STATUSES, PUBLIC_LISTING_STATUSES } from "../../../domain/listing-lifecycle";
import type { ListingStatus } from "../../../domain/taxonomy";

const sqlList = (values: readonly ListingStatus[]) => values.map((v) => `'${v}'`).join(", ");

/** "Publicly visible listing" (active or reserved, not hidden) for a raw SQL WHERE; `alias` names the listings table. */
export function publicListingSql(alias = "listings"): string {
  return `(${alias}.status IN (${sqlList(PUBLIC_LISTING_STATUSES)}) AND ${alias}.is_hidden = 0)`;
}

/** Listed in home, search and the sitemap (active, not hidden) for a raw SQL WHERE. */
export function listedListingSql(alias = "listings"): string {
  return `(${alias}.status IN (${sqlList(LISTED_LISTING_STATUSES)}) AND ${alias}.is_hidden = 0)`;
}

/**
 * "A party of a finished deal about this listing" for a raw SQL WHERE (decision 088): `alias` names the
 * listings table, `user` the viewer's bind parameter. The listing must be in a finished deal's state
 * and not hidden; the viewer the buyer of a completed payment for it, either side of a completed trade
 * that involved it, or giver or taker of its give-away. A cancelled trade or a failed payment is no deal.
 */
export function dealPartyListingSql(alias: string, user: string): string {
  return `(${alias}.status IN (${sqlList(DEAL_DONE_STATUSES)}) AND ${alias}.is_hidden = 0 AND (
    EXISTS (SELECT 1 FROM transactions t JOIN payments p ON p.id = t.payment_id
            WHERE t.ad_id = ${alias}.id AND p.status = 'completed' AND ${user} IN (t.buyer_id, t.seller_id))
    OR EXISTS (SELECT 1 FROM trade_transactions s
            WHERE s.status = 'completed' AND ${alias}.id IN (s.user1_listing_id, s.user2_listing_id) AND ${user} IN (s.user1_id, s.user2_id))
    OR EXISTS (SELECT 1 FROM giveaways g WHERE g.listing_id = ${alias}.id AND ${user} IN (g.giver_id, g.taker_id))
  ))`;
}
