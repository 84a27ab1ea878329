// The builders the web tests answer fake requests with (tests/factories/api.ts) have the shapes the
// Worker really sends: the same keys at every level and the same JSON types wherever both sides have
// a value. A web test built on a shape the Worker never sends (an ISO `expires_at` where the Worker
// sends epoch seconds) fails here.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  chatMessageBody,
  conversationDetailBody,
  conversationSummaryBody,
  errorBody,
  homeBody,
  markReadBody,
  messagePageBody,
  startConversationBody,
  testNotificationBody,
  testNotificationsAvailableBody,
  unreadCountBody,
  completedTradesBody,
  createTradeOfferBody,
  tradeOfferBody,
  tradeOffersPageBody,
  giveawayMineBody,
  giveawayPlaceBody,
  giveawayQueueEntryBody,
  giveawayUnseenBody,
  giveawayViewBody,
  tradeProposalBody,
  listingCardBody,
  listingPageBody,
  ownListingBody,
  profileBody,
  savedSearchBadgeBody,
  savedSearchBody,
  searchBody,
  sessionBody,
  siteConfigBody,
  unsubscribeBody,
  dealReviewStateBody,
  publicProfileBody,
  reviewBody,
  driftReportBody,
} from "../factories/api";
import { signUnsubscribeToken } from "../../worker/features/saved-searches/unsubscribe-token";
import {
  addMessages,
  createCompletedTrade,
  createConversation,
  createListing,
  createReview,
  createTrade,
  createUser,
  signedInClient,
} from "../factories";
import { Client } from "./support/http";

const PASSWORD = "hemmelig-passord-1";

/** Where `actual` (from the Worker) and `built` (a builder) differ: missing/extra keys, other JSON types. */
function shapeDifferences(actual: unknown, built: unknown, path = "$"): string[] {
  const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  if (actual === null || built === null || actual === undefined || built === undefined) return [];
  if (kind(actual) !== kind(built))
    return [`${path}: the Worker sends ${kind(actual)} (${JSON.stringify(actual)}), the builder ${kind(built)} (${JSON.stringify(built)})`];
  if (Array.isArray(actual) && Array.isArray(built)) {
    if (actual.length === 0 || built.length === 0) return [];
    return shapeDifferences(actual[0], built[0], `${path}[0]`);
  }
  if (kind(actual) !== "object") return [];
  const a = actual as Record<string, unknown>;
  const b = built as Record<string, unknown>;
  const differences: string[] = [];
  for (const key of Object.keys(a)) if (!(key in b)) differences.push(`${path}.${key}: sent by the Worker, missing from the builder`);
  for (const key of Object.keys(b)) if (!(key in a)) differences.push(`${path}.${key}: in the builder, never sent by the Worker`);
  for (const key of Object.keys(a)) if (key in b) differences.push(...shapeDifferences(a[key], b[key], `${path}.${key}`));
  return differences;
}

async function signedIn() {
  const user = await createUser({ password: PASSWORD, displayName: "Kari" });
  const client = new Client();
  const res = await client.post("/api/auth/signin", { email: user.email, password: PASSWORD });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return { user, client };
}

async function jsonOf(res: Response): Promise<unknown> {
  expect(res.status, res.url).toBeLessThan(300);
  return res.json();
}

describe("tests/factories/api.ts builds what the Worker sends", () => {
  it("session", async () => {
    const { client } = await signedIn();
    const actual = await jsonOf(await client.get("/api/auth/session"));
    expect(shapeDifferences(actual, sessionBody())).toEqual([]);
    // Epoch seconds, about 15 minutes ahead, as the builder makes it.
    const { expires_at } = actual as { expires_at: number };
    expect(Math.abs(expires_at - sessionBody().expires_at)).toBeLessThan(60);
  });

  it("site config", async () => {
    const actual = await jsonOf(await new Client().get("/api/config"));
    expect(shapeDifferences(actual, siteConfigBody())).toEqual([]);
    expect(actual).toEqual(siteConfigBody());
  });

  it("home, search and a listing page", async () => {
    const seller = await createUser();
    const listing = await createListing({ userId: seller.id, title: "Duplo brannstasjon", images: [`${seller.id}/a.jpg`] });
    await createListing({ userId: seller.id, title: "Duplo politistasjon" });

    const home = (await jsonOf(await new Client().get("/api/home"))) as { newest: unknown[] };
    expect(home.newest.length).toBeGreaterThan(0);
    expect(
      shapeDifferences(home, homeBody({ newest: [listingCardBody()], free: [listingCardBody()], trade: [listingCardBody()] })),
    ).toEqual([]);

    const search = await jsonOf(await new Client().get("/api/search?q=duplo"));
    expect((search as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    expect(shapeDifferences(search, searchBody([listingCardBody()]))).toEqual([]);

    const page = (await jsonOf(await new Client().get(`/api/listings/${listing.id}`))) as { more_from_seller: unknown[] };
    expect(page.more_from_seller.length).toBeGreaterThan(0);
    expect(shapeDifferences(page, listingPageBody({ more_from_seller: [listingCardBody()] }))).toEqual([]);
  });

  it("profile and the owner's listing", async () => {
    const { user, client } = await signedIn();
    const listing = await createListing({ userId: user.id });
    expect(shapeDifferences(await jsonOf(await client.get("/api/me")), profileBody())).toEqual([]);
    expect(shapeDifferences(await jsonOf(await client.get(`/api/me/listings/${listing.id}`)), ownListingBody())).toEqual([]);
  });

  it("saved searches, their badge and the unsubscribe answer", async () => {
    const { user, client } = await signedIn();
    const saved = (await jsonOf(await client.post("/api/saved-searches", { name: "Duplo", query: "q=duplo" }))) as { id: string };
    expect(shapeDifferences(saved, savedSearchBody())).toEqual([]);
    expect(shapeDifferences(await jsonOf(await client.get("/api/saved-searches")), [savedSearchBody()])).toEqual([]);
    expect(shapeDifferences(await jsonOf(await client.get("/api/saved-searches/badge")), savedSearchBadgeBody())).toEqual([]);
    const token = await signUnsubscribeToken(env, saved.id, user.id);
    expect(
      shapeDifferences(await jsonOf(await new Client().post("/api/saved-searches/unsubscribe", { token })), unsubscribeBody()),
    ).toEqual([]);
  });

  it("conversations: start, inbox, header, messages, send, read, unread count, notification test", async () => {
    const conv = await createConversation({ listing: { images: [] } });
    await addMessages(conv.id, [{ from: conv.seller.id, content: "Hei!" }]);
    const buyer = await signedInClient(conv.buyer.id);

    const other = await createListing({ userId: conv.seller.id });
    const started = await buyer.post("/api/conversations", { listing_id: other.id });
    expect(started.status).toBe(201);
    expect(shapeDifferences(await started.json(), startConversationBody())).toEqual([]);

    const inbox = (await jsonOf(await buyer.get("/api/conversations"))) as unknown[];
    expect(inbox.length).toBe(1);
    expect(shapeDifferences(inbox, [conversationSummaryBody()])).toEqual([]);
    expect(shapeDifferences(await jsonOf(await buyer.get(`/api/conversations/${conv.id}`)), conversationDetailBody())).toEqual([]);
    const page = await jsonOf(await buyer.get(`/api/conversations/${conv.id}/messages`));
    expect(shapeDifferences(page, messagePageBody([chatMessageBody()]))).toEqual([]);
    expect(shapeDifferences(await jsonOf(await buyer.get("/api/conversations/unread-count")), unreadCountBody(1))).toEqual([]);
    expect(shapeDifferences(await jsonOf(await buyer.post(`/api/conversations/${conv.id}/read`, {})), markReadBody(1, 1))).toEqual([]);

    // Now read: read_at is a timestamp string (null values are not compared).
    const read = await jsonOf(await buyer.get(`/api/conversations/${conv.id}/messages`));
    expect(shapeDifferences(read, messagePageBody([chatMessageBody({ read_at: new Date().toISOString() })]))).toEqual([]);
    const sent = await jsonOf(
      await buyer.post(`/api/conversations/${conv.id}/messages`, { id: crypto.randomUUID(), content: "Er den ledig?" }),
    );
    expect(shapeDifferences(sent, chatMessageBody())).toEqual([]);

    expect(shapeDifferences(await jsonOf(await buyer.get("/api/test-notifications")), testNotificationsAvailableBody())).toEqual([]);
    const test = await buyer.post("/api/test-notifications", { content: "Test melding for notifikasjoner" });
    expect(test.status).toBe(201);
    expect(shapeDifferences(await test.json(), testNotificationBody())).toEqual([]);
  });

  it("trades: proposal, offer, cards, history", async () => {
    const trade = await createTrade({ status: "completed" });
    const open = await createTrade({ sender: trade.sender, status: "accepted", confirmedBy: ["recipient"] });
    const sender = await signedInClient(trade.sender.id);
    const wanted = await createListing({ isTradeOffer: true });
    const mine = await createListing({ userId: trade.sender.id });
    expect(shapeDifferences(await jsonOf(await sender.get(`/api/trade-offers/proposal/${wanted.id}`)), tradeProposalBody())).toEqual([]);
    const created = await sender.post("/api/trade-offers", { requested_listing_id: wanted.id, offered_listing_id: mine.id });
    expect(created.status).toBe(201);
    expect(shapeDifferences(await created.json(), createTradeOfferBody())).toEqual([]);
    const handover = { confirmed_by_me: false, confirmed_by_other: true, completed_at: null };
    expect(shapeDifferences(await jsonOf(await sender.get(`/api/trade-offers/${open.offerId}`)), tradeOfferBody({ handover }))).toEqual([]);
    expect(
      shapeDifferences(await jsonOf(await sender.get(`/api/trade-offers/conversation/${open.conversationId}`)), [
        tradeOfferBody({ handover }),
      ]),
    ).toEqual([]);
    expect(
      shapeDifferences(await jsonOf(await sender.get("/api/trade-offers/history/sent")), tradeOffersPageBody([tradeOfferBody()])),
    ).toEqual([]);
    expect(shapeDifferences(await jsonOf(await sender.get("/api/trade-offers/history/completed")), completedTradesBody([{}]))).toEqual([]);
  });

  it("give-away queue: the panel for giver and taker, my places, the notice count", async () => {
    const giver = await createUser();
    const listing = await createListing({ userId: giver.id, isFree: true, images: [] });
    const taker = await signedInClient((await createUser()).id);
    const giverClient = await signedInClient(giver.id);
    const joined = await taker.post(`/api/giveaways/listings/${listing.id}/queue`, { message: "Kan hente" });
    expect(shapeDifferences(await joined.json(), giveawayViewBody({ mine: giveawayMineBody() }))).toEqual([]);
    const reserved = await jsonOf(await giverClient.post(`/api/giveaways/listings/${listing.id}/reserve`, {}));
    expect(shapeDifferences(reserved, giveawayViewBody({ queue: [giveawayQueueEntryBody({ conversation_id: "c" })] }))).toEqual([]);
    expect(
      shapeDifferences(
        await jsonOf(await taker.get(`/api/giveaways/listings/${listing.id}`)),
        giveawayViewBody({ mine: giveawayMineBody({ position: null, conversation_id: "c" }) }),
      ),
    ).toEqual([]);
    expect(shapeDifferences(await jsonOf(await taker.get("/api/giveaways/mine")), [giveawayPlaceBody()])).toEqual([]);
    expect(shapeDifferences(await jsonOf(await taker.get("/api/giveaways/mine/unseen")), giveawayUnseenBody())).toEqual([]);
  });

  it("reviews: a deal's state, a conversation's deals, a new review, the public profile", async () => {
    const deal = await createCompletedTrade();
    const a = await signedInClient(deal.a.id);
    expect(shapeDifferences(await jsonOf(await a.get(`/api/reviews/deals/trade/${deal.id}`)), dealReviewStateBody())).toEqual([]);
    expect(
      shapeDifferences(await jsonOf(await a.get(`/api/reviews/conversations/${deal.conversationId}`)), [dealReviewStateBody()]),
    ).toEqual([]);
    const created = await a.post("/api/reviews", { deal_kind: "trade", deal_id: deal.id, rating: 5, text: "Fint" });
    expect(created.status).toBe(201);
    expect(shapeDifferences(await created.json(), reviewBody({ reviewer_role: "trader" }))).toEqual([]);
    await createReview(deal, deal.b, deal.a);
    await createListing({ userId: deal.b.id });
    expect(shapeDifferences(await jsonOf(await new Client().get(`/api/users/${deal.b.id}`)), publicProfileBody())).toEqual([]);
  });

  it("the operator's page", async () => {
    const admin = await signedInClient((await createUser({ role: "admin" })).id);
    await env.DB.prepare(
      "INSERT INTO cron_steps (step, last_run_at, last_ok, last_error, last_ms, failures_in_a_row) VALUES ('payments', ?1, 1, NULL, 40, 0) ON CONFLICT (step) DO NOTHING",
    )
      .bind(new Date().toISOString())
      .run();
    expect(shapeDifferences(await jsonOf(await admin.get("/api/admin/drift")), driftReportBody())).toEqual([]);
  });

  it("the error envelope", async () => {
    const res = await new Client().get("/api/me");
    expect(res.status).toBe(401);
    expect(shapeDifferences(await res.json(), errorBody("UNAUTHENTICATED", "Du er ikke logget inn"))).toEqual([]);
  });

  it("the comparison catches a wrong type and a missing key", () => {
    const iso = { ...sessionBody(), expires_at: new Date().toISOString() };
    expect(shapeDifferences(sessionBody(), iso)).toEqual([expect.stringContaining("$.expires_at: the Worker sends number")]);
    const { expires_at: _dropped, ...withoutExpiry } = sessionBody();
    expect(shapeDifferences(sessionBody(), withoutExpiry)).toEqual(["$.expires_at: sent by the Worker, missing from the builder"]);
  });
});
