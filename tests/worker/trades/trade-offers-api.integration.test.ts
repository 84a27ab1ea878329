// Trades over HTTP (docs/product.md "Trades", "States", "Validation", "Who may do what", "Server calls", "Error messages";
// docs/product.md "Trades"; decision 046): proposing, every transition and every forbidden actor,
// expiry, what the listings go through, the races fired concurrently, the history and the limits.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  TRADE_ACTIONS,
  TRADE_CHAT_TEXTS,
  TRADE_ERROR_TEXTS as T,
  type TradeAction,
  type TradeOfferStatus,
  type TradeOfferView,
} from "../../../domain/trades";
import type { Bindings } from "../../../worker/env";
import { deleteAccount } from "../../../worker/features/account/account";
import { tradeHistoryCompleted, tradeHistoryOffers } from "../../../worker/features/trades/views";
import { createListing, createTrade, createUser, signedInClient, type TradeFixture } from "../../factories";
import { Client, errorOf } from "../support/http";
import { countingD1 } from "../support/round-trips";
import { postWith, staleReads } from "../support/race";
import { ALLOWED_MOVES } from "../support/trade-moves";

const offerRow = (id: string) =>
  env.DB.prepare("SELECT status, message, conversation_id, from_user_id, to_user_id FROM trade_offers WHERE id = ?1").bind(id).first<{
    status: TradeOfferStatus;
    message: string | null;
    conversation_id: string;
    from_user_id: string;
    to_user_id: string;
  }>();
const listingStatus = async (id: string) =>
  (await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(id).first<{ status: string }>())?.status;
const tradesOf = async (offerId: string) =>
  (
    await env.DB.prepare(
      "SELECT status, user1_id, user2_id, user1_listing_id, user2_listing_id, completed_at, user1_confirmed_at, user2_confirmed_at FROM trades WHERE trade_offer_id = ?1",
    )
      .bind(offerId)
      .all<Record<string, string | null>>()
  ).results;
const systemMessages = async (conversationId: string) =>
  (
    await env.DB.prepare(
      "SELECT content FROM messages WHERE conversation_id = ?1 AND sender_id = '00000000-0000-0000-0000-000000000000' ORDER BY seq",
    )
      .bind(conversationId)
      .all<{ content: string }>()
  ).results.map((r) => r.content);

/** offerFor's read: every change starts with it, so holding it makes both requests act on the same state. */
const OFFER_READ = /FROM trade_offers o WHERE o\.id = \?1 AND/;

async function tradeListing(ownerId?: string) {
  return createListing({ userId: ownerId ?? (await createUser()).id, isTradeOffer: true });
}

describe("proposing a trade (POST /api/trade-offers)", () => {
  it("opens the conversation, stores a pending offer with the trimmed message, tells the recipient in the chat and by e-mail", async () => {
    const recipient = await createUser({ displayName: "Mia Mottaker", email: "mia-bytte@test.lekebytte.no" });
    const sender = await createUser({ displayName: "Sondre Sender" });
    const wanted = await createListing({ userId: recipient.id, isTradeOffer: true, title: "Duplo togbane" });
    const mine = await createListing({ userId: sender.id, title: "Brio bil" });
    const client = await signedInClient(sender.id);
    const res = await client.post("/api/trade-offers", {
      requested_listing_id: wanted.id,
      offered_listing_id: mine.id,
      message: "  Bytte?  ",
      status: "accepted",
      to_user_id: sender.id,
    });
    expect(res.status).toBe(201);
    const { id, conversation_id } = (await res.json()) as { id: string; conversation_id: string };
    expect(await offerRow(id)).toEqual({
      status: "pending",
      message: "Bytte?",
      conversation_id,
      from_user_id: sender.id,
      to_user_id: recipient.id,
    });
    const conv = await env.DB.prepare("SELECT listing_id, buyer_id, seller_id FROM conversations WHERE id = ?1")
      .bind(conversation_id)
      .first();
    expect(conv).toEqual({ listing_id: wanted.id, buyer_id: sender.id, seller_id: recipient.id });
    expect(await systemMessages(conversation_id)).toEqual([TRADE_CHAT_TEXTS.created("Brio bil", "Duplo togbane")]);
    const mail = await env.DB.prepare("SELECT subject, text_body FROM dev_outbox WHERE to_address = ?1")
      .bind("mia-bytte@test.lekebytte.no")
      .all<{ subject: string; text_body: string }>();
    expect(mail.results).toHaveLength(1);
    expect(mail.results[0].subject).toBe("Nytt bytteforslag på «Duplo togbane»");
    expect(mail.results[0].text_body).toContain(`/chat/${conversation_id}`);
    expect(mail.results[0].text_body).toContain("Sondre Sender vil bytte «Brio bil» mot «Duplo togbane»");
    // The recipient's chat shows the card.
    const cards = (await (
      await (await signedInClient(recipient.id)).get(`/api/trade-offers/conversation/${conversation_id}`)
    ).json()) as TradeOfferView[];
    expect(cards.map((c) => [c.id, c.status, c.offered_listing.title, c.requested_listing.title, c.other_user.display_name])).toEqual([
      [id, "pending", "Brio bil", "Duplo togbane", "Sondre Sender"],
    ]);
  });

  it("reuses the conversation the two already have, and stores an empty message as null", async () => {
    const wanted = await tradeListing();
    const sender = await createUser();
    const mine = await createListing({ userId: sender.id });
    const client = await signedInClient(sender.id);
    const started = (await (await client.post("/api/conversations", { listing_id: wanted.id })).json()) as { id: string };
    const res = await client.post("/api/trade-offers", { requested_listing_id: wanted.id, offered_listing_id: mine.id, message: "   " });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; conversation_id: string };
    expect(body.conversation_id).toBe(started.id);
    expect((await offerRow(body.id))?.message).toBeNull();
  });

  it("refuses what may not be offered, with a Norwegian message, and writes nothing", async () => {
    const sender = await createUser();
    const client = await signedInClient(sender.id);
    const mine = await createListing({ userId: sender.id });
    const open = await tradeListing();
    const own = await createListing({ userId: sender.id, isTradeOffer: true });
    const notForTrade = await createListing({ isTradeOffer: false });
    const sold = await createListing({ isTradeOffer: true, status: "sold" });
    const hidden = await createListing({ isTradeOffer: true, isHidden: true });
    const promised = await createTrade({ status: "accepted" });
    const myPromised = await createTrade({ status: "accepted", sender });
    const mySold = await createListing({ userId: sender.id, status: "sold" });
    const someoneElses = await createListing();
    const cases: { wanted: string; offered: string; status: number; message: string }[] = [
      { wanted: own.id, offered: mine.id, status: 403, message: T.ownListing },
      { wanted: notForTrade.id, offered: mine.id, status: 409, message: T.notOpenForTrade },
      { wanted: sold.id, offered: mine.id, status: 404, message: T.listingNotFound },
      { wanted: hidden.id, offered: mine.id, status: 404, message: T.listingNotFound },
      { wanted: crypto.randomUUID(), offered: mine.id, status: 404, message: T.listingNotFound },
      { wanted: promised.requested.id, offered: mine.id, status: 409, message: T.requestedPromised },
      { wanted: open.id, offered: myPromised.offered.id, status: 409, message: T.offeredPromised },
      { wanted: open.id, offered: mySold.id, status: 409, message: T.offeredUnavailable },
      { wanted: open.id, offered: someoneElses.id, status: 400, message: T.offeredNotOwn },
    ];
    for (const c of cases) {
      const res = await client.post("/api/trade-offers", { requested_listing_id: c.wanted, offered_listing_id: c.offered });
      expect({ wanted: c.wanted, status: res.status, message: (await errorOf(res)).message }).toEqual({
        wanted: c.wanted,
        status: c.status,
        message: c.message,
      });
    }
    const none = await env.DB.prepare(
      "SELECT (SELECT COUNT(*) FROM trade_offers WHERE from_user_id = ?1 AND status = 'pending') AS offers, (SELECT COUNT(*) FROM conversations WHERE buyer_id = ?1) AS conversations",
    )
      .bind(sender.id)
      .first();
    expect(none).toEqual({ offers: 0, conversations: 1 }); // the conversation of myPromised only
    const missing = await client.post("/api/trade-offers", { requested_listing_id: open.id });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).fields?.offered_listing_id).toBe("Velg hva du vil tilby i bytte");
    expect((await new Client().post("/api/trade-offers", { requested_listing_id: open.id, offered_listing_id: mine.id })).status).toBe(401);
  });

  it("refuses the same offer twice while it waits for an answer", async () => {
    const wanted = await tradeListing();
    const sender = await createUser();
    const mine = await createListing({ userId: sender.id });
    const client = await signedInClient(sender.id);
    const body = { requested_listing_id: wanted.id, offered_listing_id: mine.id };
    expect((await client.post("/api/trade-offers", body)).status).toBe(201);
    const again = await client.post("/api/trade-offers", body);
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe(T.duplicate);
  });

  it("rate limits new offers per user (20 an hour)", async () => {
    const sender = await createUser();
    const mine = await createListing({ userId: sender.id });
    const client = await signedInClient(sender.id);
    const owner = await createUser();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const wanted = await createListing({ userId: owner.id, isTradeOffer: true });
      statuses.push((await client.post("/api/trade-offers", { requested_listing_id: wanted.id, offered_listing_id: mine.id })).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe("the proposal page's data (GET /api/trade-offers/proposal/:listingId)", () => {
  it("shows the wanted listing and the user's own active listings, newest first", async () => {
    const wanted = await createListing({ userId: (await createUser({ displayName: "Eier" })).id, isTradeOffer: true, title: "Ønsket" });
    const user = await createUser();
    await createListing({ userId: user.id, title: "Eldre" });
    await createListing({ userId: user.id, title: "Nyere" });
    await createListing({ userId: user.id, title: "Solgt", status: "sold" });
    const res = await (await signedInClient(user.id)).get(`/api/trade-offers/proposal/${wanted.id}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { listing: { title: string; owner_name: string }; own_listings: { title: string }[] };
    expect(body.listing).toMatchObject({ title: "Ønsket", owner_name: "Eier" });
    expect(body.own_listings.map((l) => l.title)).toEqual(["Nyere", "Eldre"]);
  });

  it("answers 404 'Annonse ikke funnet' for a missing or inactive listing, 403 for one's own", async () => {
    const user = await createUser();
    const client = await signedInClient(user.id);
    for (const id of [
      crypto.randomUUID(),
      (await createListing({ isTradeOffer: true, status: "sold" })).id,
      (await createListing({ isTradeOffer: true, status: "reserved" })).id,
    ]) {
      const res = await client.get(`/api/trade-offers/proposal/${id}`);
      expect(res.status).toBe(404);
      expect((await errorOf(res)).message).toBe("Annonse ikke funnet");
    }
    const own = await client.get(`/api/trade-offers/proposal/${(await createListing({ userId: user.id, isTradeOffer: true })).id}`);
    expect(own.status).toBe(403);
    expect((await errorOf(own)).message).toBe("Du kan ikke foreslå bytte på din egen annonse");
    expect((await new Client().get(`/api/trade-offers/proposal/${crypto.randomUUID()}`)).status).toBe(401);
  });
});

describe("every transition and every forbidden actor", () => {
  type State = TradeOfferStatus | "expired";
  type Actor = "sender" | "recipient" | "third" | "visitor";
  const STATES: State[] = ["pending", "expired", "accepted", "rejected", "completed", "cancelled"];
  const ACTORS: Actor[] = ["sender", "recipient", "third", "visitor"];
  // One confirmation of two: the trade stays accepted until the other party confirms too.
  const ALLOWED: Record<string, TradeOfferStatus> = Object.fromEntries(
    Object.entries(ALLOWED_MOVES).map(([key, to]) => [key, key.endsWith("/confirm") ? "accepted" : to]),
  );
  function expectedStatus(state: State, actor: Actor, action: TradeAction): number {
    if (actor === "visitor") return 401;
    if (actor === "third") return 404;
    if (ALLOWED[`${state}/${actor}/${action}`]) return 200;
    if ((action === "accept" || action === "reject") && actor === "sender") return 403;
    if (action === "cancel" && actor === "recipient" && (state === "pending" || state === "expired")) return 403;
    return 409;
  }
  const CASES = STATES.flatMap((state) => ACTORS.flatMap((actor) => TRADE_ACTIONS.map((action) => ({ state, actor, action }))));

  it.each(CASES)("$state: $actor → $action", async ({ state, actor, action }) => {
    const trade = await createTrade({ status: state === "expired" ? "pending" : state, expired: state === "expired" });
    const client = actor === "visitor" ? new Client() : await signedInClient(actor === "third" ? (await createUser()).id : trade[actor].id);
    const before = { offered: trade.offered.status, requested: trade.requested.status };
    const res = await client.post(`/api/trade-offers/${trade.offerId}/${action}`, {});
    const status = expectedStatus(state, actor, action);
    expect(res.status).toBe(status);
    const after = await offerRow(trade.offerId);
    if (status === 200) {
      const view = (await res.json()) as TradeOfferView;
      expect(view.status).toBe(ALLOWED[`${state}/${actor}/${action}`]);
      expect(after?.status).toBe(view.status);
    } else {
      expect((await errorOf(res)).message).toMatch(/\S/);
      expect(after?.status).toBe(state === "expired" ? "pending" : state);
      expect({ offered: await listingStatus(trade.offered.id), requested: await listingStatus(trade.requested.id) }).toEqual(before);
    }
  });

  it("explains the refusals in Norwegian", async () => {
    const expired = await createTrade({ expired: true });
    const res = await (await signedInClient(expired.recipient.id)).post(`/api/trade-offers/${expired.offerId}/accept`, {});
    expect((await errorOf(res)).message).toBe(T.expired);
    const pending = await createTrade();
    const bySender = await (await signedInClient(pending.sender.id)).post(`/api/trade-offers/${pending.offerId}/accept`, {});
    expect((await errorOf(bySender)).message).toBe(T.onlyRecipientAnswers);
    const withdrawByRecipient = await (await signedInClient(pending.recipient.id)).post(`/api/trade-offers/${pending.offerId}/cancel`, {});
    expect((await errorOf(withdrawByRecipient)).message).toBe(T.onlySenderWithdraws);
    const rejected = await createTrade({ status: "rejected" });
    const late = await (await signedInClient(rejected.recipient.id)).post(`/api/trade-offers/${rejected.offerId}/accept`, {});
    expect((await errorOf(late)).message).toBe(T.alreadyAnswered);
    const confirmPending = await (await signedInClient(pending.recipient.id)).post(`/api/trade-offers/${pending.offerId}/confirm`, {});
    expect((await errorOf(confirmPending)).message).toBe(T.notAccepted);
  });

  it("an offer, its card and its conversation's cards exist only for the two parties", async () => {
    const trade = await createTrade();
    const third = await signedInClient((await createUser()).id);
    expect((await third.get(`/api/trade-offers/${trade.offerId}`)).status).toBe(404);
    expect((await third.get(`/api/trade-offers/conversation/${trade.conversationId}`)).status).toBe(404);
    expect((await new Client().get(`/api/trade-offers/${trade.offerId}`)).status).toBe(401);
    const mine = (await (await (await signedInClient(trade.sender.id)).get(`/api/trade-offers/${trade.offerId}`)).json()) as TradeOfferView;
    expect(mine.other_user.display_name).toBe("Mats Mottaker");
    expect((await (await signedInClient(trade.recipient.id)).get(`/api/trade-offers/not-an-id`)).status).toBe(404);
  });
});

describe("what the listings go through", () => {
  it("accepting reserves both listings (off home and search), creates the trade and voids the other pending offers on either listing", async () => {
    const trade = await createTrade();
    // Rivals: someone else wants the same listing; the sender offered the same toy elsewhere; the
    // recipient's listing is offered for a third listing.
    const rivalForRequested = await createTrade({ recipient: trade.recipient, requested: trade.requested });
    const senderElsewhere = await createTrade({ sender: trade.sender, offered: trade.offered });
    const unrelated = await createTrade({ recipient: trade.recipient });
    const res = await (await signedInClient(trade.recipient.id)).post(`/api/trade-offers/${trade.offerId}/accept`, {});
    expect(res.status).toBe(200);
    const view = (await res.json()) as TradeOfferView;
    expect(view.status).toBe("accepted");
    expect(view.handover).toEqual({ confirmed_by_me: false, confirmed_by_other: false, completed_at: null });
    expect(await listingStatus(trade.offered.id)).toBe("reserved");
    expect(await listingStatus(trade.requested.id)).toBe("reserved");
    expect(await tradesOf(trade.offerId)).toEqual([
      {
        status: "pending",
        user1_id: trade.sender.id,
        user2_id: trade.recipient.id,
        user1_listing_id: trade.offered.id,
        user2_listing_id: trade.requested.id,
        completed_at: null,
        user1_confirmed_at: null,
        user2_confirmed_at: null,
      },
    ]);
    expect((await offerRow(rivalForRequested.offerId))?.status).toBe("cancelled");
    expect((await offerRow(senderElsewhere.offerId))?.status).toBe("cancelled");
    expect((await offerRow(unrelated.offerId))?.status).toBe("pending");
    expect(await systemMessages(senderElsewhere.conversationId)).toEqual([TRADE_CHAT_TEXTS.superseded]);
    expect(await systemMessages(trade.conversationId)).toEqual([TRADE_CHAT_TEXTS.accepted]);
    const home = (await (await new Client().get("/api/home")).json()) as { newest: { id: string }[] };
    expect(home.newest.map((l) => l.id)).not.toContain(trade.requested.id);
    const search = (await (await new Client().get(`/api/search?q=${encodeURIComponent("Ønsket leke")}`)).json()) as {
      rows: { id: string }[];
    };
    expect(search.rows.map((r) => r.id)).not.toContain(trade.requested.id);
  });

  it("both parties confirming the handover completes the trade and marks both listings traded", async () => {
    const trade = await createTrade({ status: "accepted" });
    const sender = await signedInClient(trade.sender.id);
    const recipient = await signedInClient(trade.recipient.id);
    const first = (await (await sender.post(`/api/trade-offers/${trade.offerId}/confirm`, {})).json()) as TradeOfferView;
    expect(first.status).toBe("accepted");
    expect(first.handover).toMatchObject({ confirmed_by_me: true, confirmed_by_other: false });
    expect(await listingStatus(trade.offered.id)).toBe("reserved");
    // Confirming again changes nothing.
    expect((await sender.post(`/api/trade-offers/${trade.offerId}/confirm`, {})).status).toBe(200);
    const second = (await (await recipient.post(`/api/trade-offers/${trade.offerId}/confirm`, {})).json()) as TradeOfferView;
    expect(second.status).toBe("completed");
    expect(second.handover?.completed_at).toEqual(expect.any(String));
    expect(await listingStatus(trade.offered.id)).toBe("traded");
    expect(await listingStatus(trade.requested.id)).toBe("traded");
    const [tx] = await tradesOf(trade.offerId);
    expect(tx.status).toBe("completed");
    expect(tx.completed_at).toEqual(expect.any(String));
    expect(await systemMessages(trade.conversationId)).toEqual([TRADE_CHAT_TEXTS.completed]);
    // Cancelling after completion is refused.
    const late = await recipient.post(`/api/trade-offers/${trade.offerId}/cancel`, {});
    expect(late.status).toBe(409);
    expect((await errorOf(late)).message).toBe(T.alreadyCompleted);
  });

  it("cancelling an accepted trade (either party) returns both listings to active", async () => {
    for (const who of ["sender", "recipient"] as const) {
      const trade = await createTrade({ status: "accepted", confirmedBy: ["sender"] });
      const res = await (await signedInClient(trade[who].id)).post(`/api/trade-offers/${trade.offerId}/cancel`, {});
      expect(res.status).toBe(200);
      expect(await listingStatus(trade.offered.id)).toBe("active");
      expect(await listingStatus(trade.requested.id)).toBe("active");
      expect((await tradesOf(trade.offerId))[0].status).toBe("cancelled");
      expect(await systemMessages(trade.conversationId)).toEqual([TRADE_CHAT_TEXTS.cancelled]);
    }
  });

  it("an offer whose listing is no longer active cannot be accepted (409), and nothing is half-written", async () => {
    const trade = await createTrade();
    await env.DB.prepare("UPDATE listings SET status = 'sold' WHERE id = ?1").bind(trade.offered.id).run();
    const res = await (await signedInClient(trade.recipient.id)).post(`/api/trade-offers/${trade.offerId}/accept`, {});
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(T.listingsUnavailable);
    expect((await offerRow(trade.offerId))?.status).toBe("pending");
    expect(await listingStatus(trade.requested.id)).toBe("active");
    expect(await tradesOf(trade.offerId)).toEqual([]);
  });

  it("withdrawing and rejecting leave the listings active and tell the chat", async () => {
    const withdrawn = await createTrade();
    expect((await (await signedInClient(withdrawn.sender.id)).post(`/api/trade-offers/${withdrawn.offerId}/cancel`, {})).status).toBe(200);
    expect(await systemMessages(withdrawn.conversationId)).toEqual([TRADE_CHAT_TEXTS.withdrawn]);
    const rejected = await createTrade();
    expect((await (await signedInClient(rejected.recipient.id)).post(`/api/trade-offers/${rejected.offerId}/reject`, {})).status).toBe(200);
    expect(await systemMessages(rejected.conversationId)).toEqual([TRADE_CHAT_TEXTS.rejected]);
    for (const s of [withdrawn, rejected]) {
      expect(await listingStatus(s.offered.id)).toBe("active");
      expect(await listingStatus(s.requested.id)).toBe("active");
    }
  });
});

describe("races fired at the same moment: exactly one winner, the loser gets 409 and nothing half-written", () => {
  async function fire(requests: { trade: TradeFixture; who: "sender" | "recipient"; action: TradeAction }[]) {
    const race = staleReads(OFFER_READ, requests.length);
    const clients = await Promise.all(requests.map((r) => signedInClient(r.trade[r.who].id)));
    const responses = await Promise.all(
      requests.map((r, i) => postWith(race.env, clients[i], `/api/trade-offers/${r.trade.offerId}/${r.action}`)),
    );
    expect(race.arrived).toBe(requests.length);
    return responses;
  }

  /** Both recipients accept at once: one 200, one 409; the winner's trade first. */
  async function acceptBoth(first: TradeFixture, second: TradeFixture): Promise<[TradeFixture, TradeFixture]> {
    const responses = await fire([
      { trade: first, who: "recipient", action: "accept" },
      { trade: second, who: "recipient", action: "accept" },
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    return responses[0].status === 200 ? [first, second] : [second, first];
  }

  it("two accepts of one offer", async () => {
    const trade = await createTrade();
    const responses = await fire([
      { trade, who: "recipient", action: "accept" },
      { trade, who: "recipient", action: "accept" },
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await errorOf(responses.find((r) => r.status === 409)!)).message).toBe(T.alreadyAnswered);
    expect(await tradesOf(trade.offerId)).toHaveLength(1);
    expect(await systemMessages(trade.conversationId)).toEqual([TRADE_CHAT_TEXTS.accepted]);
  });

  it("accept against the sender's withdrawal", async () => {
    for (let round = 0; round < 3; round++) {
      const trade = await createTrade();
      const responses = await fire([
        { trade, who: "recipient", action: "accept" },
        { trade, who: "sender", action: "cancel" },
      ]);
      expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
      const status = (await offerRow(trade.offerId))?.status;
      const txs = await tradesOf(trade.offerId);
      const listings = [await listingStatus(trade.offered.id), await listingStatus(trade.requested.id)];
      if (status === "accepted") {
        expect(responses[0].status).toBe(200);
        expect(txs).toHaveLength(1);
        expect(listings).toEqual(["reserved", "reserved"]);
      } else {
        expect(status).toBe("cancelled");
        expect(responses[1].status).toBe(200);
        expect(txs).toEqual([]);
        expect(listings).toEqual(["active", "active"]);
      }
    }
  });

  it("accepting two offers for the same listing", async () => {
    const first = await createTrade();
    const second = await createTrade({ recipient: first.recipient, requested: first.requested });
    const [winner, loser] = await acceptBoth(first, second);
    expect((await offerRow(winner.offerId))?.status).toBe("accepted");
    expect((await offerRow(loser.offerId))?.status).toBe("cancelled");
    expect(await tradesOf(loser.offerId)).toEqual([]);
    expect(await tradesOf(winner.offerId)).toHaveLength(1);
    expect(await listingStatus(first.requested.id)).toBe("reserved");
    expect(await listingStatus(winner.offered.id)).toBe("reserved");
    expect(await listingStatus(loser.offered.id)).toBe("active");
  });

  it("two recipients accepting offers that promise the same toy of one sender", async () => {
    const first = await createTrade();
    const second = await createTrade({ sender: first.sender, offered: first.offered });
    const [winner, loser] = await acceptBoth(first, second);
    expect(await listingStatus(first.offered.id)).toBe("reserved");
    expect(await listingStatus(winner.requested.id)).toBe("reserved");
    expect(await listingStatus(loser.requested.id)).toBe("active");
    expect((await offerRow(loser.offerId))?.status).toBe("cancelled");
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM trades WHERE user1_listing_id = ?1")
      .bind(first.offered.id)
      .first<{ n: number }>();
    expect(n?.n).toBe(1);
  });

  it("two cancels of an accepted trade: one is told it is already cancelled, the chat hears it once", async () => {
    const trade = await createTrade({ status: "accepted" });
    const responses = await fire([
      { trade, who: "sender", action: "cancel" },
      { trade, who: "recipient", action: "cancel" },
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await errorOf(responses.find((r) => r.status === 409)!)).message).toBe(T.alreadyCancelled);
    expect(await systemMessages(trade.conversationId)).toEqual([TRADE_CHAT_TEXTS.cancelled]);
  });

  it("both parties confirming at once complete the trade exactly once", async () => {
    const trade = await createTrade({ status: "accepted" });
    const responses = await fire([
      { trade, who: "sender", action: "confirm" },
      { trade, who: "recipient", action: "confirm" },
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect((await offerRow(trade.offerId))?.status).toBe("completed");
    expect((await tradesOf(trade.offerId))[0].status).toBe("completed");
    expect(await listingStatus(trade.offered.id)).toBe("traded");
    expect(await systemMessages(trade.conversationId)).toEqual([TRADE_CHAT_TEXTS.completed]);
  });

  it("without a forced stale read: ten accepts at once still give one trade", async () => {
    const trade = await createTrade();
    const clients = await Promise.all(Array.from({ length: 10 }, () => signedInClient(trade.recipient.id)));
    const responses = await Promise.all(clients.map((c) => c.post(`/api/trade-offers/${trade.offerId}/accept`, {})));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(9);
    expect(await tradesOf(trade.offerId)).toHaveLength(1);
  });
});

describe("the trade history", () => {
  it("'Sendt', 'Mottatt' and 'Fullført' with their counts, for each party", async () => {
    const me = await createUser({ displayName: "Meg" });
    const sent = await createTrade({ sender: me });
    const received = await createTrade({ recipient: me, status: "rejected" });
    const completedAsSender = await createTrade({ sender: me, status: "completed" });
    const completedAsRecipient = await createTrade({ recipient: me, status: "completed" });
    await createTrade(); // someone else's
    const client = await signedInClient(me.id);
    const sentPage = (await (await client.get("/api/trade-offers/history/sent")).json()) as {
      counts: object;
      items: TradeOfferView[];
      has_more: boolean;
    };
    expect(sentPage.counts).toEqual({ sent: 2, received: 2, completed: 2 });
    expect(sentPage.items.map((o) => o.id)).toEqual([completedAsSender.offerId, sent.offerId]);
    expect(sentPage.items[1].other_user.display_name).toBe("Mats Mottaker");
    const receivedPage = (await (await client.get("/api/trade-offers/history/received")).json()) as { items: TradeOfferView[] };
    expect(receivedPage.items.map((o) => o.id)).toEqual([completedAsRecipient.offerId, received.offerId]);
    expect(receivedPage.items[1].other_user.display_name).toBe("Siri Sender");
    const done = (await (await client.get("/api/trade-offers/history/completed")).json()) as {
      items: {
        trade_offer_id: string;
        my_listing: { id: string };
        their_listing: { id: string };
        other_user: { display_name: string };
        completed_at: string;
      }[];
    };
    expect(done.items.map((s) => s.trade_offer_id).sort()).toEqual([completedAsSender.offerId, completedAsRecipient.offerId].sort());
    const asSender = done.items.find((s) => s.trade_offer_id === completedAsSender.offerId)!;
    expect(asSender.my_listing.id).toBe(completedAsSender.offered.id);
    expect(asSender.their_listing.id).toBe(completedAsSender.requested.id);
    expect(asSender.other_user.display_name).toBe("Mats Mottaker");
    const asRecipient = done.items.find((s) => s.trade_offer_id === completedAsRecipient.offerId)!;
    expect(asRecipient.my_listing.id).toBe(completedAsRecipient.requested.id);
    expect(asRecipient.other_user.display_name).toBe("Siri Sender");
    expect((await client.get("/api/trade-offers/history/other")).status).toBe(400);
    expect((await new Client().get("/api/trade-offers/history/sent")).status).toBe(401);
  });

  it("each tab is one round trip to D1 whatever the number of rows (no lookup per row)", async () => {
    const me = await createUser();
    for (let i = 0; i < 4; i++) await createTrade({ sender: me, status: i % 2 ? "completed" : "pending" });
    const counted = countingD1(env.DB);
    const db = counted.d1;
    const sent = await tradeHistoryOffers(db, me.id, "sent");
    expect(sent.items).toHaveLength(4);
    expect(counted.roundTrips()).toBe(1);
    const completed = await tradeHistoryCompleted(db, me.id);
    expect(completed.items).toHaveLength(2);
    expect(counted.roundTrips()).toBe(2);
  });
});

describe("the listings' owners and accounts", () => {
  it("a listing promised in an agreed trade cannot be marked sold or deleted until the trade ends", async () => {
    const trade = await createTrade({ status: "accepted" });
    const owner = await signedInClient(trade.recipient.id);
    for (const res of [
      await owner.post(`/api/listings/${trade.requested.id}/status`, { status: "sold" }),
      await owner.delete(`/api/listings/${trade.requested.id}`),
    ]) {
      expect(res.status).toBe(409);
      expect((await errorOf(res)).message).toBe(T.listingPromised);
    }
    expect(await listingStatus(trade.requested.id)).toBe("reserved");
    expect((await owner.post(`/api/trade-offers/${trade.offerId}/cancel`, {})).status).toBe(200);
    expect((await owner.post(`/api/listings/${trade.requested.id}/status`, { status: "sold" })).status).toBe(200);
  });

  it("deleting an account calls off its trades: the other party's listing is active again, pending offers are cancelled", async () => {
    const trade = await createTrade({ status: "accepted" });
    const pending = await createTrade({ sender: trade.sender });
    await deleteAccount(env as Bindings, trade.sender.id);
    expect((await offerRow(trade.offerId))?.status).toBe("cancelled");
    expect((await tradesOf(trade.offerId))[0].status).toBe("cancelled");
    expect(await listingStatus(trade.requested.id)).toBe("active");
    expect(await listingStatus(trade.offered.id)).toBe("deleted");
    expect((await offerRow(pending.offerId))?.status).toBe("cancelled");
    expect(await listingStatus(pending.requested.id)).toBe("active");
  });
});
