// Trades over HTTP (docs/product.md "Trades", "States", "Validation", "Who may do what", "Server
// calls", "Error messages"; decision 046): the trade history ('Sendt', 'Mottatt', 'Fullført', one
// round trip to D1 per tab), a listing promised in an agreed trade, and deleting an account with
// trades.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TRADE_ERROR_TEXTS as T, type TradeOfferView } from "../../../domain/trades";
import type { Bindings } from "../../../worker/env";
import { deleteAccount } from "../../../worker/features/account/account";
import { tradeHistoryCompleted, tradeHistoryOffers } from "../../../worker/features/trades/views";
import { createTrade, createUser, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import { countingD1 } from "../support/round-trips";
import { listingStatus, offerRow, tradesOf } from "../support/trades";

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
