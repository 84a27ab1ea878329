// A sent order's parcel and its money at the same moment (decisions 105, 145): the carrier's
// DELIVERED, the buyer's "Meld fra om et problem", the cron's expiry and automatic release, a late
// HANDED_IN and the same event twice, each reading the order before any of them writes (a barrier in
// front of D1, tests/worker/support/race.ts). Exactly one outcome, and the money moved once: checked
// against what the payment sandbox itself recorded.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../worker/env";
import { runOrderCron } from "../../../worker/features/payments/orders";
import { runShipmentCron } from "../../../worker/features/shipping/shipment-cron";
import { applyTrackingEvent } from "../../../worker/features/shipping/shipments";
import { moneyFor } from "../support/orders";
import { postWith, staleReads } from "../support/race";
import { bringEvent, events, orderState, type SentOrder, sentOrder, shipment, TestCarrier } from "../support/shipments";

/** The order read every move starts with (worker/features/payments/order-rows.ts orderRow). */
const ORDER_READ = /FROM orders t\s+JOIN payments p ON p\.id = t\.payment_id\s+JOIN listings l/;
/** The "seen before?" read of a tracking event. */
const EVENT_SEEN = /SELECT 1 FROM shipment_events/;
const HOUR = 3_600_000;
const bindings = env as Bindings;

async function moved(order: Parameters<typeof moneyFor>[0]) {
  const m = await moneyFor(order);
  return { payouts: m.transfers.length, refunds: m.refunds.length };
}

const problem = { reason: "not_received", text: "Pakken har ikke kommet fram." };

/**
 * Both moves at once, started in the order named: which one's batch reaches D1 first after the
 * barrier follows it in practice, so each race runs both ways and each guard meets both winners.
 */
const ORDERS = ["first", "second"] as const;
/** The buyer's "Meld fra om et problem" and `other` at once, both reading the order before either writes. */
async function withBuyersProblem<T>(
  first: (typeof ORDERS)[number],
  order: SentOrder,
  other: (bindings: Bindings) => Promise<T>,
): Promise<{ other: T; report: Response }> {
  const race = staleReads(ORDER_READ, 2);
  const [result, report] = await together(
    first,
    () => other(race.env),
    () => postWith(race.env, order.buyerClient, `/api/payments/orders/${order.orderId}/problem`, problem),
  );
  expect(race.arrived).toBe(2);
  return { other: result, report };
}

async function together<A, B>(order: (typeof ORDERS)[number], a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  if (order === "first") return Promise.all([a(), b()]);
  const [y, x] = await Promise.all([b(), a()]);
  return [x, y];
}

describe("a parcel's moves at once", () => {
  it.each(ORDERS)(
    "DELIVERED (started %s) and the buyer's problem: one outcome; the release 48 hours later pays only if the problem lost",
    async (first) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const number = (await shipment(order.shipmentId)).shipment_number!;
      await applyTrackingEvent(bindings, bringEvent(number, "IN_TRANSIT"));

      const { other: delivered, report } = await withBuyersProblem(first, order, (b) =>
        applyTrackingEvent(b, bringEvent(number, "DELIVERED")),
      );
      // The parcel is delivered either way: the carrier said so.
      expect(delivered).toEqual({ outcome: "applied", to: "delivered" });
      expect((await shipment(order.shipmentId)).state).toBe("delivered");
      const outcome = (await orderState(order.orderId)).state;
      if (outcome === "problem") expect(report.status).toBe(200);
      else {
        expect(outcome).toBe("handed_over");
        expect(report.status).toBe(409);
      }

      await runOrderCron(bindings, new Date(Date.now() + 49 * HOUR));
      await runOrderCron(bindings, new Date(Date.now() + 50 * HOUR));
      expect(await moved(order)).toEqual(outcome === "problem" ? { payouts: 0, refunds: 0 } : { payouts: 1, refunds: 0 });
    },
  );

  it.each(ORDERS)(
    "DELIVERED (started %s) and the cron's expiry past the deadline: delivered and handed over, or cancelled and refunded",
    async (first) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const row = await shipment(order.shipmentId);
      const afterDeadline = new Date(Date.parse(row.drop_off_deadline) + HOUR);

      const race = staleReads(ORDER_READ, 2);
      const [delivered] = await together(
        first,
        () => applyTrackingEvent(race.env, bringEvent(row.shipment_number!, "DELIVERED")),
        () => runShipmentCron(race.env, afterDeadline, carrier),
      );
      expect(race.arrived).toBe(2);
      const parcel = (await shipment(order.shipmentId)).state;
      const money = (await orderState(order.orderId)).state;
      expect([parcel, money]).toEqual(parcel === "delivered" ? ["delivered", "handed_over"] : ["cancelled", "cancelled"]);
      expect(delivered).toEqual(parcel === "delivered" ? { outcome: "applied", to: "delivered" } : { outcome: "ignored", why: "stale" });

      await runOrderCron(bindings, new Date(afterDeadline.getTime() + 49 * HOUR));
      await runOrderCron(bindings, new Date(afterDeadline.getTime() + 50 * HOUR));
      expect(await moved(order)).toEqual(parcel === "delivered" ? { payouts: 1, refunds: 0 } : { payouts: 0, refunds: 1 });
    },
  );

  it("the same DELIVERED twice at once: recorded once, one handover, one payout", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier);
    const number = (await shipment(order.shipmentId)).shipment_number!;
    const event = bringEvent(number, "DELIVERED", `evt-twice-${order.orderId}`);

    const race = staleReads(EVENT_SEEN, 2);
    const outcomes = await Promise.all([applyTrackingEvent(race.env, event), applyTrackingEvent(race.env, event)]);
    expect(race.arrived).toBe(2);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(["already_seen", "applied"]);
    expect((await events(number)).filter((e) => e.event_id === event.eventId)).toEqual([
      { event_id: event.eventId, code: "DELIVERED", applied: "deliver" },
    ]);
    expect((await orderState(order.orderId)).state).toBe("handed_over");

    await runOrderCron(bindings, new Date(Date.now() + 49 * HOUR));
    await runOrderCron(bindings, new Date(Date.now() + 50 * HOUR));
    expect(await moved(order)).toEqual({ payouts: 1, refunds: 0 });
  });

  it.each(ORDERS)(
    "after DELIVERED: the automatic release (started %s) and the buyer's problem at the 48th hour → one outcome",
    async (first) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const notice = new Date();
      await applyTrackingEvent(bindings, bringEvent((await shipment(order.shipmentId)).shipment_number!, "DELIVERED"), notice);
      const due = new Date(notice.getTime() + 48 * HOUR + 1000);

      const { report } = await withBuyersProblem(first, order, (b) => runOrderCron(b, due));
      const outcome = (await orderState(order.orderId)).state;
      expect(["released", "problem"]).toContain(outcome);
      expect(report.status).toBe(outcome === "problem" ? 200 : 409);

      await runOrderCron(bindings, new Date(due.getTime() + HOUR));
      expect(await moved(order)).toEqual(outcome === "released" ? { payouts: 1, refunds: 0 } : { payouts: 0, refunds: 0 });
    },
  );

  it.each(ORDERS)(
    "a late HANDED_IN (started %s) and the cron's expiry: the parcel on its way and the money held, or cancelled and refunded",
    async (first) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const row = await shipment(order.shipmentId);
      const afterDeadline = new Date(Date.parse(row.drop_off_deadline) + HOUR);
      const handedIn = bringEvent(row.shipment_number!, "HANDED_IN", `evt-late-${order.orderId}`);

      const race = staleReads(ORDER_READ, 2);
      const [late] = await together(
        first,
        () => applyTrackingEvent(race.env, handedIn),
        () => runShipmentCron(race.env, afterDeadline, carrier),
      );
      expect(race.arrived).toBe(2);
      const parcel = (await shipment(order.shipmentId)).state;
      const money = (await orderState(order.orderId)).state;
      const recorded = (await events(row.shipment_number!)).filter((e) => e.event_id === handedIn.eventId);
      if (parcel === "dropped_off") {
        expect(money).toBe("held");
        expect(late).toEqual({ outcome: "applied", to: "dropped_off" });
        expect(recorded.map((e) => e.applied)).toEqual(["drop_off"]);
      } else {
        expect([parcel, money]).toEqual(["cancelled", "cancelled"]);
        // The late event is recorded as seen, having moved nothing.
        expect(late).toEqual({ outcome: "ignored", why: "stale" });
        expect(recorded.map((e) => e.applied)).toEqual([null]);
      }

      await runShipmentCron(bindings, new Date(afterDeadline.getTime() + HOUR), carrier);
      await runOrderCron(bindings, new Date(afterDeadline.getTime() + HOUR));
      expect(await moved(order)).toEqual(parcel === "dropped_off" ? { payouts: 0, refunds: 0 } : { payouts: 0, refunds: 1 });
      // A parcel handed in is never cancelled at the carrier.
      if (parcel === "dropped_off") expect(carrier.cancelCalls.filter((c) => c.number === row.shipment_number)).toEqual([]);
    },
  );

  it.each(ORDERS)(
    "the cron's expiry (started %s) and the buyer's problem: cancelled and refunded, or a case with the parcel still booked",
    async (first) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const row = await shipment(order.shipmentId);
      const afterDeadline = new Date(Date.parse(row.drop_off_deadline) + HOUR);

      const { report } = await withBuyersProblem(first, order, (b) => runShipmentCron(b, afterDeadline, carrier));
      const parcel = (await shipment(order.shipmentId)).state;
      const money = (await orderState(order.orderId)).state;
      // Both or neither: a parcel is cancelled only with its order's refund.
      expect([parcel, money]).toEqual(money === "problem" ? ["booked", "problem"] : ["cancelled", "cancelled"]);
      expect(report.status).toBe(money === "problem" ? 200 : 409);
      await runOrderCron(bindings, new Date(afterDeadline.getTime() + HOUR));
      expect(await moved(order)).toEqual(money === "problem" ? { payouts: 0, refunds: 0 } : { payouts: 0, refunds: 1 });
    },
  );

  it.each(ORDERS)(
    "HANDED_IN (started %s) and READY_FOR_PICKUP at once: the parcel ends ready for pickup, never moved back",
    async (first) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const number = (await shipment(order.shipmentId)).shipment_number!;

      const race = staleReads(ORDER_READ, 2);
      const outcomes = await together(
        first,
        () => applyTrackingEvent(race.env, bringEvent(number, "HANDED_IN")),
        () => applyTrackingEvent(race.env, bringEvent(number, "READY_FOR_PICKUP")),
      );
      expect(race.arrived).toBe(2);
      expect((await shipment(order.shipmentId)).state).toBe("ready_for_pickup");
      expect(outcomes[1]).toEqual({ outcome: "applied", to: "ready_for_pickup" });
      expect((await orderState(order.orderId)).state).toBe("held");
    },
  );
});
