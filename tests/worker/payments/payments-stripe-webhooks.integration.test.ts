// Stripe webhooks are the source of truth: a correctly signed checkout.session.completed fulfils the
// purchase (order, sold listing, conversation with a system message, e-mail to the seller);
// wrongly signed or replayed payloads change nothing.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { SYSTEM_USER_ID } from "../../../domain/chat";
import { signedInClient } from "../../factories";
import { allowConsoleError } from "../support/console-guard";
import { errorOf, isNorwegianMessage } from "../support/http";
import { openChat } from "../support/live";
import {
  checkout,
  connectedSeller,
  deliver,
  oneDelivery,
  outboxTo,
  payableListing,
  payByCard,
  paymentRow,
  saleCounts,
  sandboxRequests,
  signedIn,
} from "../support/payments";

const stripe = new Stripe("sk_unused_in_tests", { httpClient: Stripe.createFetchHttpClient() });

/** A buyer has paid on the sandbox's Checkout page; the completed event is held, not yet delivered. */
async function paidCheckout(options: { price?: number; title?: string } = {}) {
  const seller = await connectedSeller({ displayName: "Siri Selger" });
  const listing = await payableListing(seller.id, { price: options.price ?? 250, title: options.title ?? "Brio togbane" });
  const buyer = await signedIn({ displayName: "Kari Kjøper" });
  const { payment_id, url } = await checkout(buyer.client, listing.id, "card");
  const paid = await payByCard(url);
  expect(paid.status).toBe(303);
  const sessionId = (await paymentRow(payment_id))!.provider_ref;
  const event = await oneDelivery(sessionId, "checkout.session.completed");
  return { seller, listing, buyer, paymentId: payment_id, sessionId, event };
}

describe("checkout.session.completed, correctly signed", () => {
  it("completes the payment, writes the order, marks the listing sold, posts the sale in the conversation and e-mails the seller", async () => {
    const { seller, listing, buyer, paymentId, sessionId, event } = await paidCheckout();
    expect(event.request.headers["Stripe-Signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    const res = await deliver(event);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, duplicate: false });

    const payment = await paymentRow(paymentId);
    expect(payment).toMatchObject({ status: "completed" });
    expect(payment!.provider_payment_ref).toMatch(/^pi_/);
    // The order with what its payment holds: what was bought, by and from whom, for how much.
    const tx = await env.DB.prepare(
      "SELECT o.*, p.listing_id, p.seller_id, p.buyer_id, p.amount, p.currency, p.provider_ref FROM orders o JOIN payments p ON p.id = o.payment_id WHERE o.payment_id = ?1",
    )
      .bind(paymentId)
      .first<Record<string, unknown>>();
    expect(tx).toMatchObject({
      listing_id: listing.id,
      seller_id: seller.id,
      buyer_id: buyer.user.id,
      amount: 25000,
      currency: "NOK",
      provider_ref: sessionId,
      seller_payout: "stripe",
      state: "held",
    });
    expect(tx!.seller_notified_at).toBeTruthy();

    const counts = await saleCounts(listing.id);
    expect(counts).toMatchObject({ orders: 1, completed: 1, messages: 1, last_seq: 1, listing_status: "sold" });
    const message = await env.DB.prepare(
      "SELECT m.* FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.listing_id = ?1 AND c.buyer_id = ?2 AND c.seller_id = ?3",
    )
      .bind(listing.id, buyer.user.id, seller.id)
      .first<{ id: string; seq: number; sender_id: string; content: string; conversation_id: string }>();
    expect(message).toMatchObject({ seq: 1, sender_id: "00000000-0000-0000-0000-000000000000" });
    expect(message!.content).toBe(
      "«Brio togbane» er solgt til Kari Kjøper for 250,00 kr (betalt med kort i Lekebytte). Betalingen er bekreftet. Avtal henting eller levering her i samtalen.",
    );
    expect(tx!.conversation_id).toBe(message!.conversation_id);

    const mails = await outboxTo(seller.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Du har solgt «Brio togbane»");
    expect(mails[0].text_body).toContain("Kari Kjøper har kjøpt «Brio togbane» for 250,00 kr");
    expect(mails[0].text_body).toContain(`/chat/${message!.conversation_id}`);
    // That mail is the seller's e-mail about the sale: the message schedules no unread-message mail
    // (decision 030) for either side, who have never opened the conversation.
    const room = env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(message!.conversation_id));
    const roomState = await runInDurableObject(room, async (_room, state) => ({
      presence: state.storage.kv.get("presence") ?? {},
      alarm: await state.storage.getAlarm(),
    }));
    expect(roomState).toEqual({ presence: {}, alarm: null });

    const recorded = await env.DB.prepare("SELECT provider, type FROM webhook_events WHERE id = ?1")
      .bind(`stripe:${JSON.parse(event.request.body).id}`)
      .first();
    expect(recorded).toEqual({ provider: "stripe", type: "checkout.session.completed" });
  });

  it("reuses the conversation buyer and seller already have, with the next seq", async () => {
    const { seller, listing, buyer, event } = await paidCheckout();
    const conversationId = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq) VALUES (?1, ?2, ?3, ?4, 2)").bind(
        conversationId,
        listing.id,
        buyer.user.id,
        seller.id,
      ),
      env.DB.prepare("INSERT INTO messages (id, conversation_id, sender_id, seq, content) VALUES (?1, ?2, ?3, 1, 'Er den ledig?')").bind(
        crypto.randomUUID(),
        conversationId,
        buyer.user.id,
      ),
      env.DB.prepare("INSERT INTO messages (id, conversation_id, sender_id, seq, content) VALUES (?1, ?2, ?3, 2, 'Ja!')").bind(
        crypto.randomUUID(),
        conversationId,
        seller.id,
      ),
    ]);
    expect((await deliver(event)).status).toBe(200);
    const conversations = await env.DB.prepare("SELECT id, last_seq FROM conversations WHERE listing_id = ?1").bind(listing.id).all();
    expect(conversations.results).toEqual([{ id: conversationId, last_seq: 3 }]);
    const sale = await env.DB.prepare("SELECT seq, sender_id FROM messages WHERE conversation_id = ?1 ORDER BY seq DESC LIMIT 1")
      .bind(conversationId)
      .first();
    expect(sale).toEqual({ seq: 3, sender_id: "00000000-0000-0000-0000-000000000000" });
  });

  it("shows the sale message live in the open chats of buyer and seller (through the conversation's room)", async () => {
    const { seller, listing, buyer, event } = await paidCheckout({ title: "Lego togstasjon" });
    const sellerClient = await signedInClient(seller.id);
    // The conversation they started before the sale ("Send melding"), open in both browsers.
    const started = await buyer.client.post("/api/conversations", { listing_id: listing.id });
    expect(started.status).toBe(201);
    const { id: conversationId } = (await started.json()) as { id: string };
    const [buyerChat, sellerChat] = await Promise.all([openChat(buyer.client, conversationId), openChat(sellerClient, conversationId)]);
    try {
      expect((await deliver(event)).status).toBe(200);
      const text =
        "«Lego togstasjon» er solgt til Kari Kjøper for 250,00 kr (betalt med kort i Lekebytte). Betalingen er bekreftet. Avtal henting eller levering her i samtalen.";
      for (const chat of [buyerChat, sellerChat]) {
        const frame = await chat.waitFor((f) => f.type === "message");
        expect(frame).toMatchObject({
          type: "message",
          message: { conversation_id: conversationId, seq: 1, sender_id: SYSTEM_USER_ID, content: text },
        });
      }
      expect(await saleCounts(listing.id)).toMatchObject({ messages: 1, last_seq: 1 });
    } finally {
      buyerChat.close();
      sellerChat.close();
    }
  });

  it("refunds instead of fulfilling when the paid amount differs from the price in D1", async () => {
    const { listing, paymentId, event } = await paidCheckout();
    const body = JSON.parse(event.request.body) as { id: string; data: { object: { amount_total: number } } };
    body.id = `evt_tampered_${crypto.randomUUID()}`;
    body.data.object.amount_total = 100;
    const payload = JSON.stringify(body);
    // Signed with the real secret: only the amount is wrong.
    const signature = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: env.STRIPE_WEBHOOK_SECRET });
    allowConsoleError("Payment amount mismatch");
    const res = await deliver(event, { body: payload, headers: { "Stripe-Signature": signature } });
    expect(res.status).toBe(200);
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 0, completed: 0, messages: 0, listing_status: "active" });
    expect((await paymentRow(paymentId))!.status).toBe("refunded");
  });

  it("does not fulfil a session whose metadata names another payment", async () => {
    const { listing, paymentId, event } = await paidCheckout();
    const body = JSON.parse(event.request.body) as { id: string; data: { object: { metadata: Record<string, string> } } };
    body.id = `evt_other_${crypto.randomUUID()}`;
    body.data.object.metadata.payment_id = crypto.randomUUID();
    const payload = JSON.stringify(body);
    const signature = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: env.STRIPE_WEBHOOK_SECRET });
    const res = await deliver(event, { body: payload, headers: { "Stripe-Signature": signature } });
    expect(res.status).toBe(200);
    expect((await paymentRow(paymentId))!.status).toBe("pending");
    expect((await saleCounts(listing.id)).orders).toBe(0);
  });

  it("a later event for a completed payment never marks the listing sold again", async () => {
    const { listing, event } = await paidCheckout();
    expect((await deliver(event)).status).toBe(200);
    // The owner puts the sold listing back on sale; then Stripe sends another success event for the same session.
    await env.DB.prepare("UPDATE listings SET status = 'active' WHERE id = ?1").bind(listing.id).run();
    const body = JSON.parse(event.request.body) as { id: string; type: string };
    body.id = `evt_async_${crypto.randomUUID()}`;
    body.type = "checkout.session.async_payment_succeeded";
    const payload = JSON.stringify(body);
    const signature = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: env.STRIPE_WEBHOOK_SECRET });
    expect((await deliver(event, { body: payload, headers: { "Stripe-Signature": signature } })).status).toBe(200);
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 1, completed: 1, messages: 1, listing_status: "active" });
  });

  it("ignores (and records) a completed session it does not know", async () => {
    const payload = JSON.stringify({
      id: `evt_${crypto.randomUUID()}`,
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id: "cs_test_unknown",
          object: "checkout.session",
          payment_status: "paid",
          amount_total: 100,
          currency: "nok",
          metadata: {},
        },
      },
    });
    const signature = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: env.STRIPE_WEBHOOK_SECRET });
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM orders").first<{ n: number }>();
    const res = await deliver({
      eventType: "x",
      objectId: "x",
      request: {
        url: "http://localhost/api/payments/webhooks/stripe",
        headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
        body: payload,
      },
    });
    expect(res.status).toBe(200);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM orders").first<{ n: number }>()).toEqual(before);
  });
});

describe("wrongly signed payloads are refused and change nothing", () => {
  const CASES: Array<{ name: string; change: (body: string) => Promise<{ body?: string; headers?: Record<string, string | null> }> }> = [
    { name: "no Stripe-Signature header", change: async () => ({ headers: { "Stripe-Signature": null } }) },
    { name: "a garbage signature", change: async () => ({ headers: { "Stripe-Signature": "t=1,v1=abc" } }) },
    {
      name: "signed with another secret",
      change: async (body) => ({
        headers: {
          "Stripe-Signature": await stripe.webhooks.generateTestHeaderStringAsync({ payload: body, secret: "whsec_someone_else" }),
        },
      }),
    },
    {
      name: "a tampered body under the original signature",
      change: async (body) => ({ body: body.replace('"amount_total": 25000', '"amount_total": 100') }),
    },
    {
      name: "a correct signature that is too old (replay window)",
      change: async (body) => ({
        headers: {
          "Stripe-Signature": await stripe.webhooks.generateTestHeaderStringAsync({
            payload: body,
            secret: env.STRIPE_WEBHOOK_SECRET,
            timestamp: Math.floor(Date.now() / 1000) - 600,
          }),
        },
      }),
    },
    {
      name: "the signature of a different payload",
      change: async () => ({
        headers: {
          "Stripe-Signature": await stripe.webhooks.generateTestHeaderStringAsync({ payload: "{}", secret: env.STRIPE_WEBHOOK_SECRET }),
        },
      }),
    },
  ];

  it.each(CASES)("$name → 400", async ({ change }) => {
    const { listing, paymentId, event } = await paidCheckout();
    const before = await saleCounts(listing.id);
    const res = await deliver(event, await change(event.request.body));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe("INVALID_SIGNATURE");
    expect(await saleCounts(listing.id)).toEqual(before);
    expect((await paymentRow(paymentId))!.status).toBe("pending");
    const recorded = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_events WHERE id = ?1")
      .bind(`stripe:${JSON.parse(event.request.body).id}`)
      .first<{ n: number }>();
    expect(recorded!.n).toBe(0);
  });
});

describe("replays and duplicates", () => {
  it("a replayed event is recognised, changes nothing and sends no second e-mail", async () => {
    const { seller, listing, event } = await paidCheckout();
    expect(await (await deliver(event)).json()).toEqual({ received: true, duplicate: false });
    const after = await saleCounts(listing.id);
    const again = await deliver(event);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(await saleCounts(listing.id)).toEqual(after);
    expect(await outboxTo(seller.email)).toHaveLength(1);
  });

  it("the same event delivered twice at once is fulfilled once", async () => {
    const { seller, listing, event } = await paidCheckout();
    const results = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 1, completed: 1, messages: 1, last_seq: 1, listing_status: "sold" });
    expect(await outboxTo(seller.email)).toHaveLength(1);
  });

  it("a replay of a refunded buyer's event asks Stripe for nothing more", async () => {
    const first = await paidCheckout();
    // The listing is sold to someone else before this buyer's event arrives: this one is refunded.
    await env.DB.prepare("UPDATE listings SET status = 'sold' WHERE id = ?1").bind(first.listing.id).run();
    expect((await deliver(first.event)).status).toBe(200);
    expect((await paymentRow(first.paymentId))!.status).toBe("refunded");
    const refundsBefore = (await sandboxRequests("/v1/refunds")).length;
    expect(await (await deliver(first.event)).json()).toEqual({ received: true, duplicate: true });
    expect((await sandboxRequests("/v1/refunds")).length).toBe(refundsBefore);
  });
});

describe("other Stripe events", () => {
  it("checkout.session.expired closes the pending payment", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id);
    const { client } = await signedIn();
    const { payment_id } = await checkout(client, listing.id, "card");
    const sessionId = (await paymentRow(payment_id))!.provider_ref;
    const expire = await fetch(`${env.TEST_SANDBOX_URL}/v1/checkout/sessions/${sessionId}/expire`, {
      method: "POST",
      headers: { Authorization: `Bearer ${env.STRIPE_SECRET_KEY}` },
    });
    expect(expire.status).toBe(200);
    expect((await deliver(await oneDelivery(sessionId, "checkout.session.expired"))).status).toBe(200);
    expect((await paymentRow(payment_id))!.status).toBe("expired");
    expect((await saleCounts(listing.id)).listing_status).toBe("active");
  });

  it("refuses a body larger than any provider event (413) before reading it as an event", async () => {
    const payload = JSON.stringify({ id: `evt_${crypto.randomUUID()}`, padding: "x".repeat(300 * 1024) });
    const signature = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: env.STRIPE_WEBHOOK_SECRET });
    const res = await deliver({
      eventType: "x",
      objectId: "x",
      request: {
        url: "http://localhost/api/payments/webhooks/stripe",
        headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
        body: payload,
      },
    });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it.each([
    ["not JSON", "this is not json {"],
    ["JSON that is no event", '"hei"'],
    ["an object without id and type", "{}"],
  ])("a correctly signed body that is %s → 400 with a Norwegian message, nothing recorded", async (_, payload) => {
    const signature = await stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: env.STRIPE_WEBHOOK_SECRET });
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_events").first<{ n: number }>();
    const res = await deliver({
      eventType: "x",
      objectId: "x",
      request: {
        url: "http://localhost/api/payments/webhooks/stripe",
        headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
        body: payload,
      },
    });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe("VALIDATION");
    expect(isNorwegianMessage(error.message)).toBe(true);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_events").first<{ n: number }>()).toEqual(before);
  });

  it("answers 503 and records nothing when Stripe is not configured", async () => {
    const { listing, event } = await paidCheckout();
    const { app } = await import("../../../worker/app");
    const res = await app.request(
      event.request.url,
      { method: "POST", headers: event.request.headers, body: event.request.body },
      { ...env, STRIPE_SECRET_KEY: "" },
    );
    expect(res.status).toBe(503);
    expect((await saleCounts(listing.id)).orders).toBe(0);
  });
});
