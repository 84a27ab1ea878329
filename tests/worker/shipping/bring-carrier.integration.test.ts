// The Bring CarrierPort against the sandbox carrier (started by the global setup): a shipment booked
// through it gets the carrier's number and code, no answer keeps it bookable with the same key, a
// refusal and a missing address reach the seller, and a cancelled booking is cancelled at the carrier.
//
// Each failure set on the sandbox's switch is scoped to this test's idempotency key, so the other
// files that call the carrier at the same time cannot take it, and one left by a failed test is
// never taken (no later call has that key); the switch is never cleared here, which would clear
// other files' failures too.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../worker/env";
import { BringCarrier, profileParties } from "../../../worker/features/shipping/bring-carrier";
import { cancelKey } from "../../../worker/features/shipping/carrier-port";
import { CARRIER_REFUSALS } from "../../../worker/features/carriers/carrier-refusals";
import { bookShipment, cancelAtCarrier } from "../../../worker/features/shipping/shipments";
import { sandboxRequests } from "../support/payments";
import {
  bringOrder,
  FAST_RETRY,
  failNextBring,
  sandboxBring,
  sandboxBringClient,
  type SandboxParcel,
  sandboxParcel,
  shipment,
  TEST_PARTIES,
} from "../support/shipments";

const SANDBOX = env.TEST_SANDBOX_URL;
const FAST = FAST_RETRY;
const client = sandboxBringClient();
const PARTIES = TEST_PARTIES;
const carrier = sandboxBring();

describe("booking through Bring", () => {
  it("a shipment booked through it gets the sandbox's shipment number and drop-off code", async () => {
    const order = await bringOrder();
    const row = await bookShipment(env as Bindings, order.shipmentId, carrier);
    expect(row.state).toBe("booked");
    const parcel = await sandboxParcel(row.shipment_number!);
    expect(parcel).toBeDefined();
    expect(row.drop_off_code).toBe(parcel!.labelFreeCode);
    expect(row.drop_off_code).toMatch(/^BRING-\d{4}-\d{4}$/);
    expect(parcel!.correlationId).toBe(order.orderId);
    const sent = (await sandboxRequests("/booking/api/create")).filter((r) => r.idempotencyKey === row.idempotency_key);
    expect(sent).toHaveLength(1);
  });

  it("no answer: unavailable, the shipment stays bookable, and the next try with the same key books one parcel", async () => {
    const order = await bringOrder("vipps");
    const key = (await shipment(order.shipmentId)).idempotency_key;
    await failNextBring(FAST.attempts, 503, key);
    const failed = await bookShipment(env as Bindings, order.shipmentId, carrier);
    expect(failed).toMatchObject({ state: "booking", shipment_number: null, booking_attempts: 1 });
    expect(failed.last_booking_error).toContain("HTTP 503");

    const booked = await bookShipment(env as Bindings, order.shipmentId, carrier);
    expect(booked).toMatchObject({ state: "booked", booking_attempts: 2, last_booking_error: null });
    const sent = (await sandboxRequests("/booking/api/create")).filter((r) => r.idempotencyKey === key);
    expect(sent).toHaveLength(FAST.attempts + 1);
    const parcels = (await (await fetch(`${SANDBOX}/__sandbox/bring/parcels`)).json()) as SandboxParcel[];
    expect(parcels.filter((p) => p.correlationId === order.orderId)).toHaveLength(1);
  });

  it("a booking whose answer was lost is found again by the same key later, not booked twice", async () => {
    const order = await bringOrder();
    const row = await shipment(order.shipmentId);
    // The carrier booked, but its answer never reached us (a timeout after the carrier's commit).
    const lost = await carrier.book(
      {
        shipmentId: row.id,
        orderId: row.order_id,
        carrier: "bring",
        method: row.method,
        parcelSize: row.parcel_size,
        pickupPointId: row.pickup_point_id,
        createdAt: row.created_at,
      },
      row.idempotency_key,
    );
    if (lost.kind !== "booked") throw new Error(JSON.stringify(lost));
    // The cron's next try comes later (an hour; a second is enough to change a timestamp).
    await new Promise((r) => setTimeout(r, 1_100));
    const booked = await bookShipment(env as Bindings, order.shipmentId, carrier);
    expect(booked).toMatchObject({ state: "booked", shipment_number: lost.shipmentNumber, drop_off_code: lost.dropOffCode });
  });

  it("a refusal is the seller's to fix: booking_failed with the carrier's Norwegian message", async () => {
    const order = await bringOrder();
    const noPhone = new BringCarrier(client, async () => ({ ...PARTIES, recipient: { ...PARTIES.recipient, phoneNumber: "123" } }));
    const row = await bookShipment(env as Bindings, order.shipmentId, noPhone);
    expect(row).toMatchObject({ state: "booking_failed", shipment_number: null, last_booking_error: CARRIER_REFUSALS.recipient });
  });
});

describe("the parties from the accounts", () => {
  it("sends the seller's profile (street address, postal code, place, the phone Vipps vouched for) and the buyer's address from checkout", async () => {
    const order = await bringOrder();
    await env.DB.prepare("UPDATE users SET phone = ?2 WHERE id = ?1").bind(order.seller.id, "4791234567").run();
    await env.DB.prepare("UPDATE profiles SET street_address = 'Storgata 1', postal_code = '0150' WHERE user_id = ?1")
      .bind(order.seller.id)
      .run();
    const fromAccounts = new BringCarrier(client, profileParties(env.DB));
    const row = await bookShipment(env as Bindings, order.shipmentId, fromAccounts);
    expect(row.state).toBe("booked");
    const parcel = await sandboxParcel(row.shipment_number!);
    expect(parcel!.sender).toMatchObject({ name: "Siri Selger", addressLine: "Storgata 1", postalCode: "0150", city: "OSLO" });
    expect(parcel!.sender.contact?.phoneNumber).toBe("+4791234567");
    expect(parcel!.recipient).toMatchObject({ name: "Kari Kjøper", addressLine: "Bryggen 2", postalCode: "5003", city: "BERGEN" });
    expect(parcel!.recipient.contact?.phoneNumber).toBe("+4798765432");
  });

  it("without a street address the seller is told to fix the profile, and the carrier is not called", async () => {
    const order = await bringOrder();
    const key = (await shipment(order.shipmentId)).idempotency_key;
    const row = await bookShipment(env as Bindings, order.shipmentId, new BringCarrier(client, profileParties(env.DB)));
    expect(row).toMatchObject({ state: "booking_failed", last_booking_error: CARRIER_REFUSALS.sender });
    expect((await sandboxRequests("/booking/api/create")).filter((r) => r.idempotencyKey === key)).toHaveLength(0);
  });
});

describe("cancelling through Bring", () => {
  it("a cancelled parcel's booking is cancelled at the carrier with the cancellation key; no answer is retried", async () => {
    const order = await bringOrder();
    const booked = await bookShipment(env as Bindings, order.shipmentId, carrier);
    await env.DB.prepare("UPDATE shipments SET state = 'cancelled' WHERE id = ?1").bind(booked.id).run();
    const cancelled = await shipment(booked.id);
    await failNextBring(FAST.attempts, 500, cancelKey(booked.idempotency_key));
    expect(await cancelAtCarrier(env.DB, cancelled, carrier)).toBe(false);
    expect((await shipment(booked.id)).carrier_cancelled_at).toBeNull();
    expect((await sandboxParcel(booked.shipment_number!))!.status).toBe("booked");

    expect(await cancelAtCarrier(env.DB, cancelled, carrier)).toBe(true);
    expect((await shipment(booked.id)).carrier_cancelled_at).not.toBeNull();
    expect((await sandboxParcel(booked.shipment_number!))!.status).toBe("cancelled");
  });

  it("a number the carrier does not know has no booking left to cancel", async () => {
    expect(await carrier.cancel("bring", "70438101999999999", "cancel-unknown")).toEqual({ kind: "cancelled" });
  });
});
