// Deal bodies as the Worker sends them: trade offers and completed trades, giveaway queues, and
// reviews with the deal prompt and the public profile they show on.
import type { InferResponseType } from "hono/client";
import { type Api, TEST_CONVERSATION_ID, TEST_LISTING_ID, TEST_SELLER_ID, TEST_USER_ID } from "./api-core";
import { listingCardBody } from "./api-listings";

export type TradeProposalBody = InferResponseType<Api["trade-offers"]["proposal"][":listingId"]["$get"], 200>;
export type TradeOfferBody = InferResponseType<Api["trade-offers"][":id"]["$get"], 200>;
export type TradeOffersPageBody = InferResponseType<Api["trade-offers"]["history"][":direction"]["$get"], 200>;
export type CompletedTradesBody = InferResponseType<Api["trade-offers"]["history"]["completed"]["$get"], 200>;
export type CreateTradeOfferBody = InferResponseType<Api["trade-offers"]["$post"], 201>;
export type GiveawayViewBody = InferResponseType<Api["giveaways"]["listings"][":listingId"]["$get"], 200>;
export type GiveawayQueueEntryBody = NonNullable<GiveawayViewBody["queue"]>[number];
export type GiveawayMineBody = NonNullable<GiveawayViewBody["mine"]>;
export type GiveawayPlaceBody = InferResponseType<Api["giveaways"]["mine"]["$get"], 200>[number];
export type GiveawayUnseenBody = InferResponseType<Api["giveaways"]["mine"]["unseen"]["$get"], 200>;
export type DealReviewStateBody = InferResponseType<Api["reviews"]["deals"][":kind"][":id"]["$get"], 200>;
export type PublicProfileBody = InferResponseType<Api["users"][":id"]["$get"], 200>;
export type ReviewViewBody = PublicProfileBody["reviews"][number];
export type OrderViewBody = InferResponseType<Api["payments"]["orders"][":id"]["$get"], 200>;

export const TEST_DEAL_ID = "d0d0d0d0-0000-4000-8000-000000000001";

/** A listing in a trade (cards, proposal, history). */
export function tradeListingBody(overrides: Partial<TradeOfferBody["offered_listing"]> = {}): TradeOfferBody["offered_listing"] {
  return {
    id: TEST_LISTING_ID,
    title: "Brio togbane",
    price: 350,
    is_free: false,
    images: [],
    status: "active",
    seo_slug: "brio-togbane-333333",
    ...overrides,
  };
}

/** GET /api/trade-offers/proposal/:listingId: Ola's listing wanted, the test user's own active ones. */
export function tradeProposalBody(ownTitles: string[] = ["Duplo båt"]): TradeProposalBody {
  return {
    listing: { ...tradeListingBody(), owner_name: "Ola Hansen" },
    own_listings: ownTitles.map((title, i) => ({
      ...tradeListingBody({ id: `44444444-4444-4444-8444-${String(i).padStart(12, "0")}`, title, price: 200 }),
      already_offered: false,
    })),
  };
}

/** An offer from the test user (sender) to Ola Hansen (recipient), seen by the test user; pending for 7 days. */
export function tradeOfferBody(overrides: Partial<TradeOfferBody> = {}): TradeOfferBody {
  const now = Date.now();
  return {
    id: "55555555-5555-4555-8555-555555555555",
    conversation_id: TEST_CONVERSATION_ID,
    from_user_id: TEST_USER_ID,
    to_user_id: TEST_SELLER_ID,
    status: "pending",
    message: "Vil du bytte?",
    created_at: new Date(now).toISOString(),
    updated_at: new Date(now).toISOString(),
    expires_at: new Date(now + 7 * 86_400_000).toISOString(),
    other_user: { id: TEST_SELLER_ID, display_name: "Ola Hansen", deleted: false },
    offered_listing: tradeListingBody({ id: "44444444-4444-4444-8444-000000000000", title: "Duplo båt", price: 200 }),
    requested_listing: tradeListingBody(),
    handover: null,
    ...overrides,
  };
}

/** POST /api/trade-offers: the new offer and its conversation. */
export function createTradeOfferBody(): CreateTradeOfferBody {
  return { id: "55555555-5555-4555-8555-555555555555", conversation_id: TEST_CONVERSATION_ID };
}

/** GET /api/trade-offers/history/sent|received. */
export function tradeOffersPageBody(
  items: TradeOfferBody[] = [],
  counts = { sent: items.length, received: 0, completed: 0 },
): TradeOffersPageBody {
  return { counts, items, has_more: false };
}

/** GET /api/trade-offers/history/completed: trades of the test user with Ola Hansen. */
export function completedTradesBody(
  items: Partial<CompletedTradesBody["items"][number]>[] = [],
  counts = { sent: 0, received: 0, completed: items.length },
): CompletedTradesBody {
  const at = new Date().toISOString();
  return {
    counts,
    items: items.map((item) => ({
      id: crypto.randomUUID(),
      trade_offer_id: "55555555-5555-4555-8555-555555555555",
      conversation_id: TEST_CONVERSATION_ID,
      other_user: { id: TEST_SELLER_ID, display_name: "Ola Hansen", deleted: false },
      my_listing: tradeListingBody({ id: "44444444-4444-4444-8444-000000000000", title: "Duplo båt", price: 200 }),
      their_listing: tradeListingBody(),
      created_at: at,
      completed_at: at,
      reviewed_by_me: false,
      ...item,
    })),
    has_more: false,
  };
}

/** GET /api/giveaways/listings/:id: the queue panel (`queue` only for the giver, `mine` for a signed-in viewer). */
export function giveawayViewBody(overrides: Partial<GiveawayViewBody> = {}): GiveawayViewBody {
  return { listing_id: TEST_LISTING_ID, waiting_count: 0, reserved: false, given: false, mine: null, queue: null, ...overrides };
}

/** One person in the giver's queue. */
export function giveawayQueueEntryBody(overrides: Partial<GiveawayQueueEntryBody> = {}): GiveawayQueueEntryBody {
  return {
    id: "66666666-6666-4666-8666-666666666666",
    display_name: "Kari Nordmann",
    message: "Kan hente i kveld",
    status: "waiting",
    joined_at: new Date().toISOString(),
    conversation_id: null,
    ...overrides,
  };
}

/** The viewer's own place in a queue. */
export function giveawayMineBody(overrides: Partial<GiveawayMineBody> = {}): GiveawayMineBody {
  return {
    status: "waiting",
    message: "Kan hente i kveld",
    joined_at: new Date().toISOString(),
    position: 1,
    conversation_id: null,
    ...overrides,
  };
}

/** One entry of GET /api/giveaways/mine ("Mine køplasser"). */
export function giveawayPlaceBody(overrides: Partial<GiveawayPlaceBody> = {}): GiveawayPlaceBody {
  return {
    ...giveawayMineBody(),
    listing: { id: TEST_LISTING_ID, title: "Duplo brannstasjon", seo_slug: "duplo-brannstasjon-333333", images: [], public: true },
    unseen: false,
    ...overrides,
  };
}

/** GET /api/giveaways/mine/unseen. */
export function giveawayUnseenBody(count = 0): GiveawayUnseenBody {
  return { count };
}

/** A review as the profile and the deal prompt show it (by Ola Hansen, who bought). */
export function reviewBody(overrides: Partial<ReviewViewBody> = {}): ReviewViewBody {
  return {
    id: crypto.randomUUID(),
    deal_kind: "sale",
    rating: 5,
    text: "Rask og hyggelig handel.",
    created_at: "2026-05-02T10:00:00.000Z",
    reviewer: { id: TEST_SELLER_ID, display_name: "Ola Hansen", deleted: false },
    reviewer_role: "buyer",
    ...overrides,
  };
}

/** GET /api/reviews/deals/:kind/:id: a trade with Ola Hansen completed just now, nobody has written. */
export function dealReviewStateBody(overrides: Partial<DealReviewStateBody> = {}): DealReviewStateBody {
  const completed = new Date().toISOString();
  return {
    deal_kind: "trade",
    deal_id: TEST_DEAL_ID,
    title: "Ønsket leke",
    conversation_id: TEST_CONVERSATION_ID,
    other_user: { id: TEST_SELLER_ID, display_name: "Ola Hansen", deleted: false },
    completed_at: completed,
    window_closes_at: new Date(Date.parse(completed) + 14 * 86_400_000).toISOString(),
    window_open: true,
    can_review: true,
    my_review: null,
    other_has_reviewed: false,
    their_review: null,
    ...overrides,
  };
}

/** GET /api/users/:id: Ola Hansen's public profile. */
export function publicProfileBody(overrides: Partial<PublicProfileBody> = {}): PublicProfileBody {
  return {
    id: TEST_SELLER_ID,
    display_name: "Ola Hansen",
    member_since: "2024-03-05T10:00:00.000Z",
    phone_verified: false,
    rating: { average: 4.5, count: 2 },
    listings: [listingCardBody({ user_id: TEST_SELLER_ID })],
    listing_count: 1,
    reviews: [
      reviewBody({ reviewer: { id: TEST_USER_ID, display_name: "Kari Nordmann", deleted: false } }),
      reviewBody({ rating: 4, text: null, reviewer_role: "seller" }),
    ],
    has_more_reviews: false,
    next_offset: null,
    ...overrides,
  };
}

/** An order's held money as its buyer or seller sees it (decision 105): the buyer's, held, picked up. */
export function orderViewBody(overrides: Partial<OrderViewBody> = {}): OrderViewBody {
  return {
    order_id: TEST_DEAL_ID,
    state: "held",
    role: "buyer",
    amount: 30000,
    refund_amount: 0,
    paid_at: "2026-11-12T13:05:00.000Z",
    handed_over_at: null,
    release_due_at: null,
    cancel_from: null,
    settled_at: null,
    money_moved: false,
    payout_error: null,
    actions: ["confirm_received", "report_problem"],
    listing: { id: TEST_LISTING_ID, title: "Trehest", seo_slug: "trehest" },
    conversation_id: TEST_CONVERSATION_ID,
    photos: [],
    shipment: null,
    ...overrides,
  };
}
