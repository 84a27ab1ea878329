// Trades over HTTP (docs/product.md "Trades", "States", "Validation", "Who may do what", "Server
// calls", "Error messages"; decision 046): every transition and every forbidden actor, expiry, and
// what the listings go through.
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
import { createTrade, createUser, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import { ALLOWED_MOVES } from "../support/trade-moves";
import { listingStatus, offerRow, systemMessages, tradesOf } from "../support/trades";

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
