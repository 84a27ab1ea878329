// Checkout with "Sending" (decision 150): the shipping priced from the carriers' table beside the toy,
// the pickup point checked against the carrier's list, one payment holding both, the parcel created
// in the paid payment's batch and booked through the shipment-booking queue with the sandbox's Bring,
// the code to the seller only, the release paying the seller the toy's price less the fee, and the
// expiry refunding both. Through the API, the sandbox and the real webhooks.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SHIPPING_CHOICE_REFUSALS } from "../../../domain/carriers";
import type { OrderView } from "../../../domain/order-views";
import { platformFee } from "../../../domain/payments";
import { SHIPMENT_TEXTS } from "../../../domain/shipping";
import type { Bindings } from "../../../worker/env";
import { PICKUP_POINT_TEXTS } from "../../../worker/features/carriers/pickup-points";
import { platformFeeBasisPoints } from "../../../worker/features/payments/config";
import { CHECKOUT_SHIPPING_TEXTS } from "../../../worker/features/payments/checkout";
import { carrierPortFor } from "../../../worker/features/shipping/booking-queue";
import { runShipmentCron } from "../../../worker/features/shipping/shipment-cron";
import type { Client } from "../support/http";
import { chatTexts, moneyFor, orderView, payAndHold } from "../support/orders";
import { signedInClient } from "../../factories";
import { connectedSeller, deliver, deliveries, outboxTo, payableListing, paymentRow, signedIn } from "../support/payments";
import { orderState, runBookingQueue, shipment } from "../support/shipments";

const bindings = env as Bindings;
const RECIPIENT = { name: "Kari Kjøper", address_line: "Bryggen 2", postal_code: "5003", phone: "987 65 432" };

async function sendableListing(overrides: { canPickUp?: boolean; streetAddress?: string | null } = {}) {
  const seller = await connectedSeller({ displayName: "Siri Selger" });
  if (overrides.streetAddress !== null)
    await env.DB.prepare("UPDATE profiles SET street_address = ?2, postal_code = '0150' WHERE user_id = ?1")
      .bind(seller.id, overrides.streetAddress ?? "Storgata 1")
      .run();
  const listing = await payableListing(seller.id, {
    price: 300,
    title: "Brio togbane",
    canPickUp: overrides.canPickUp ?? true,
    canShip: true,
    parcelSize: "small",
  });
  return { seller, listing };
}

async function nearestPickupPoint(client: Client, postalCode = RECIPIENT.postal_code): Promise<{ id: string; name: string }> {
  const res = await client.get(`/api/shipping/pickup-points?carrier=bring&delivery=pickup_point&postal_code=${postalCode}`);
  expect(res.status, await res.clone().text()).toBe(200);
  const { pickup_points } = (await res.json()) as { pickup_points: Array<{ id: string; name: string; kind: string }> };
  expect(pickup_points.length).toBeGreaterThan(0);
  expect(pickup_points.every((p) => p.kind === "manned")).toBe(true);
  return pickup_points[0];
}

function shippingBody(listingId: string, shipping: Record<string, unknown> | null) {
  return { listing_id: listingId, method: "card", shipping };
}

async function paidSentOrder(streetAddress?: string | null) {
  const { seller, listing } = await sendableListing({ streetAddress });
  const { user: buyer, client: buyerClient } = await signedIn({ displayName: "Kari Kjøper" });
  const point = await nearestPickupPoint(buyerClient);
  const res = await buyerClient.post(
    "/api/payments/checkout",
    shippingBody(listing.id, { carrier: "bring", delivery: "pickup_point", pickup_point_id: point.id, recipient: RECIPIENT }),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  const held = await payAndHold((await res.json()) as { payment_id: string; url: string }, "card");
  const sellerClient = await signedInClient(seller.id);
  return { seller, sellerClient, buyer, buyerClient, listing, point, ...held };
}

describe("checkout with Sending", () => {
  it("prices the toy and the shipping from the table and writes the choice with the pending payment", async () => {
    const { listing } = await sendableListing();
    const { client } = await signedIn();
    const point = await nearestPickupPoint(client);
    const res = await client.post(
      "/api/payments/checkout",
      shippingBody(listing.id, { carrier: "bring", delivery: "pickup_point", pickup_point_id: point.id, recipient: RECIPIENT }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const { payment_id } = (await res.json()) as { payment_id: string };
    const payment = await paymentRow(payment_id);
    // 300 kr for the toy and Posten's 79 kr to a pickup point for a small parcel; the fee on the toy only.
    expect(payment).toMatchObject({ amount: 37_900, platform_fee: platformFee(30_000, platformFeeBasisPoints(bindings)) });
    const choice = await env.DB.prepare("SELECT * FROM payment_shipping WHERE payment_id = ?1").bind(payment_id).first();
    expect(choice).toMatchObject({
      carrier: "bring",
      method: "pickup_point",
      parcel_size: "small",
      shipping_price: 7_900,
      pickup_point_id: point.id,
      pickup_point_name: point.name,
      recipient_name: "Kari Kjøper",
      recipient_address_line: "Bryggen 2",
      recipient_postal_code: "5003",
      recipient_city: "BERGEN",
      recipient_phone: "98765432",
    });
  });

  it("a mailbox parcel needs no pickup point", async () => {
    const { listing } = await sendableListing();
    const { client } = await signedIn();
    const res = await client.post(
      "/api/payments/checkout",
      shippingBody(listing.id, { carrier: "bring", delivery: "mailbox", recipient: RECIPIENT }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await paymentRow(((await res.json()) as { payment_id: string }).payment_id))!.amount).toBe(30_000 + 7_900);
  });

  it.each([
    [
      "a listing only picked up, sent",
      { canShip: false, parcelSize: null },
      { carrier: "bring", delivery: "mailbox" },
      409,
      SHIPPING_CHOICE_REFUSALS.notShipped,
    ],
    ["a delivery the size does not take", {}, { carrier: "helthjem", delivery: "parcel_locker" }, 400, SHIPPING_CHOICE_REFUSALS.notOffered],
    ["a pickup point missing", {}, { carrier: "bring", delivery: "pickup_point" }, 400, CHECKOUT_SHIPPING_TEXTS.choosePickupPoint],
    [
      "a pickup point not near the buyer",
      {},
      { carrier: "bring", delivery: "pickup_point", pickup_point_id: "999999" },
      400,
      PICKUP_POINT_TEXTS.unknown,
    ],
    [
      "a postal code that does not exist",
      {},
      { carrier: "bring", delivery: "mailbox", recipient: { ...RECIPIENT, postal_code: "0000" } },
      400,
      CHECKOUT_SHIPPING_TEXTS.unknownPostalCode,
    ],
    [
      "a phone that is not a Norwegian mobile",
      {},
      { carrier: "bring", delivery: "mailbox", recipient: { ...RECIPIENT, phone: "2212 3456" } },
      400,
      "Skriv inn et norsk mobilnummer med 8 siffer",
    ],
  ] as const)("refuses %s with its message and writes nothing", async (_, listingOverrides, shipping, status, message) => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id, { canShip: true, parcelSize: "small", ...listingOverrides });
    const { client } = await signedIn();
    const res = await client.post("/api/payments/checkout", shippingBody(listing.id, { recipient: RECIPIENT, ...shipping }));
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(message);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE listing_id = ?1").bind(listing.id).first<{ n: number }>();
    expect(count!.n).toBe(0);
  });

  it("a listing that is only sent cannot be bought for Henting (409)", async () => {
    const { listing } = await sendableListing({ canPickUp: false });
    const { client } = await signedIn();
    const res = await client.post("/api/payments/checkout", { listing_id: listing.id, method: "card" });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(CHECKOUT_SHIPPING_TEXTS.shippingOnly);
  });
});

describe("a paid sent order", () => {
  it("has its parcel from the payment's batch, once, and the queue books it: the code is the seller's, in the chat and by mail", async () => {
    const order = await paidSentOrder();
    const parcel = await env.DB.prepare("SELECT * FROM shipments WHERE order_id = ?1").bind(order.orderId).all();
    expect(parcel.results).toHaveLength(1);
    expect(parcel.results[0]).toMatchObject({ state: "booking", shipping_price: 7_900, recipient_city: "BERGEN" });
    // The provider delivers its webhook again: still one parcel.
    const ref = (await paymentRow(order.paymentId))!.provider_ref;
    for (const d of await deliveries(ref)) expect((await deliver(d)).status).toBe(200);
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM shipments WHERE order_id = ?1").bind(order.orderId).first<{ n: number }>())!.n,
    ).toBe(1);

    expect(await runBookingQueue(order.orderId)).toBe("ack");
    const sellerView = await orderView(order.sellerClient, order.orderId);
    expect(sellerView.shipment).toMatchObject({
      state: "booked",
      carrier: "bring",
      delivery: "pickup_point",
      toy_price: 30_000,
      shipping_price: 7_900,
      pickup_point: { name: order.point.name },
      booking_error: null,
      can_retry: false,
    });
    const code = sellerView.shipment!.drop_off_code!;
    expect(code).toMatch(/^BRING-\d{4}-\d{4}$/);
    const buyerView = await orderView(order.buyerClient, order.orderId);
    expect(buyerView.shipment).toMatchObject({
      state: "booked",
      drop_off_code: null,
      shipment_number: sellerView.shipment!.shipment_number,
    });

    const sellerChat = await chatTexts(order.sellerClient, order.conversationId);
    expect(sellerChat.some((t) => t.includes(SHIPMENT_TEXTS.dropOffCode(code)) && t.includes("Lever pakken innen "))).toBe(true);
    const buyerChat = await chatTexts(order.buyerClient, order.conversationId);
    expect(buyerChat.some((t) => t.includes(code))).toBe(false);
    expect(buyerChat.some((t) => t.startsWith("Frakten er bestilt med Posten."))).toBe(true);
    const mails = await outboxTo(order.seller.email);
    expect(mails.find((m) => m.subject === "Sendekode for «Brio togbane»")?.text_body).toContain(code);
  });

  it("delivered and confirmed: the seller is paid the toy's price less the fee; the shipping stays for the carrier", async () => {
    const order = await paidSentOrder();
    await runBookingQueue(order.orderId);
    const number = (await orderView(order.sellerClient, order.orderId)).shipment!.shipment_number!;
    const advanced = await fetch(`${env.TEST_SANDBOX_URL}/__sandbox/bring/parcels/${number}/advance`, {
      method: "POST",
      body: JSON.stringify({ step: "delivered" }),
    });
    expect(advanced.status).toBe(200);
    for (const d of await deliveries(number)) expect((await deliver(d)).status).toBe(200);
    expect((await orderState(order.orderId)).state).toBe("handed_over");
    const buyerChat = await chatTexts(order.buyerClient, order.conversationId);
    for (const text of ["Pakken er levert inn.", "Pakken er på vei.", `Pakken er klar til henting hos ${order.point.name}.`])
      expect(buyerChat).toContain(text);

    const res = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/received`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as OrderView).state).toBe("released");
    const payment = (await paymentRow(order.paymentId))!;
    const money = await moneyFor({
      paymentId: order.paymentId,
      paymentIntent: payment.provider_payment_ref as string,
      ref: payment.provider_ref,
    });
    expect(money.transfers.map((t) => t.amount)).toEqual([30_000 - (payment.platform_fee as number)]);
    expect(money.refunds).toEqual([]);
  });

  it("not handed in by the deadline: cancelled, the toy and the shipping refunded, the listing for sale again", async () => {
    const order = await paidSentOrder();
    await runBookingQueue(order.orderId);
    const row = (await env.DB.prepare("SELECT id FROM shipments WHERE order_id = ?1").bind(order.orderId).first<{ id: string }>())!;
    const deadline = (await shipment(row.id)).drop_off_deadline;
    await runShipmentCron(bindings, new Date(Date.parse(deadline) + 60_000), carrierPortFor(bindings));
    expect((await shipment(row.id)).state).toBe("cancelled");
    expect((await orderState(order.orderId)).state).toBe("cancelled");
    const payment = (await paymentRow(order.paymentId))!;
    const money = await moneyFor({
      paymentId: order.paymentId,
      paymentIntent: payment.provider_payment_ref as string,
      ref: payment.provider_ref,
    });
    expect(money.refunds.map((r) => r.amount)).toEqual([37_900]);
    expect(money.transfers).toEqual([]);
    const listing = await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(order.listing.id).first<{ status: string }>();
    expect(listing!.status).toBe("active");
  });

  it("refused for a seller without a street address: told what to fix; «Prøv igjen» books with a key of its own once fixed", async () => {
    const order = await paidSentOrder(null);
    expect(await runBookingQueue(order.orderId)).toBe("ack");
    const failed = await orderView(order.sellerClient, order.orderId);
    expect(failed.shipment).toMatchObject({ state: "booking_failed", booking_error: SHIPMENT_TEXTS.bookingFailedSeller, can_retry: true });
    expect((await orderView(order.buyerClient, order.orderId)).shipment).toMatchObject({ booking_error: null, can_retry: true });
    const key = (await env.DB.prepare("SELECT idempotency_key FROM shipments WHERE order_id = ?1")
      .bind(order.orderId)
      .first<{ idempotency_key: string }>())!.idempotency_key;

    await env.DB.prepare("UPDATE profiles SET street_address = 'Storgata 1', postal_code = '0150' WHERE user_id = ?1")
      .bind(order.seller.id)
      .run();
    const res = await order.sellerClient.post(`/api/payments/orders/${order.orderId}/shipment/retry`);
    expect(res.status, await res.clone().text()).toBe(200);
    const retried = (await res.json()) as OrderView;
    expect(retried.shipment).toMatchObject({ state: "booked", can_retry: false });
    const after = (await env.DB.prepare("SELECT idempotency_key FROM shipments WHERE order_id = ?1")
      .bind(order.orderId)
      .first<{ idempotency_key: string }>())!;
    expect(after.idempotency_key).not.toBe(key);
    // Once booked, there is nothing to try again.
    expect((await order.sellerClient.post(`/api/payments/orders/${order.orderId}/shipment/retry`)).status).toBe(409);
  });

  it("«Prøv igjen» is the parties' only: anyone else gets 404", async () => {
    const order = await paidSentOrder(null);
    await runBookingQueue(order.orderId);
    const { client: stranger } = await signedIn();
    expect((await stranger.post(`/api/payments/orders/${order.orderId}/shipment/retry`)).status).toBe(404);
    expect((await stranger.post("/api/payments/orders/not-a-uuid/shipment/retry")).status).toBe(404);
  });
});
