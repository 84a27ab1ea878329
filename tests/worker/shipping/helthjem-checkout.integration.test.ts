// Checkout with Helthjem, end to end (decisions 150, 154): the buyer picks one of Helthjem's service
// points at checkout, pays the toy and Helthjem's price, the shipment-booking queue books the parcel
// with Helthjem (the sandbox), and Helthjem's signed tracking webhooks move it to delivered and the
// order to handed over. A Helthjem parcel waits, untouched, while only Bring is configured, and
// «Prøv igjen» then answers 503.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PickupPointsResponse } from "../../../domain/carriers";
import { SHIPMENT_TEXTS } from "../../../domain/shipping";
import { app } from "../../../worker/app";
import type { Bindings } from "../../../worker/env";
import { carrierPortFor } from "../../../worker/features/shipping/booking-queue";
import { CarrierDispatch } from "../../../worker/features/shipping/carrier-dispatch";
import { RETRY_TEXTS } from "../../../worker/features/shipping/retry";
import { signedInClient } from "../../factories";
import { errorOf } from "../support/http";
import { payAndHold } from "../support/orders";
import { connectedSeller, deliver, deliveries, payableListing, paymentRow, signedIn } from "../support/payments";
import { orderState, runBookingQueue, sandboxBring, sandboxHelthjem, sandboxHelthjemParcel, shipment } from "../support/shipments";

const bindings = env as Bindings;
const RECIPIENT = { name: "Kari Kjøper", address_line: "Bryggen 2", postal_code: "5003", phone: "987 65 432" };

/** A small toy paid with Helthjem to the nearest service point the checkout showed the buyer. */
async function paidWithHelthjem() {
  const seller = await connectedSeller({ displayName: "Siri Selger" });
  const listing = await payableListing(seller.id, { price: 300, title: "Brio togbane", canShip: true, parcelSize: "small" });
  const { client } = await signedIn({ displayName: "Kari Kjøper" });
  const points = await client.get(
    `/api/shipping/pickup-points?carrier=helthjem&delivery=pickup_point&postal_code=${RECIPIENT.postal_code}`,
  );
  expect(points.status).toBe(200);
  const [point] = ((await points.json()) as PickupPointsResponse).pickup_points;
  const res = await client.post("/api/payments/checkout", {
    listing_id: listing.id,
    method: "card",
    shipping: { carrier: "helthjem", delivery: "pickup_point", pickup_point_id: point.id, recipient: RECIPIENT },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const started = (await res.json()) as { payment_id: string; url: string };
  // 300 kr for the toy and Helthjem's 79 kr to a service point for a small parcel (decision 145).
  expect((await paymentRow(started.payment_id))!.amount).toBe(37_900);
  const order = await payAndHold(started, "card");
  const row = await env.DB.prepare("SELECT id FROM shipments WHERE order_id = ?1").bind(order.orderId).first<{ id: string }>();
  return { order, point, seller, shipmentId: row!.id };
}

describe("checkout with Helthjem", () => {
  it("booked with Helthjem by the queue, to the service point the buyer chose, and moved to delivered by Helthjem's webhooks", async () => {
    const { order, point, shipmentId } = await paidWithHelthjem();
    expect(await shipment(shipmentId)).toMatchObject({
      carrier: "helthjem",
      method: "pickup_point",
      pickup_point_id: point.id,
      state: "booking",
    });

    const both = new CarrierDispatch({ bring: sandboxBring(), helthjem: sandboxHelthjem() });
    expect(await runBookingQueue(order.orderId, both)).toBe("ack");
    const booked = await shipment(shipmentId);
    expect(booked.state).toBe("booked");
    expect(booked.drop_off_code).toMatch(/^HH-\d{4}-\d{4}$/);
    expect((await sandboxHelthjemParcel(booked.shipment_number!))!.servicePoint!.servicePointExternalId).toBe(point.id);

    const advanced = await fetch(`${env.TEST_SANDBOX_URL}/__sandbox/helthjem/parcels/${booked.shipment_number}/advance`, {
      method: "POST",
      body: JSON.stringify({ step: "delivered" }),
    });
    expect(advanced.status).toBe(200);
    for (const d of await deliveries(booked.shipment_number!)) expect((await deliver(d)).status, d.eventType).toBe(200);
    expect((await shipment(shipmentId)).state).toBe("delivered");
    expect((await orderState(order.orderId)).state).toBe("handed_over");
  });

  it("while only Bring is configured, the queue leaves a Helthjem parcel untouched for later", async () => {
    const { order, shipmentId } = await paidWithHelthjem();
    expect(await runBookingQueue(order.orderId, new CarrierDispatch({ bring: sandboxBring() }))).toBe("ack");
    expect(await shipment(shipmentId)).toMatchObject({ state: "booking", booking_attempts: 0, last_booking_error: null });
  });

  it("«Prøv igjen» on a Helthjem parcel while Helthjem is not configured: 503, the parcel as it was", async () => {
    const { order, seller, shipmentId } = await paidWithHelthjem();
    // The Worker's own port: the seller's profile has no street address, so Helthjem's refuses it.
    expect(await runBookingQueue(order.orderId, carrierPortFor(bindings)!)).toBe("ack");
    expect(await shipment(shipmentId)).toMatchObject({ state: "booking_failed", last_booking_error: SHIPMENT_TEXTS.bookingFailedSeller });

    const sellerClient = await signedInClient(seller.id);
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
    sellerClient.send = async (request) => app.fetch(request, { ...bindings, HELTHJEM_CLIENT_ID: undefined }, ctx);
    const res = await sellerClient.post(`/api/payments/orders/${order.orderId}/shipment/retry`);
    expect(res.status).toBe(503);
    expect((await errorOf(res)).message).toBe(RETRY_TEXTS.noCarrier);
    expect((await shipment(shipmentId)).state).toBe("booking_failed");
  });
});
