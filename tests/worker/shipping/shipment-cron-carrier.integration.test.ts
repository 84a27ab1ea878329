// The cron's carrier calls through Bring (the sandbox carrier): the hourly scheduled handler gives the
// shipments step the Bring carrier when Bring is configured (the Worker tests configure the
// sandbox's), so a cancellation not yet acknowledged and a booking not yet answered are repeated
// with their keys, run after run, until the carrier answers.
//
// Each failure set on the sandbox's switch is scoped to its call's idempotency key, so the other
// files that call the carrier at the same time cannot take it, and one left by a failed test is
// never taken (no later call has that key); the switch is never cleared here, which would clear
// other files' failures too.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runScheduled } from "../../../worker/cron/scheduled";
import type { Bindings } from "../../../worker/env";
import { DEFAULT_RETRY } from "../../../worker/features/carriers/carrier-client";
import { cancelKey } from "../../../worker/features/shipping/carrier-port";
import { CARRIER_REFUSALS } from "../../../worker/features/carriers/carrier-refusals";
import { runShipmentCron } from "../../../worker/features/shipping/shipment-cron";
import { bookShipment } from "../../../worker/features/shipping/shipments";
import { sandboxRequests } from "../support/payments";
import { bringOrder, FAST_RETRY, failNextBring, orderState, sandboxBring, sandboxParcel, shipment } from "../support/shipments";

const HOUR = 3_600_000;
const bindings = env as Bindings;

describe("the scheduled handler's shipments step with Bring", () => {
  it("a parcel past its deadline is cancelled at the carrier, asked again next run when the carrier did not answer", async () => {
    const order = await bringOrder();
    const booked = await bookShipment(bindings, order.shipmentId, sandboxBring());
    expect(booked.state).toBe("booked");
    const number = booked.shipment_number!;
    const key = cancelKey(booked.idempotency_key);
    const afterDeadline = Date.parse(booked.drop_off_deadline) + HOUR;

    // Every attempt within the run's call fails: the parcel is cancelled here, not yet at the carrier.
    await failNextBring(DEFAULT_RETRY.attempts, 503, key);
    const first = await runScheduled(bindings, new Date(afterDeadline));
    expect(first.find((o) => o.step === "shipments")).toMatchObject({ ok: true });
    expect(await shipment(order.shipmentId)).toMatchObject({ state: "cancelled", carrier_cancelled_at: null });
    expect((await orderState(order.orderId)).state).toBe("cancelled");
    expect((await sandboxParcel(number))!.status).toBe("booked");

    await runScheduled(bindings, new Date(afterDeadline + HOUR));
    expect((await shipment(order.shipmentId)).carrier_cancelled_at).not.toBeNull();
    expect((await sandboxParcel(number))!.status).toBe("cancelled");
    const calls = (await sandboxRequests("/booking/api/consignments/")).filter((r) => r.idempotencyKey === key);
    expect(calls).toHaveLength(DEFAULT_RETRY.attempts + 1);

    // Acknowledged: a later run does not call again.
    await runScheduled(bindings, new Date(afterDeadline + 2 * HOUR));
    expect((await sandboxRequests("/booking/api/consignments/")).filter((r) => r.idempotencyKey === key)).toHaveLength(calls.length);
  }, 60_000);

  it("a booking for accounts without a street address is refused with the seller's message, the carrier not called", async () => {
    const order = await bringOrder("vipps");
    const { idempotency_key: key, drop_off_deadline } = await shipment(order.shipmentId);
    await runScheduled(bindings, new Date(Date.parse(drop_off_deadline) - HOUR));
    expect(await shipment(order.shipmentId)).toMatchObject({ state: "booking_failed", last_booking_error: CARRIER_REFUSALS.sender });
    expect((await sandboxRequests("/booking/api/create")).filter((r) => r.idempotencyKey === key)).toEqual([]);
  }, 60_000);
});

describe("the shipments step's bookings through Bring", () => {
  it("a booking the carrier did not answer is repeated with the same key, run after run, until booked once", async () => {
    const order = await bringOrder();
    const { idempotency_key: key } = await shipment(order.shipmentId);
    const now = new Date();
    await failNextBring(FAST_RETRY.attempts, 500, key);
    await runShipmentCron(bindings, now, sandboxBring());
    expect(await shipment(order.shipmentId)).toMatchObject({ state: "booking", booking_attempts: 1 });

    const result = await runShipmentCron(bindings, new Date(now.getTime() + HOUR), sandboxBring());
    expect(result.booked).toBe(1);
    const booked = await shipment(order.shipmentId);
    expect(booked).toMatchObject({ state: "booked", booking_attempts: 2 });
    expect((await sandboxParcel(booked.shipment_number!))!.labelFreeCode).toBe(booked.drop_off_code);
    expect((await sandboxRequests("/booking/api/create")).filter((r) => r.idempotencyKey === key)).toHaveLength(FAST_RETRY.attempts + 1);
  });
});
