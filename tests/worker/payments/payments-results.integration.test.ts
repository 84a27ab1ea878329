// The result pages' API: POST /api/payments/verify (/payment-success) and GET /api/payments/details
// (/betaling-fullfort) show a payment only to its buyer or seller; the purchases and sales lists.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { PaymentDetails } from "../../../domain/order-views";
import type { PaymentRecord, VerifyResponse } from "../../../domain/payments";
import { Client, errorOf } from "../support/http";
import {
  approveVipps,
  checkout,
  connectedSeller,
  deliver,
  oneDelivery,
  payableListing,
  payByCard,
  paymentRow,
  saleCounts,
  signedIn,
} from "../support/payments";

interface Paid {
  seller: Client;
  buyer: Client;
  paymentId: string;
  sessionId: string;
  listingId: string;
}

/** A completed card purchase (event delivered). */
async function completedPurchase(): Promise<Paid> {
  const sellerUser = await connectedSeller({ password: "hemmelig123", displayName: "Sara Selger" });
  const seller = new Client();
  expect((await seller.post("/api/auth/signin", { email: sellerUser.email, password: "hemmelig123" })).status).toBe(200);
  const listing = await payableListing(sellerUser.id, { price: 1250, title: "Lekekjøkken" });
  const { client } = await signedIn({ displayName: "Kari" });
  const { payment_id, url } = await checkout(client, listing.id, "card");
  expect((await payByCard(url)).status).toBe(303);
  const sessionId = (await paymentRow(payment_id))!.provider_ref;
  expect((await deliver(await oneDelivery(sessionId, "checkout.session.completed"))).status).toBe(200);
  return { seller, buyer: client, paymentId: payment_id, sessionId, listingId: listing.id };
}

describe("who sees a payment", () => {
  let paid: Paid;
  const others = {} as Record<"anonymous" | "other" | "moderator", Client>;

  beforeAll(async () => {
    paid = await completedPurchase();
    others.anonymous = new Client();
    others.other = (await signedIn()).client;
    others.moderator = (await signedIn({ role: "moderator" })).client;
  });

  const MATRIX = [
    ["anonymous", 401],
    ["other", 404],
    ["moderator", 404],
    ["buyer", 200],
    ["seller", 200],
  ] as const;

  it.each(MATRIX)("verify as %s → %i", async (who, status) => {
    const client = who === "buyer" ? paid.buyer : who === "seller" ? paid.seller : others[who];
    const res = await client.post("/api/payments/verify", { session_id: paid.sessionId, payment_id: paid.paymentId });
    expect(res.status).toBe(status);
    if (status === 404) expect((await errorOf(res)).message).toBe("Transaksjon ikke funnet");
    if (status === 200) {
      const body = (await res.json()) as VerifyResponse;
      expect(body).toMatchObject({
        status: "completed",
        amount_paid: 125000,
        currency: "NOK",
        session_id: paid.sessionId,
        listing_id: paid.listingId,
        role: who,
      });
      expect(body.order_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.conversation_id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it.each(MATRIX)("details as %s → %i", async (who, status) => {
    const client = who === "buyer" ? paid.buyer : who === "seller" ? paid.seller : others[who];
    const res = await client.get(`/api/payments/details?session_id=${encodeURIComponent(paid.sessionId)}`);
    expect(res.status).toBe(status);
    if (status === 200) {
      const body = (await res.json()) as PaymentDetails;
      expect(body).toMatchObject({
        amount: 125000,
        currency: "NOK",
        provider: "card",
        role: who,
        listing: { id: paid.listingId, title: "Lekekjøkken" },
        seller: { display_name: "Sara Selger" },
      });
    }
  });

  it("someone else's session id with my payment id is not found", async () => {
    const mine = await completedPurchase();
    const res = await mine.buyer.post("/api/payments/verify", { session_id: paid.sessionId, payment_id: mine.paymentId });
    expect(res.status).toBe(404);
    const theirs = await mine.buyer.get(`/api/payments/details?session_id=${encodeURIComponent(paid.sessionId)}`);
    expect(theirs.status).toBe(404);
  });

  it("a missing session or payment id is refused at once", async () => {
    const noSession = await paid.buyer.post("/api/payments/verify", { payment_id: paid.paymentId });
    expect(noSession.status).toBe(400);
    expect((await errorOf(noSession)).message).toBe("Ingen session ID funnet i URL");
    const noPayment = await paid.buyer.post("/api/payments/verify", { session_id: paid.sessionId });
    expect(noPayment.status).toBe(400);
    const details = await paid.buyer.get("/api/payments/details");
    expect(details.status).toBe(400);
    expect((await errorOf(details)).message).toBe("Ingen session ID funnet i URL");
  });
});

describe("verification asks the provider when the webhook has not arrived", () => {
  it("a paid card session is fulfilled by the buyer's verification, and the late webhook changes nothing", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id, { price: 99 });
    const { client } = await signedIn();
    const { payment_id, url } = await checkout(client, listing.id, "card");
    const success = await payByCard(url);
    const location = new URL(success.headers.get("Location")!);
    expect(location.pathname).toBe("/payment-success");
    expect(location.searchParams.get("payment_id")).toBe(payment_id);
    const sessionId = location.searchParams.get("session_id")!;

    const res = await client.post("/api/payments/verify", { session_id: sessionId, payment_id });
    expect(await res.json()).toMatchObject({ status: "completed", amount_paid: 9900 });
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 1, messages: 1, listing_status: "sold" });

    expect((await deliver(await oneDelivery(sessionId, "checkout.session.completed"))).status).toBe(200);
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 1, messages: 1, last_seq: 1, listing_status: "sold" });
  });

  it("a Vipps payment not yet approved is pending; one the buyer cancelled in Vipps is cancelled, not failed", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id);
    const { client } = await signedIn();
    const { payment_id, url } = await checkout(client, listing.id, "vipps");
    const ref = (await paymentRow(payment_id))!.provider_ref;
    const pending = await client.post("/api/payments/verify", { session_id: ref, payment_id });
    expect(await pending.json()).toMatchObject({ status: "pending", amount_paid: null, order_id: null });
    const back = await approveVipps(url, "cancel");
    expect(back.headers.get("Location")).toBe(`${env.APP_ORIGIN}/payment-success?session_id=${ref}&payment_id=${payment_id}`);
    const cancelled = await client.post("/api/payments/verify", { session_id: ref, payment_id });
    expect(await cancelled.json()).toMatchObject({ status: "cancelled", amount_paid: null, listing_id: listing.id });
    expect((await paymentRow(payment_id))!.status).toBe("cancelled");
  });

  it("details of a payment that is not complete: Transaksjon ikke funnet", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id);
    const { client } = await signedIn();
    const { payment_id } = await checkout(client, listing.id, "card");
    const res = await client.get(`/api/payments/details?session_id=${(await paymentRow(payment_id))!.provider_ref}`);
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toBe("Transaksjon ikke funnet");
  });
});

describe("details and lists", () => {
  it("shows 'Ukjent selger' data (no seller) when the seller's account is gone", async () => {
    const paid = await completedPurchase();
    const seller = await env.DB.prepare("SELECT seller_id FROM payments WHERE id = ?1").bind(paid.paymentId).first<{ seller_id: string }>();
    await env.DB.prepare("UPDATE users SET deleted_at = ?2 WHERE id = ?1").bind(seller!.seller_id, new Date().toISOString()).run();
    const res = await paid.buyer.get(`/api/payments/details?session_id=${encodeURIComponent(paid.sessionId)}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as PaymentDetails).seller).toBeNull();
  });

  it("lists the buyer's purchases and the seller's sales, and nobody else's", async () => {
    const paid = await completedPurchase();
    const purchases = (await (await paid.buyer.get("/api/payments/purchases")).json()) as PaymentRecord[];
    expect(purchases).toHaveLength(1);
    expect(purchases[0]).toMatchObject({
      session_id: paid.sessionId,
      amount: 125000,
      provider: "card",
      counterpart_name: "Sara Selger",
      listing: { title: "Lekekjøkken" },
      seller_payout: "stripe",
    });
    const sales = (await (await paid.seller.get("/api/payments/sales")).json()) as PaymentRecord[];
    expect(sales).toHaveLength(1);
    expect(sales[0]).toMatchObject({ session_id: paid.sessionId, counterpart_name: "Kari" });
    expect(await (await paid.buyer.get("/api/payments/sales")).json()).toEqual([]);
    expect(await (await paid.seller.get("/api/payments/purchases")).json()).toEqual([]);
    expect((await new Client().get("/api/payments/purchases")).status).toBe(401);
  });
});

describe("the hourly cron settles payments whose webhook never arrived", () => {
  it("a card payment paid an hour ago without a webhook is fulfilled; an abandoned Vipps payment is closed", async () => {
    const seller = await connectedSeller();
    const paidListing = await payableListing(seller.id);
    const abandonedListing = await payableListing(seller.id);
    const { client } = await signedIn();
    const paid = await checkout(client, paidListing.id, "card");
    expect((await payByCard(paid.url)).status).toBe(303);
    const abandoned = await checkout(client, abandonedListing.id, "vipps");
    expect((await approveVipps(abandoned.url, "cancel")).status).toBe(303);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
    await env.DB.prepare("UPDATE payments SET created_at = ?1 WHERE id IN (?2, ?3)")
      .bind(twoHoursAgo, paid.payment_id, abandoned.payment_id)
      .run();

    const { reconcilePendingPayments } = await import("../../../worker/features/payments/results");
    expect(await reconcilePendingPayments(env as never)).toBeGreaterThanOrEqual(2);
    expect((await paymentRow(paid.payment_id))!.status).toBe("completed");
    expect(await saleCounts(paidListing.id)).toMatchObject({ orders: 1, listing_status: "sold" });
    expect((await paymentRow(abandoned.payment_id))!.status).toBe("cancelled");
  });

  it("leaves recent pending payments to their webhooks", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id);
    const { client } = await signedIn();
    const recent = await checkout(client, listing.id, "card");
    expect((await payByCard(recent.url)).status).toBe(303);
    const { reconcilePendingPayments } = await import("../../../worker/features/payments/results");
    await reconcilePendingPayments(env as never);
    expect((await paymentRow(recent.payment_id))!.status).toBe("pending");
  });
});
