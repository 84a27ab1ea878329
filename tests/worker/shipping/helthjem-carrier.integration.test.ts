// Helthjem through the same code path as Bring (decision 154): HelthjemCarrier behind the CarrierPort,
// the dispatching port that sends each parcel to its own carrier, and the cron's bookings and
// cancellations through the scheduled handler, where Helthjem's parcels wait while Helthjem is not
// configured, as Bring's do.
//
// Each failure set on the sandbox's switch is scoped to its call's idempotency key, so the other
// files that call the carrier at the same time cannot take it.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runScheduled } from "../../../worker/cron/scheduled";
import type { Bindings } from "../../../worker/env";
import { DEFAULT_RETRY } from "../../../worker/features/carriers/carrier-client";
import { CarrierDispatch, carrierPort } from "../../../worker/features/shipping/carrier-dispatch";
import { cancelKey } from "../../../worker/features/shipping/carrier-port";
import { carrierRefusals } from "../../../worker/features/carriers/carrier-refusals";
import { HelthjemCarrier } from "../../../worker/features/shipping/helthjem-carrier";
import { runShipmentCron } from "../../../worker/features/shipping/shipment-cron";
import { bookShipment, cancelAtCarrier } from "../../../worker/features/shipping/shipments";
import { sandboxRequests } from "../support/payments";
import {
  bringOrder,
  FAST_RETRY,
  failNextHelthjem,
  helthjemOrder,
  orderState,
  sandboxBring,
  sandboxHelthjem,
  sandboxHelthjemClient,
  sandboxHelthjemParcel,
  sandboxParcel,
  shipment,
  TEST_PARTIES,
} from "../support/shipments";

const HOUR = 3_600_000;
const bindings = env as Bindings;
const carrier = sandboxHelthjem();

describe("booking through Helthjem", () => {
  it("a shipment booked through it gets the sandbox's shipment number and drop-off code, to the chosen service point", async () => {
    const order = await helthjemOrder("pickup_point");
    const row = await bookShipment(bindings, order.shipmentId, carrier);
    expect(row.state).toBe("booked");
    expect(row.drop_off_code).toMatch(/^HH-\d{4}-\d{4}$/);
    const parcel = await sandboxHelthjemParcel(row.shipment_number!);
    expect(parcel).toMatchObject({ dropOffCode: row.drop_off_code, transportSolutionId: 86 });
    expect(parcel!.servicePoint!.servicePointExternalId).toBe(row.pickup_point_id);
    expect((await sandboxRequests("/parcels/v1/bookings")).filter((r) => r.idempotencyKey === row.idempotency_key)).toHaveLength(1);
  });

  it("no answer: the shipment stays bookable, and the next try with the same key books one parcel", async () => {
    const order = await helthjemOrder("mailbox", "vipps");
    const key = (await shipment(order.shipmentId)).idempotency_key;
    await failNextHelthjem(FAST_RETRY.attempts, 503, { key });
    const failed = await bookShipment(bindings, order.shipmentId, carrier);
    expect(failed).toMatchObject({ state: "booking", shipment_number: null, booking_attempts: 1 });
    expect(failed.last_booking_error).toContain("HTTP 503");

    const booked = await bookShipment(bindings, order.shipmentId, carrier);
    expect(booked).toMatchObject({ state: "booked", booking_attempts: 2, last_booking_error: null });
    expect((await sandboxRequests("/parcels/v1/bookings")).filter((r) => r.idempotencyKey === key)).toHaveLength(FAST_RETRY.attempts + 1);
  });

  it("a refusal is the seller's to fix: booking_failed with Helthjem's Norwegian message", async () => {
    const order = await helthjemOrder("mailbox");
    const noPhone = new HelthjemCarrier(sandboxHelthjemClient(), async () => ({
      ...TEST_PARTIES,
      recipient: { ...TEST_PARTIES.recipient, phoneNumber: "123" },
    }));
    const row = await bookShipment(bindings, order.shipmentId, noPhone);
    expect(row).toMatchObject({
      state: "booking_failed",
      shipment_number: null,
      last_booking_error: carrierRefusals("helthjem").recipient,
    });
  });

  it("a Bring parcel is not Helthjem's to book", async () => {
    const order = await bringOrder();
    const row = await bookShipment(bindings, order.shipmentId, carrier);
    expect(row).toMatchObject({ state: "booking_failed", shipment_number: null });
  });
});

describe("cancelling through Helthjem", () => {
  it("a cancelled parcel's booking is cancelled at Helthjem with the cancellation key; no answer is retried", async () => {
    const order = await helthjemOrder("mailbox");
    const booked = await bookShipment(bindings, order.shipmentId, carrier);
    // The cron's expiry, as shipment-cron.ts makes it (its own tests cover the move itself).
    await runShipmentCron(bindings, new Date(Date.parse(booked.drop_off_deadline) + HOUR), null);
    const cancelled = await shipment(booked.id);
    expect(cancelled.state).toBe("cancelled");
    await failNextHelthjem(FAST_RETRY.attempts, 500, { key: cancelKey(booked.idempotency_key) });
    expect(await cancelAtCarrier(env.DB, cancelled, carrier)).toBe(false);
    expect((await sandboxHelthjemParcel(booked.shipment_number!))!.status).toBe("booked");
    expect(await cancelAtCarrier(env.DB, cancelled, carrier)).toBe(true);
    expect((await shipment(booked.id)).carrier_cancelled_at).not.toBeNull();
    expect((await sandboxHelthjemParcel(booked.shipment_number!))!.status).toBe("cancelled");
  });

  it("a number Helthjem does not know has no booking left to cancel", async () => {
    expect(await carrier.cancel("helthjem", "70724760999999999", "cancel-unknown-helthjem")).toEqual({ kind: "cancelled" });
  });
});

describe("one port for both carriers", () => {
  it("books each parcel with its own carrier", async () => {
    const port = new CarrierDispatch({ bring: sandboxBring(), helthjem: carrier });
    const posten = await bookShipment(bindings, (await bringOrder()).shipmentId, port);
    const helthjem = await bookShipment(bindings, (await helthjemOrder("mailbox")).shipmentId, port);
    expect(posten.state).toBe("booked");
    expect(await sandboxParcel(posten.shipment_number!)).toBeDefined();
    expect(helthjem.state).toBe("booked");
    expect(await sandboxHelthjemParcel(helthjem.shipment_number!)).toBeDefined();
  });

  it("the Worker's configuration gives both carriers (the tests bind the sandbox's keys for each)", () => {
    expect(carrierPort(bindings)?.carriers).toEqual(["bring", "helthjem"]);
    expect(carrierPort({ ...bindings, HELTHJEM_CLIENT_ID: undefined } as Bindings)?.carriers).toEqual(["bring"]);
    // An unusable Helthjem setting leaves Helthjem out, not Bring.
    expect(carrierPort({ ...bindings, HELTHJEM_SHOP_ID: "butikk" } as Bindings)?.carriers).toEqual(["bring"]);
  });

  it("without Helthjem configured, a Helthjem parcel waits untouched while a Bring parcel is booked", async () => {
    const helthjem = await helthjemOrder("mailbox");
    const posten = await bringOrder();
    const onlyBring = new CarrierDispatch({ bring: sandboxBring() });
    const now = new Date(Date.parse((await shipment(helthjem.shipmentId)).drop_off_deadline) - HOUR);
    await runShipmentCron(bindings, now, onlyBring);
    expect(await shipment(helthjem.shipmentId)).toMatchObject({ state: "booking", booking_attempts: 0, last_booking_error: null });
    expect((await shipment(posten.shipmentId)).state).toBe("booked");
  });
});

describe("the scheduled handler's shipments step with Helthjem", () => {
  it("a Helthjem parcel past its deadline is cancelled at Helthjem, asked again next run when Helthjem did not answer", async () => {
    const order = await helthjemOrder("pickup_point");
    const booked = await bookShipment(bindings, order.shipmentId, carrier);
    const number = booked.shipment_number!;
    const key = cancelKey(booked.idempotency_key);
    const afterDeadline = Date.parse(booked.drop_off_deadline) + HOUR;

    await failNextHelthjem(DEFAULT_RETRY.attempts, 503, { key });
    await runScheduled(bindings, new Date(afterDeadline));
    expect(await shipment(order.shipmentId)).toMatchObject({ state: "cancelled", carrier_cancelled_at: null });
    expect((await orderState(order.orderId)).state).toBe("cancelled");
    expect((await sandboxHelthjemParcel(number))!.status).toBe("booked");

    await runScheduled(bindings, new Date(afterDeadline + HOUR));
    expect((await shipment(order.shipmentId)).carrier_cancelled_at).not.toBeNull();
    expect((await sandboxHelthjemParcel(number))!.status).toBe("cancelled");
    expect((await sandboxRequests("/parcels/v1/bookings/")).filter((r) => r.idempotencyKey === key)).toHaveLength(
      DEFAULT_RETRY.attempts + 1,
    );
  }, 60_000);
});
