// Trades over HTTP (docs/product.md "Trades", "States", "Validation", "Who may do what", "Server
// calls", "Error messages"; decision 046): the races fired concurrently: exactly one winner, the loser
// gets 409 and nothing is half-written.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TRADE_CHAT_TEXTS, TRADE_ERROR_TEXTS as T, type TradeAction } from "../../../domain/trades";
import { createTrade, signedInClient, type TradeFixture } from "../../factories";
import { errorOf } from "../support/http";
import { postWith, staleReads } from "../support/race";
import { listingStatus, OFFER_READ, offerRow, systemMessages, tradesOf } from "../support/trades";

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
