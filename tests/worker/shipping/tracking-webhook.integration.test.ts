// The carrier's tracking webhook, POST /api/shipping/webhooks/bring (decision 147): a signed Event
// Cast event moves its parcel (and the order on DELIVERED) once; a tampered body, an old timestamp,
// a wrong secret and a body that is not an event are refused and move nothing; an event for a parcel
// we do not know is acknowledged. End to end: booked through the Bring carrier, moved on in the
// sandbox, its held webhooks handed to the Worker as its dispatcher would send them.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../worker/env";
import { CARRIER_SIGNATURE_HEADER, carrierSignature } from "../../../worker/features/carriers/carrier-signature";
import { bookShipment } from "../../../worker/features/shipping/shipments";
import { TRACKING_WEBHOOK_REFUSALS } from "../../../worker/features/shipping/tracking-webhook";
import { deliver, deliveries } from "../support/payments";
import { bringOrder, events, orderState, sandboxBring, sentOrder, shipment, TestCarrier } from "../support/shipments";

const PATH = "/api/shipping/webhooks/bring";
const SECRET = env.BRING_WEBHOOK_SECRET!;

let count = 0;
/** An Event Cast body as the sandbox sends it. */
function eventCast(consignmentNumber: string, status: string, eventId = `evt-hook-${Date.now()}-${++count}`): string {
  return JSON.stringify({
    eventId,
    trackingId: consignmentNumber,
    consignmentNumber,
    packageNumber: `${consignmentNumber}01`,
    customerNumber: env.BRING_CUSTOMER_NUMBER,
    eventGroup: status,
    status,
    description: status,
    dateIso: new Date().toISOString(),
    postalCode: "0150",
    city: "OSLO",
    countryCode: "NO",
  });
}

async function post(body: string, signature: string | null): Promise<Response> {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (signature !== null) headers.set(CARRIER_SIGNATURE_HEADER, signature);
  return exports.default.fetch(new Request(`http://localhost${PATH}`, { method: "POST", headers, body }));
}

async function signedPost(body: string): Promise<Response> {
  return post(body, await carrierSignature(body, SECRET));
}

async function bookedParcel() {
  const order = await sentOrder("card", new TestCarrier());
  return { order, number: (await shipment(order.shipmentId)).shipment_number! };
}

async function refusals(): Promise<number> {
  const row = await env.DB.prepare("SELECT COALESCE(SUM(count), 0) AS n FROM webhook_refusals WHERE provider = 'bring'").first<{
    n: number;
  }>();
  return row!.n;
}

describe("a signed event", () => {
  it("moves the parcel, and its order on DELIVERED", async () => {
    const { order, number } = await bookedParcel();
    const handedIn = await signedPost(eventCast(number, "HANDED_IN"));
    expect(handedIn.status).toBe(200);
    expect(await handedIn.json()).toEqual({ received: true, outcome: "applied", to: "dropped_off" });
    expect((await shipment(order.shipmentId)).state).toBe("dropped_off");

    const delivered = await signedPost(eventCast(number, "DELIVERED"));
    expect(await delivered.json()).toEqual({ received: true, outcome: "applied", to: "delivered" });
    expect((await shipment(order.shipmentId)).state).toBe("delivered");
    expect((await orderState(order.orderId)).state).toBe("handed_over");
  });

  it("the same event twice moves once: the repeat is 200 and already seen", async () => {
    const { order, number } = await bookedParcel();
    const body = eventCast(number, "HANDED_IN");
    expect(await (await signedPost(body)).json()).toMatchObject({ outcome: "applied" });
    const again = await signedPost(body);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, outcome: "already_seen" });
    expect((await events(number)).map((e) => e.code)).toEqual(["HANDED_IN"]);
    expect((await shipment(order.shipmentId)).state).toBe("dropped_off");
  });

  it("for a parcel we do not know is acknowledged and recorded, and moves nothing", async () => {
    const res = await signedPost(eventCast("70438101000000001", "DELIVERED"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: "ignored", why: "no_shipment" });
    expect(await events("70438101000000001")).toHaveLength(1);
  });
});

describe("refused, nothing applied", () => {
  it.each([
    [
      "a tampered body",
      async (body: string) => ({ body: body.replace("HANDED_IN", "DELIVERED"), signature: await carrierSignature(body, SECRET) }),
    ],
    [
      "an old timestamp",
      async (body: string) => ({ body, signature: await carrierSignature(body, SECRET, Math.floor(Date.now() / 1000) - 10 * 60) }),
    ],
    ["a wrong secret", async (body: string) => ({ body, signature: await carrierSignature(body, `${SECRET}-not`) })],
    ["no signature", async (body: string) => ({ body, signature: null })],
  ])("%s: 401 with a JSON error", async (_, forge) => {
    const { order, number } = await bookedParcel();
    const before = await refusals();
    const { body, signature } = await forge(eventCast(number, "HANDED_IN"));
    const res = await post(body, signature);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: "UNAUTHENTICATED", message: TRACKING_WEBHOOK_REFUSALS.signature } });
    expect((await shipment(order.shipmentId)).state).toBe("booked");
    expect(await events(number)).toEqual([]);
    expect(await refusals()).toBe(before + 1);
  });

  it.each([
    ["not JSON", "ikke json"],
    ["JSON without the event's fields", JSON.stringify({ consignmentNumber: "70438101000000002", status: "DELIVERED" })],
    [
      "a date that is not one",
      JSON.stringify({ eventId: "e1", consignmentNumber: "70438101000000002", status: "DELIVERED", dateIso: "i går" }),
    ],
  ])("a signed body that is not an event (%s): 400", async (_, body) => {
    const res = await signedPost(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: "VALIDATION", message: TRACKING_WEBHOOK_REFUSALS.notAnEvent } });
    expect(await events("70438101000000002")).toEqual([]);
  });
});

describe("end to end through the sandbox carrier", () => {
  it("booked through Bring, moved to delivered in the sandbox: its webhooks, handed over in order, move the parcel and the order", async () => {
    const order = await bringOrder();
    const booked = await bookShipment(env as Bindings, order.shipmentId, sandboxBring());
    expect(booked.state).toBe("booked");
    const number = booked.shipment_number!;

    const advanced = await fetch(`${env.TEST_SANDBOX_URL}/__sandbox/bring/parcels/${number}/advance`, {
      method: "POST",
      body: JSON.stringify({ step: "delivered" }),
    });
    expect(advanced.status).toBe(200);
    const held = await deliveries(number);
    expect(held.map((d) => d.eventType)).toEqual(["HANDED_IN", "IN_TRANSIT", "READY_FOR_PICKUP", "DELIVERED"]);
    for (const d of held) {
      expect(new URL(d.request.url).pathname).toBe(PATH);
      const res = await deliver(d);
      expect(res.status, d.eventType).toBe(200);
      expect(await res.json()).toMatchObject({ outcome: "applied" });
    }
    expect(await shipment(order.shipmentId)).toMatchObject({ state: "delivered" });
    expect((await orderState(order.orderId)).state).toBe("handed_over");
    // The dispatcher's retry of a delivery already applied changes nothing.
    expect(await (await deliver(held[3])).json()).toEqual({ received: true, outcome: "already_seen" });
  });
});
