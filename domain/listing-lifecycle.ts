// The listing lifecycle and who may see a listing (docs/product.md "Listings").
// The Worker's status route, its SQL visibility predicates and the web's owner menu all read these.
import type { ListingStatus } from "./taxonomy";

/** The states a seller may set through the status endpoint. */
export const OWNER_STATUSES = ["active", "reserved", "sold", "given_away"] as const satisfies readonly ListingStatus[];
export type OwnerStatus = (typeof OWNER_STATUSES)[number];

/** Seller-driven moves: active ⇄ reserved, either → sold | given_away, and back to active. */
export const OWNER_TRANSITIONS: Record<ListingStatus, readonly OwnerStatus[]> = {
  active: ["reserved", "sold", "given_away"],
  reserved: ["active", "sold", "given_away"],
  sold: ["active"],
  given_away: ["active"],
  traded: [],
  deleted: [],
};

export function canOwnerMove(from: ListingStatus, to: OwnerStatus): boolean {
  return OWNER_TRANSITIONS[from].includes(to);
}

/** Everyone may open these (listing and slug pages, favourites, photos) unless moderation hid them. */
export const PUBLIC_LISTING_STATUSES = ["active", "reserved"] as const satisfies readonly ListingStatus[];

/** Only these are listed: home, search, the seller's other listings, the sitemap. */
export const LISTED_LISTING_STATUSES = ["active"] as const satisfies readonly ListingStatus[];

/**
 * A finished deal's states: everyone may still open the listing, read only, marked "Solgt", "Byttet"
 * or "Gitt bort" (no buying, chat or trading), unless moderation hid it (decision 117).
 */
export const DEAL_DONE_STATUSES = ["sold", "traded", "given_away"] as const satisfies readonly ListingStatus[];

/** Everyone may open the listing page of these (the public states and the finished deals); deleted is gone. */
export const VIEWABLE_LISTING_STATUSES = [...PUBLIC_LISTING_STATUSES, ...DEAL_DONE_STATUSES] as const satisfies readonly ListingStatus[];

/** The owner's own list shows every state but deleted. */
export const OWN_LIST_STATUSES = ["active", "reserved", "sold", "given_away", "traded"] as const satisfies readonly ListingStatus[];

interface VisibilityFields {
  status: ListingStatus;
  is_hidden: boolean;
}

/** "Publicly visible listing": a public state and not hidden by moderation. */
export function isPublicListing(listing: VisibilityFields): boolean {
  return (PUBLIC_LISTING_STATUSES as readonly ListingStatus[]).includes(listing.status) && !listing.is_hidden;
}

/** Anyone may open its page (read only when its deal is done): a viewable state and not hidden by moderation. */
export function isViewableListing(listing: VisibilityFields): boolean {
  return (VIEWABLE_LISTING_STATUSES as readonly ListingStatus[]).includes(listing.status) && !listing.is_hidden;
}

/** A finished deal (sold, traded, given away): the listing is shown read only. */
export function isDealDone(status: ListingStatus): boolean {
  return (DEAL_DONE_STATUSES as readonly ListingStatus[]).includes(status);
}

/** Listed in home, search and the sitemap: active and not hidden. */
export function isListedListing(listing: VisibilityFields): boolean {
  return (LISTED_LISTING_STATUSES as readonly ListingStatus[]).includes(listing.status) && !listing.is_hidden;
}

/** Can be bought online (docs/product.md "Validation", "Payments"): only a listed listing, active and not hidden. */
export function isPurchasableListing(listing: VisibilityFields): boolean {
  return isListedListing(listing);
}
