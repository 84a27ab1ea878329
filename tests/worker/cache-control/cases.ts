// The table of the Cache-Control test (../cache-control.integration.test.ts): every API answer that
// reads data, asked as the caller it names, with the signed-in user, a staff member, a visitor and the
// objects they ask about (made by createCaseWorld).
import {
  createConversation,
  createListing,
  createSale,
  createTrade,
  createUser,
  signedInClient,
  type ConversationFixture,
  type DealFixture,
  type TestUser,
  type TradeFixture,
} from "../../factories";
import { Client } from "../support/http";

const PASSWORD = "riktig-passord-123";
const UNKNOWN = "0b7f6a9e-3c1d-4e2f-8a5b-9c0d1e2f3a4b";
const MALFORMED = "ikke-en-id";

let user: TestUser;
let client: Client;
let admin: Client;
let visitor: Client;
let conv: ConversationFixture;
let trade: TradeFixture;
let sale: DealFixture;
let ownListing: { id: string };
let freeListing: { id: string };

/** The people and objects the cases ask about; call in beforeAll (every test file starts with an empty D1). */
export async function createCaseWorld(): Promise<void> {
  user = await createUser({ password: PASSWORD });
  client = await signedInClient(user.id);
  admin = await signedInClient((await createUser({ role: "admin" })).id);
  visitor = new Client();
  ownListing = await createListing({ userId: user.id });
  freeListing = await createListing({ isFree: true });
  conv = await createConversation({ buyerUser: user });
  trade = await createTrade({ sender: user });
  sale = await createSale({ buyer: user });
}

export interface Case {
  /** The route as `app.routes` names it. */
  route: string;
  name: string;
  as: () => Client;
  path: () => string;
  method?: string;
  json?: () => unknown;
}

const get = (route: string, name: string, path: () => string, as: () => Client = () => client): Case => ({ route, name, as, path });

export const CASES: Case[] = [
  get(
    "GET /api/home",
    "visitor",
    () => "/api/home",
    () => visitor,
  ),
  get(
    "GET /api/config",
    "visitor",
    () => "/api/config",
    () => visitor,
  ),
  get(
    "GET /api/search",
    "visitor",
    () => "/api/search?q=lego",
    () => visitor,
  ),
  get(
    "GET /api/search",
    "invalid query",
    () => "/api/search?sort=nope",
    () => visitor,
  ),
  get("GET /api/listings/:id", "own", () => `/api/listings/${ownListing.id}`),
  get("GET /api/listings/:id", "unknown", () => `/api/listings/${UNKNOWN}`),
  get("GET /api/listings/by-slug/:slug", "unknown", () => "/api/listings/by-slug/finnes-ikke"),
  get("GET /api/auth/session", "signed in", () => "/api/auth/session"),
  get(
    "GET /api/auth/session",
    "visitor",
    () => "/api/auth/session",
    () => visitor,
  ),
  get("GET /api/me", "signed in", () => "/api/me"),
  get(
    "GET /api/me",
    "visitor",
    () => "/api/me",
    () => visitor,
  ),
  get("GET /api/me/vipps", "signed in", () => "/api/me/vipps"),
  get(
    "GET /api/auth/vipps/link",
    "no waiting link",
    () => "/api/auth/vipps/link",
    () => visitor,
  ),
  get("GET /api/me/moderation", "signed in", () => "/api/me/moderation"),
  get("GET /api/me/listings", "signed in", () => "/api/me/listings"),
  get("GET /api/me/sessions", "signed in", () => "/api/me/sessions"),
  get("GET /api/me/listings/:id", "own", () => `/api/me/listings/${ownListing.id}`),
  get("GET /api/favourites", "signed in", () => "/api/favourites"),
  get("GET /api/favourites/ids", "signed in", () => "/api/favourites/ids"),
  get("GET /api/conversations", "signed in", () => "/api/conversations"),
  get(
    "GET /api/conversations",
    "visitor",
    () => "/api/conversations",
    () => visitor,
  ),
  get("GET /api/conversations/unread-count", "signed in", () => "/api/conversations/unread-count"),
  get("GET /api/conversations/:id", "party", () => `/api/conversations/${conv.id}`),
  get("GET /api/conversations/:id", "unknown", () => `/api/conversations/${UNKNOWN}`),
  get("GET /api/conversations/:id", "malformed", () => `/api/conversations/${MALFORMED}`),
  get("GET /api/conversations/:id/messages", "party", () => `/api/conversations/${conv.id}/messages`),
  get("GET /api/conversations/:id/messages", "unknown", () => `/api/conversations/${UNKNOWN}/messages`),
  get("GET /api/conversations/:id/messages", "invalid query", () => `/api/conversations/${conv.id}/messages?before=x`),
  get(
    "GET /api/test-notifications",
    "visitor",
    () => "/api/test-notifications",
    () => visitor,
  ),
  get("GET /api/trade-offers/proposal/:listingId", "not for trade", () => `/api/trade-offers/proposal/${freeListing.id}`),
  get("GET /api/trade-offers/proposal/:listingId", "malformed", () => `/api/trade-offers/proposal/${MALFORMED}`),
  get("GET /api/trade-offers/conversation/:conversationId", "party", () => `/api/trade-offers/conversation/${trade.conversationId}`),
  get("GET /api/trade-offers/history/completed", "signed in", () => "/api/trade-offers/history/completed"),
  get("GET /api/trade-offers/history/completed", "invalid query", () => "/api/trade-offers/history/completed?offset=-1"),
  get("GET /api/trade-offers/history/:direction", "sent", () => "/api/trade-offers/history/sent"),
  get("GET /api/trade-offers/history/:direction", "invalid direction", () => "/api/trade-offers/history/sideways"),
  get("GET /api/trade-offers/:id", "party", () => `/api/trade-offers/${trade.offerId}`),
  get("GET /api/trade-offers/:id", "unknown", () => `/api/trade-offers/${UNKNOWN}`),
  get(
    "GET /api/trade-offers/:id",
    "visitor",
    () => `/api/trade-offers/${trade.offerId}`,
    () => visitor,
  ),
  get("GET /api/payments/details", "invalid query", () => "/api/payments/details"),
  get("GET /api/payments/purchases", "signed in", () => "/api/payments/purchases"),
  get(
    "GET /api/payments/purchases",
    "visitor",
    () => "/api/payments/purchases",
    () => visitor,
  ),
  get("GET /api/payments/sales", "signed in", () => "/api/payments/sales"),
  get("GET /api/payments/stripe/account", "signed in", () => "/api/payments/stripe/account"),
  get("GET /api/payments/orders", "party", () => `/api/payments/orders?conversation_id=${conv.id}`),
  get("GET /api/payments/orders", "invalid query", () => "/api/payments/orders?conversation_id=x"),
  get("GET /api/payments/orders/:id", "unknown", () => `/api/payments/orders/${UNKNOWN}`),
  // The checkout's pickup points (decision 150): asked per buyer, never kept.
  get(
    "GET /api/shipping/pickup-points",
    "signed in",
    () => "/api/shipping/pickup-points?carrier=bring&delivery=pickup_point&postal_code=5003",
  ),
  get("GET /api/shipping/pickup-points", "invalid query", () => "/api/shipping/pickup-points?carrier=dhl"),
  // A problem report's photo (decision 108): private evidence, refusals included.
  get("GET /api/payments/orders/:id/photos/:photoId", "unknown", () => `/api/payments/orders/${UNKNOWN}/photos/${UNKNOWN}`),
  get(
    "GET /api/payments/orders/:id/photos/:photoId",
    "visitor",
    () => `/api/payments/orders/${UNKNOWN}/photos/${UNKNOWN}`,
    () => visitor,
  ),
  get(
    "GET /api/moderation/payment-cases",
    "admin",
    () => "/api/moderation/payment-cases",
    () => admin,
  ),
  get("GET /api/moderation/payment-cases", "user", () => "/api/moderation/payment-cases"),
  get(
    "GET /api/moderation/reports",
    "admin",
    () => "/api/moderation/reports",
    () => admin,
  ),
  get("GET /api/moderation/reports", "user", () => "/api/moderation/reports"),
  get(
    "GET /api/moderation/staff",
    "admin",
    () => "/api/moderation/staff",
    () => admin,
  ),
  // The operator's page (decision 134): admins only.
  get(
    "GET /api/admin/drift",
    "admin",
    () => "/api/admin/drift",
    () => admin,
  ),
  get("GET /api/admin/drift", "user", () => "/api/admin/drift"),
  get("GET /api/saved-searches", "signed in", () => "/api/saved-searches"),
  get("GET /api/saved-searches/badge", "signed in", () => "/api/saved-searches/badge"),
  get("GET /api/analytics/listings/:id", "own", () => `/api/analytics/listings/${ownListing.id}`),
  get(
    "GET /api/analytics/listings/:id",
    "visitor",
    () => `/api/analytics/listings/${ownListing.id}`,
    () => visitor,
  ),
  get("GET /api/analytics/my-listings", "signed in", () => "/api/analytics/my-listings"),
  get(
    "GET /api/dev/mail",
    "local",
    () => "/api/dev/mail",
    () => visitor,
  ),
  get(
    "GET /api/dev/mail.json",
    "local",
    () => "/api/dev/mail.json",
    () => visitor,
  ),
  get(
    "GET /api/dev/analytics/summary",
    "local",
    () => "/api/dev/analytics/summary",
    () => visitor,
  ),
  get(
    "GET /api/dev/d1-usage",
    "local",
    () => "/api/dev/d1-usage",
    () => visitor,
  ),
  get(
    "GET /api/openapi.json",
    "local",
    () => "/api/openapi.json",
    () => visitor,
  ),
  get("GET /api/reviews/deals/:kind/:id", "party", () => `/api/reviews/deals/${sale.kind}/${sale.id}`),
  get("GET /api/reviews/deals/:kind/:id", "unknown kind", () => `/api/reviews/deals/gave/${sale.id}`),
  get("GET /api/reviews/conversations/:id", "party", () => `/api/reviews/conversations/${sale.conversationId}`),
  get(
    "GET /api/reviews/conversations/:id",
    "visitor",
    () => `/api/reviews/conversations/${sale.conversationId}`,
    () => visitor,
  ),
  get(
    "GET /api/users/:id",
    "visitor",
    () => `/api/users/${user.id}`,
    () => visitor,
  ),
  get(
    "GET /api/users/:id",
    "malformed",
    () => `/api/users/${MALFORMED}`,
    () => visitor,
  ),
  get(
    "GET /api/users/:id",
    "invalid query",
    () => `/api/users/${user.id}?offset=x`,
    () => visitor,
  ),
  get("GET /api/giveaways/mine", "signed in", () => "/api/giveaways/mine"),
  get(
    "GET /api/giveaways/mine",
    "visitor",
    () => "/api/giveaways/mine",
    () => visitor,
  ),
  get("GET /api/giveaways/mine/unseen", "signed in", () => "/api/giveaways/mine/unseen"),
  get(
    "GET /api/giveaways/listings/:listingId",
    "visitor",
    () => `/api/giveaways/listings/${freeListing.id}`,
    () => visitor,
  ),
  get(
    "GET /api/giveaways/listings/:listingId",
    "malformed",
    () => `/api/giveaways/listings/${MALFORMED}`,
    () => visitor,
  ),
  // Answers that are no-store only when they succeed: a session, the data export.
  {
    route: "POST /api/auth/signin",
    name: "wrong password",
    as: () => visitor,
    path: () => "/api/auth/signin",
    method: "POST",
    json: () => ({ email: user.email, password: "feil-passord-123" }),
  },
  {
    route: "POST /api/auth/signin",
    name: "signed in",
    as: () => new Client(),
    path: () => "/api/auth/signin",
    method: "POST",
    json: () => ({ email: user.email, password: PASSWORD }),
  },
  {
    route: "POST /api/me/export",
    name: "wrong password",
    as: () => client,
    path: () => "/api/me/export",
    method: "POST",
    json: () => ({ password: "feil-passord-123" }),
  },
  {
    route: "POST /api/me/export",
    name: "right password",
    as: () => client,
    path: () => "/api/me/export",
    method: "POST",
    json: () => ({ password: PASSWORD }),
  },
  // A router whose every answer is no-store: its validation refusals too.
  { route: "POST /api/reviews", name: "invalid body", as: () => client, path: () => "/api/reviews", method: "POST", json: () => ({}) },
  {
    route: "POST /api/dev/saved-searches/match",
    name: "local",
    as: () => visitor,
    path: () => "/api/dev/saved-searches/match",
    method: "POST",
    json: () => ({ listingIds: [freeListing.id] }),
  },
];
