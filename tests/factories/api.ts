// Response bodies exactly as the Worker sends them, for the web tests' fake fetch. Their types come
// from the Worker's routes (AppType through Hono's client types), and
// tests/worker/response-shapes.integration.test.ts compares each builder with the real answer of its
// endpoint, so a web test cannot fake a shape the Worker never sends. No Workers runtime here: the
// web tests (jsdom) import this file too.
import type { hc, InferResponseType } from "hono/client";
import type { ApiErrorBody, ErrorCode } from "../../domain/errors";
import { SYSTEM_USER_ID } from "../../domain/chat";
import type { AppType } from "../../worker/app";

type Api = ReturnType<typeof hc<AppType>>;

export type SessionBody = NonNullable<InferResponseType<Api["auth"]["session"]["$get"], 200>>;
export type SiteConfigBody = InferResponseType<Api["config"]["$get"], 200>;
export type HomeBody = InferResponseType<Api["home"]["$get"], 200>;
export type ListingCardBody = HomeBody["newest"][number];
export type ListingPageBody = InferResponseType<Api["listings"][":id"]["$get"], 200>;
export type OwnListingBody = InferResponseType<Api["me"]["listings"][":id"]["$get"], 200>;
export type ProfileBody = InferResponseType<Api["me"]["$get"], 200>;
export type SearchBody = InferResponseType<Api["search"]["$get"], 200>;
export type SearchRowBody = SearchBody["rows"][number];
export type SavedSearchBody = InferResponseType<Api["saved-searches"]["$get"], 200>[number];
export type SavedSearchBadgeBody = InferResponseType<Api["saved-searches"]["badge"]["$get"], 200>;
export type UnsubscribeBody = InferResponseType<Api["saved-searches"]["unsubscribe"]["$post"], 200>;
export type ConversationSummaryBody = InferResponseType<Api["conversations"]["$get"], 200>[number];
export type ConversationDetailBody = InferResponseType<Api["conversations"][":id"]["$get"], 200>;
export type MessagePageBody = InferResponseType<Api["conversations"][":id"]["messages"]["$get"], 200>;
export type ChatMessageBody = MessagePageBody["messages"][number];
export type StartConversationBody = InferResponseType<Api["conversations"]["$post"], 201>;
export type MarkReadBody = InferResponseType<Api["conversations"][":id"]["read"]["$post"], 200>;
export type UnreadCountBody = InferResponseType<Api["conversations"]["unread-count"]["$get"], 200>;
export type TestNotificationBody = InferResponseType<Api["test-notifications"]["$post"], 201>;
export type TestNotificationsAvailableBody = InferResponseType<Api["test-notifications"]["$get"], 200>;

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

export const TEST_USER_ID = "11111111-1111-4111-8111-111111111111";
export const TEST_SELLER_ID = "22222222-2222-4222-8222-222222222222";
export const TEST_CONVERSATION_ID = "c0c0c0c0-0000-4000-8000-000000000001";
export const TEST_LISTING_ID = "33333333-3333-4333-8333-333333333333";

/** GET /api/auth/session: the access cookie's expiry is epoch seconds (15 minutes from now). */
export function sessionBody(overrides: { user?: Partial<SessionBody["user"]>; expires_at?: number } = {}): SessionBody {
  return {
    user: { id: TEST_USER_ID, email: "kari@example.no", display_name: "Kari", role: "user", ...overrides.user },
    expires_at: overrides.expires_at ?? Math.floor(Date.now() / 1000) + 15 * 60,
  };
}

/** GET /api/config (the values of wrangler.toml's [vars]). */
export function siteConfigBody(overrides: Partial<SiteConfigBody> = {}): SiteConfigBody {
  return {
    appName: "Lekebytte",
    contactEmail: "hei@lekebytte.no",
    contactPhone: "+47 22 12 34 56",
    contactAddress: "Storgata 1, 0155 Oslo",
    vippsLogin: true,
    ...overrides,
  };
}

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
  return { ...listingCardBody({ user_id: TEST_USER_ID, images: ["u1/a.jpg", "u1/b.jpg"] }), description: "Fin stand", ...overrides };
}

/** GET /api/home. */
export function homeBody(overrides: Partial<HomeBody> = {}): HomeBody {
  return { newest: [], free: [], trade: [], ...overrides };
}

/** GET /api/search: `rows` cards with their rank. */
export function searchBody(rows: ListingCardBody[], total = rows.length, totalCapped = false): SearchBody {
  return { rows: rows.map((row) => ({ ...row, search_rank: 0 })), total, total_capped: totalCapped };
}

/** GET /api/me: the signed-in user's account and profile. */
export function profileBody(overrides: Partial<ProfileBody> = {}): ProfileBody {
  return {
    user_id: TEST_USER_ID,
    email: "kari@example.no",
    display_name: "Kari",
    postal_code: "0155",
    role: "user",
    stripe_account_id: null,
    created_at: "2024-03-05T10:00:00.000Z",
    pending_email: null,
    ...overrides,
  };
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

/**
 * GET /api/conversations/:id: the chat header, seen by the test user (the buyer) about a listing of
 * TEST_SELLER_ID.
 */
export function conversationDetailBody(overrides: Partial<ConversationDetailBody> = {}): ConversationDetailBody {
  return {
    id: TEST_CONVERSATION_ID,
    listing_id: TEST_LISTING_ID,
    buyer_id: TEST_USER_ID,
    seller_id: TEST_SELLER_ID,
    last_seq: 0,
    updated_at: new Date().toISOString(),
    listing: { id: TEST_LISTING_ID, title: "Brio togbane", price: 350, is_free: false, images: [], status: "active" },
    other_user: { id: TEST_SELLER_ID, display_name: "Ola Hansen", deleted: false },
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

/** One entry of GET /api/conversations (the inbox): the header plus the last message and the unread count. */
export function conversationSummaryBody(overrides: Partial<ConversationSummaryBody> = {}): ConversationSummaryBody {
  return {
    ...conversationDetailBody({ last_seq: 1 }),
    last_message: { content: "Hei!", created_at: new Date().toISOString(), sender_id: TEST_SELLER_ID },
    unread_count: 0,
    ...overrides,
  };
}

let messageCounter = 0;

/** A stored message (GET …/messages, POST …/messages, and the socket's frames). */
export function chatMessageBody(overrides: Partial<ChatMessageBody> = {}): ChatMessageBody {
  messageCounter += 1;
  return {
    id: `${String(messageCounter).padStart(8, "0")}-0000-4000-8000-000000000000`,
    conversation_id: TEST_CONVERSATION_ID,
    sender_id: TEST_SELLER_ID,
    seq: messageCounter,
    content: `Melding ${messageCounter}`,
    read_at: null,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

/** GET /api/conversations/:id/messages: ascending by seq. */
export function messagePageBody(messages: ChatMessageBody[] = [], hasMore = false): MessagePageBody {
  return { messages, has_more: hasMore };
}

/** POST /api/conversations ("Send melding"): the conversation's id (201 new, 200 existing). */
export function startConversationBody(id = TEST_CONVERSATION_ID): StartConversationBody {
  return { id };
}

/** POST /api/conversations/:id/read. */
export function markReadBody(count = 0, upToSeq = 0): MarkReadBody {
  return { count, up_to_seq: upToSeq };
}

/** GET /api/conversations/unread-count. */
export function unreadCountBody(count = 0): UnreadCountBody {
  return { count };
}

/** GET /api/test-notifications: the page exists (local mode only; production answers 404). */
export function testNotificationsAvailableBody(): TestNotificationsAvailableBody {
  return { enabled: true };
}

/** POST /api/test-notifications (local mode): the conversation written into and the system message. */
export function testNotificationBody(overrides: Partial<TestNotificationBody> = {}): TestNotificationBody {
  return {
    conversation_id: TEST_CONVERSATION_ID,
    message: chatMessageBody({ sender_id: SYSTEM_USER_ID, content: "Test melding for notifikasjoner" }),
    ...overrides,
  };
}

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

/** The one error envelope of every API error. */
export function errorBody(code: ErrorCode, message: string, fields?: Record<string, string>): ApiErrorBody {
  return { error: { code, message, ...(fields ? { fields } : {}) } };
}

export type DealReviewStateBody = InferResponseType<Api["reviews"]["deals"][":kind"][":id"]["$get"], 200>;
export type PublicProfileBody = InferResponseType<Api["users"][":id"]["$get"], 200>;
export type ReviewViewBody = PublicProfileBody["reviews"][number];

export const TEST_DEAL_ID = "d0d0d0d0-0000-4000-8000-000000000001";

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
