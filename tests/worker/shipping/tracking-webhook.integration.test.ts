// The carriers' tracking webhooks, POST /api/shipping/webhooks/bring and …/helthjem (decisions 147,
// 154), each case run for both carriers: a signed event (Event Cast's for Bring, Helthjem's own
// shape) moves its parcel (and the order on DELIVERED) once; a tampered body, an old timestamp, the
// other carrier's secret and a body that is not the carrier's event are refused and move nothing; an
// event for a parcel we do not know is acknowledged. End to end: booked through the carrier, moved
// on in the sandbox, its held webhooks handed to the Worker as its dispatcher would send them.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Carrier } from "../../../domain/carriers";
import type { Bindings } from "../../../worker/env";
import type { CarrierPort } from "../../../worker/features/shipping/carrier-port";
import { CARRIER_SIGNATURE_HEADER, carrierSignature } from "../../../worker/features/carriers/carrier-signature";
import { bookShipment } from "../../../worker/features/shipping/shipments";
import { TRACKING_WEBHOOK_REFUSALS } from "../../../worker/features/shipping/tracking-webhook";
import { deliver, deliveries } from "../support/payments";
import {
  bringOrder,
  events,
  helthjemOrder,
  orderState,
  type SentOrder,
  sandboxBring,
  sandboxHelthjem,
  sentOrder,
  shipment,
  TestCarrier,
} from "../support/shipments";

let count = 0;
const eventId = () => `evt-hook-${Date.now()}-${++count}`;

interface CarrierCase {
  carrier: Carrier;
  secret: string;
  /** The other carrier's secret: never good here. */
  otherSecret: string;
  /** A body as the sandbox sends it for this carrier. */
  event(number: string, code: string, id?: string): string;
  /** Its codes for handed in, in transit and delivered. */
  codes: [string, string, string];
  /** A booked parcel of this carrier. */
  booked(): Promise<{ order: SentOrder; number: string }>;
  /** An order waiting for its booking, and the carrier that books it in the sandbox. */
  forSandbox(): Promise<{ order: SentOrder; port: CarrierPort }>;
  /** A number no parcel has, and a body of the other carrier's shape. */
  unknown: string;
  foreignBody: string;
}

const CASES: CarrierCase[] = [
  {
    carrier: "bring",
    secret: env.BRING_WEBHOOK_SECRET,
    otherSecret: env.HELTHJEM_WEBHOOK_SECRET,
    event: (consignmentNumber, status, id = eventId()) =>
      JSON.stringify({
        eventId: id,
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
      }),
    codes: ["HANDED_IN", "IN_TRANSIT", "DELIVERED"],
    booked: async () => {
      const order = await sentOrder("card", new TestCarrier());
      return { order, number: (await shipment(order.shipmentId)).shipment_number! };
    },
    forSandbox: async () => ({ order: await bringOrder(), port: sandboxBring() }),
    unknown: "70438101000000001",
    foreignBody: JSON.stringify({
      eventId: "e0",
      shipmentNumber: "70438101000000002",
      eventType: { apiKey: "DELIVERED" },
      eventTimeUtc: new Date().toISOString(),
    }),
  },
  {
    carrier: "helthjem",
    secret: env.HELTHJEM_WEBHOOK_SECRET,
    otherSecret: env.BRING_WEBHOOK_SECRET,
    event: (shipmentNumber, code, id = eventId()) =>
      JSON.stringify({
        eventId: id,
        shopId: Number(env.HELTHJEM_SHOP_ID),
        shipmentNumber,
        trackingNumber: `3${shipmentNumber}`,
        eventTimeUtc: new Date().toISOString(),
        eventType: { apiKey: code, description: code },
        locationContext: "BERGEN",
      }),
    codes: ["HANDED_IN", "TERMINAL_SCAN", "DELIVERED"],
    booked: async () => {
      const order = await helthjemOrder("mailbox");
      const row = await bookShipment(env as Bindings, order.shipmentId, sandboxHelthjem());
      expect(row.state).toBe("booked");
      return { order, number: row.shipment_number! };
    },
    forSandbox: async () => ({ order: await helthjemOrder("pickup_point"), port: sandboxHelthjem() }),
    unknown: "70724760000000001",
    foreignBody: JSON.stringify({
      eventId: "e0",
      consignmentNumber: "70724760000000002",
      status: "DELIVERED",
      dateIso: new Date().toISOString(),
    }),
  },
];

describe.each(CASES)("$carrier", (c) => {
  const path = `/api/shipping/webhooks/${c.carrier}`;

  async function post(body: string, signature: string | null, to = path): Promise<Response> {
    const headers = new Headers({ "Content-Type": "application/json" });
    if (signature !== null) headers.set(CARRIER_SIGNATURE_HEADER, signature);
    return exports.default.fetch(new Request(`http://localhost${to}`, { method: "POST", headers, body }));
  }

  async function signedPost(body: string): Promise<Response> {
    return post(body, await carrierSignature(body, c.secret));
  }

  async function refusals(): Promise<number> {
    const row = await env.DB.prepare("SELECT COALESCE(SUM(count), 0) AS n FROM webhook_refusals WHERE provider = ?1")
      .bind(c.carrier)
      .first<{ n: number }>();
    return row!.n;
  }

  describe("a signed event", () => {
    it("moves the parcel, and its order on DELIVERED", async () => {
      const { order, number } = await c.booked();
      const [handedIn, inTransit, delivered] = c.codes;
      const first = await signedPost(c.event(number, handedIn));
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ received: true, outcome: "applied", to: "dropped_off" });
      expect((await shipment(order.shipmentId)).state).toBe("dropped_off");
      expect(await (await signedPost(c.event(number, inTransit))).json()).toMatchObject({ outcome: "applied", to: "in_transit" });

      const last = await signedPost(c.event(number, delivered));
      expect(await last.json()).toEqual({ received: true, outcome: "applied", to: "delivered" });
      expect((await shipment(order.shipmentId)).state).toBe("delivered");
      expect((await orderState(order.orderId)).state).toBe("handed_over");
    });

    it("the same event twice moves once: the repeat is 200 and already seen", async () => {
      const { order, number } = await c.booked();
      const body = c.event(number, "HANDED_IN");
      expect(await (await signedPost(body)).json()).toMatchObject({ outcome: "applied" });
      const again = await signedPost(body);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ received: true, outcome: "already_seen" });
      expect((await events(number)).map((e) => e.code)).toEqual(["HANDED_IN"]);
      expect((await shipment(order.shipmentId)).state).toBe("dropped_off");
    });

    it("for a parcel we do not know is acknowledged and recorded, and moves nothing", async () => {
      const res = await signedPost(c.event(c.unknown, "DELIVERED"));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true, outcome: "ignored", why: "no_shipment" });
      expect(await events(c.unknown)).toHaveLength(1);
    });
  });

  describe("refused, nothing applied", () => {
    it.each([
      [
        "a tampered body",
        async (body: string) => ({ body: body.replace("HANDED_IN", "DELIVERED"), signature: await carrierSignature(body, c.secret) }),
      ],
      [
        "an old timestamp",
        async (body: string) => ({ body, signature: await carrierSignature(body, c.secret, Math.floor(Date.now() / 1000) - 10 * 60) }),
      ],
      ["a wrong secret", async (body: string) => ({ body, signature: await carrierSignature(body, `${c.secret}-not`) })],
      ["the other carrier's secret", async (body: string) => ({ body, signature: await carrierSignature(body, c.otherSecret) })],
      ["no signature", async (body: string) => ({ body, signature: null })],
    ])("%s: 401 with a JSON error", async (_, forge) => {
      const { order, number } = await c.booked();
      const before = await refusals();
      const { body, signature } = await forge(c.event(number, "HANDED_IN"));
      const res = await post(body, signature);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: "UNAUTHENTICATED", message: TRACKING_WEBHOOK_REFUSALS.signature } });
      expect((await shipment(order.shipmentId)).state).toBe("booked");
      expect(await events(number)).toEqual([]);
      expect(await refusals()).toBe(before + 1);
    });

    it.each([
      ["not JSON", "ikke json"],
      ["JSON without the event's fields", JSON.stringify({ eventId: "e1", status: "DELIVERED" })],
      ["the other carrier's event", c.foreignBody],
      ["a date that is not one", c.event("70000000000000002", "DELIVERED").replace(/"(dateIso|eventTimeUtc)":"[^"]+"/, '"$1":"i går"')],
    ])("a signed body that is not an event (%s): 400", async (_, body) => {
      const res = await signedPost(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: "VALIDATION", message: TRACKING_WEBHOOK_REFUSALS.notAnEvent } });
      expect(await events("70000000000000002")).toEqual([]);
    });
  });

  describe("end to end through the sandbox carrier", () => {
    it("booked through the carrier, moved to delivered in the sandbox: its webhooks, handed over in order, move the parcel and the order", async () => {
      const { order, port } = await c.forSandbox();
      const booked = await bookShipment(env as Bindings, order.shipmentId, port);
      expect(booked.state).toBe("booked");
      const number = booked.shipment_number!;

      const advanced = await fetch(`${env.TEST_SANDBOX_URL}/__sandbox/${c.carrier}/parcels/${number}/advance`, {
        method: "POST",
        body: JSON.stringify({ step: "delivered" }),
      });
      expect(advanced.status).toBe(200);
      const held = await deliveries(number);
      expect(held.map((d) => d.eventType)).toEqual(
        c.carrier === "bring"
          ? ["HANDED_IN", "IN_TRANSIT", "READY_FOR_PICKUP", "DELIVERED"]
          : ["HANDED_IN", "TERMINAL_SCAN", "READY_FOR_PICKUP", "DELIVERED"],
      );
      for (const d of held) {
        expect(new URL(d.request.url).pathname).toBe(path);
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
});

describe("each carrier's path", () => {
  it("a Helthjem event signed with Helthjem's secret is not taken at Bring's path", async () => {
    const { order, number } = await CASES[1].booked();
    const body = CASES[1].event(number, "HANDED_IN");
    const headers = {
      "Content-Type": "application/json",
      [CARRIER_SIGNATURE_HEADER]: await carrierSignature(body, env.HELTHJEM_WEBHOOK_SECRET),
    };
    const res = await exports.default.fetch(new Request("http://localhost/api/shipping/webhooks/bring", { method: "POST", headers, body }));
    expect(res.status).toBe(401);
    expect((await shipment(order.shipmentId)).state).toBe("booked");
  });
});
