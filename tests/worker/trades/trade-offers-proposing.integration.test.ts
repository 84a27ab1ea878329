// Trades over HTTP (docs/product.md "Trades", "States", "Validation", "Who may do what", "Server
// calls", "Error messages"; decision 046): proposing a trade (the offer, its chat and its e-mail),
// what may not be offered, the limits, and the proposal page's data.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TRADE_CHAT_TEXTS, TRADE_ERROR_TEXTS as T, type TradeOfferView } from "../../../domain/trades";
import { createListing, createTrade, createUser, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import { offerRow, systemMessages, tradeListing } from "../support/trades";

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
