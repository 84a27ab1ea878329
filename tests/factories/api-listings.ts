// Listing bodies as the Worker sends them: cards, the listing page, the owner's listing, home,
// search, and saved searches with their badge and unsubscribe answer.
import type { InferResponseType } from "hono/client";
import { type Api, TEST_SELLER_ID, TEST_USER_ID } from "./api-core";
import { attributeValues } from "../../domain/listing-fields";

export type HomeBody = InferResponseType<Api["home"]["$get"], 200>;
export type ListingCardBody = HomeBody["newest"][number];
export type ListingPageBody = InferResponseType<Api["listings"][":id"]["$get"], 200>;
export type OwnListingBody = InferResponseType<Api["me"]["listings"][":id"]["$get"], 200>;
export type SearchBody = InferResponseType<Api["search"]["$get"], 200>;
export type SearchRowBody = SearchBody["rows"][number];
export type SavedSearchBody = InferResponseType<Api["saved-searches"]["$get"], 200>[number];
export type SavedSearchBadgeBody = InferResponseType<Api["saved-searches"]["badge"]["$get"], 200>;
export type UnsubscribeBody = InferResponseType<Api["saved-searches"]["unsubscribe"]["$post"], 200>;

// One numbering for listing cards and saved searches, so each gets an id of its own.
let counter = 0;

/** A listing as cards and lists carry it (home, search, favourites, own listings). */
export function listingCardBody(overrides: Partial<ListingCardBody> = {}): ListingCardBody {
  counter += 1;
  const id = `0000000${counter}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`.slice(-36);
  return {
    id,
    user_id: TEST_SELLER_ID,
    title: `Lego Duplo brannstasjon ${counter}`,
    price: 250,
    is_free: false,
    is_trade_offer: false,
    condition_rating: 4,
    category: "lego",
    age_range: "3-5 år",
    postal_code: "0155",
    images: [],
    status: "active",
    seo_slug: `lego-duplo-brannstasjon-${counter}-000000`,
    pricing_mode: "standard",
    payment_enabled: false,
    handover: ["in_person"],
    created_at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
    ...overrides,
  };
}

/** GET /api/listings/:id and /by-slug/:slug: the detail, its seller and more from the seller. */
export function listingPageBody(overrides: Partial<ListingPageBody> = {}): ListingPageBody {
  const card = listingCardBody({ images: ["u2/a.jpg", "u2/b.jpg"], ...overrides });
  return {
    ...card,
    description: "Komplett sett.\nLite brukt.",
    parcel_size: null,
    ...attributeValues({}),
    updated_at: card.created_at,
    place_name: "OSLO",
    seller: {
      user_id: card.user_id,
      display_name: "Ola Hansen",
      created_at: "2024-03-05T10:00:00.000Z",
      phone_verified: false,
      rating: { average: 4.5, count: 2 },
    },
    more_from_seller: [],
    ...overrides,
  };
}

/** GET /api/me/listings/:id: the owner's listing with its description (the edit form). */
export function ownListingBody(overrides: Partial<OwnListingBody> = {}): OwnListingBody {
  return {
    ...listingCardBody({ user_id: TEST_USER_ID, images: ["u1/a.jpg", "u1/b.jpg"] }),
    description: "Fin stand",
    parcel_size: null,
    ...attributeValues({}),
    ...overrides,
  };
}

/** GET /api/home. */
export function homeBody(overrides: Partial<HomeBody> = {}): HomeBody {
  return { newest: [], free: [], trade: [], ...overrides };
}

/** GET /api/search: `rows` cards with their rank. */
export function searchBody(rows: ListingCardBody[], total = rows.length, totalCapped = false): SearchBody {
  return { rows: rows.map((row) => ({ ...row, search_rank: 0 })), total, total_capped: totalCapped, suggestion: null };
}

/** GET /api/saved-searches: one saved search of the signed-in user. */
export function savedSearchBody(overrides: Partial<SavedSearchBody> = {}): SavedSearchBody {
  counter += 1;
  return {
    id: `0000000${counter}-bbbb-4bbb-8bbb-bbbbbbbbbbbb`.slice(-36),
    name: "Lego Duplo",
    query: "q=duplo&categories=lego",
    alert: "immediate",
    new_count: 0,
    created_at: "2026-03-05T10:00:00.000Z",
    ...overrides,
  };
}

/** GET /api/saved-searches/badge. */
export function savedSearchBadgeBody(count = 0): SavedSearchBadgeBody {
  return { count };
}

/** POST /api/saved-searches/unsubscribe. */
export function unsubscribeBody(name = "Lego Duplo"): UnsubscribeBody {
  return { name };
}
