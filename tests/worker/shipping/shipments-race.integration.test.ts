// A sent order's parcel and its money at the same moment (decisions 105, 145): the carrier's
// DELIVERED, the buyer's "Meld fra om et problem", the cron's expiry and automatic release, a late
// HANDED_IN and the same event twice. In each race the loser reads the order (and the parcel) before
// the winner writes and acts on that stale read only after the winner has finished, so only the
// conditional writes can keep the outcome right; every race is run with each side winning. Money is
// checked against what the payment sandbox itself recorded.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../worker/env";
import { runOrderCron } from "../../../worker/features/payments/orders";
import { runShipmentCron } from "../../../worker/features/shipping/shipment-cron";
import { applyTrackingEvent } from "../../../worker/features/shipping/shipments";
import { moneyFor, ORDER_READ } from "../support/orders";
import { loserReadsFirst, postWith, staleReads, type Winner, WINNERS } from "../support/race";
import { bringEvent, events, orderState, type SentOrder, sentOrder, shipment, TestCarrier } from "../support/shipments";

/** The "seen before?" read of a tracking event. */
const EVENT_SEEN = /SELECT 1 FROM shipment_events/;
const HOUR = 3_600_000;
const bindings = env as Bindings;

async function moved(order: Parameters<typeof moneyFor>[0]) {
  const m = await moneyFor(order);
  return { payouts: m.transfers.length, refunds: m.refunds.length };
}

const problem = { reason: "not_received", text: "Pakken har ikke kommet fram." };
const report = (order: SentOrder) => (b: Bindings) =>
  postWith(b, order.buyerClient, `/api/payments/orders/${order.orderId}/problem`, problem);

const race = <A, B>(winner: Winner, a: (b: Bindings) => Promise<A>, b: (b: Bindings) => Promise<B>) =>
  loserReadsFirst(ORDER_READ, winner, a, b);

describe("a parcel's moves at once", () => {
  it.each(WINNERS)(
    "DELIVERED (a) and the buyer's problem (b), %s winning: one outcome; the release pays only after a handover",
    async (winner) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const number = (await shipment(order.shipmentId)).shipment_number!;
      await applyTrackingEvent(bindings, bringEvent(number, "IN_TRANSIT"));

      const [delivered, reported] = await race(winner, (b) => applyTrackingEvent(b, bringEvent(number, "DELIVERED")), report(order));
      // The parcel is delivered either way: the carrier said so. The order follows only if still held.
      expect(delivered).toEqual({ outcome: "applied", to: "delivered" });
      expect((await shipment(order.shipmentId)).state).toBe("delivered");
      expect((await orderState(order.orderId)).state).toBe(winner === "a" ? "handed_over" : "problem");
      expect(reported.status).toBe(winner === "a" ? 409 : 200);

      await runOrderCron(bindings, new Date(Date.now() + 49 * HOUR));
      await runOrderCron(bindings, new Date(Date.now() + 50 * HOUR));
      expect(await moved(order)).toEqual(winner === "a" ? { payouts: 1, refunds: 0 } : { payouts: 0, refunds: 0 });
    },
  );

  it.each(WINNERS)("DELIVERED (a) and the cron's expiry past the deadline (b), %s winning: never both", async (winner) => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier);
    const row = await shipment(order.shipmentId);
    const afterDeadline = new Date(Date.parse(row.drop_off_deadline) + HOUR);

    const [delivered] = await race(
      winner,
      (b) => applyTrackingEvent(b, bringEvent(row.shipment_number!, "DELIVERED")),
      (b) => runShipmentCron(b, afterDeadline, carrier),
    );
    const parcel = (await shipment(order.shipmentId)).state;
    const money = (await orderState(order.orderId)).state;
    if (winner === "a") {
      expect([parcel, money]).toEqual(["delivered", "handed_over"]);
      expect(delivered).toEqual({ outcome: "applied", to: "delivered" });
    } else {
      expect([parcel, money]).toEqual(["cancelled", "cancelled"]);
      expect(delivered).toEqual({ outcome: "ignored", why: "stale" });
    }

    await runOrderCron(bindings, new Date(afterDeadline.getTime() + 49 * HOUR));
    await runOrderCron(bindings, new Date(afterDeadline.getTime() + 50 * HOUR));
    expect(await moved(order)).toEqual(winner === "a" ? { payouts: 1, refunds: 0 } : { payouts: 0, refunds: 1 });
  });

  it("the same DELIVERED twice at once: recorded once, one handover, one payout", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier);
    const number = (await shipment(order.shipmentId)).shipment_number!;
    const event = bringEvent(number, "DELIVERED", `evt-twice-${order.orderId}`);

    const barrier = staleReads(EVENT_SEEN, 2);
    const outcomes = await Promise.all([applyTrackingEvent(barrier.env, event), applyTrackingEvent(barrier.env, event)]);
    expect(barrier.arrived).toBe(2);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(["already_seen", "applied"]);
    expect((await events(number)).filter((e) => e.event_id === event.eventId)).toEqual([
      { event_id: event.eventId, code: "DELIVERED", applied: "deliver" },
    ]);
    expect((await orderState(order.orderId)).state).toBe("handed_over");

    await runOrderCron(bindings, new Date(Date.now() + 49 * HOUR));
    await runOrderCron(bindings, new Date(Date.now() + 50 * HOUR));
    expect(await moved(order)).toEqual({ payouts: 1, refunds: 0 });
  });

  it.each(WINNERS)(
    "after DELIVERED: the automatic release (a) and the buyer's problem (b), %s winning: money moved at most once",
    async (winner) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const notice = new Date();
      await applyTrackingEvent(bindings, bringEvent((await shipment(order.shipmentId)).shipment_number!, "DELIVERED"), notice);
      const due = new Date(notice.getTime() + 48 * HOUR + 1000);

      const [, reported] = await race(winner, (b) => runOrderCron(b, due), report(order));
      expect((await orderState(order.orderId)).state).toBe(winner === "a" ? "released" : "problem");
      expect(reported.status).toBe(winner === "a" ? 409 : 200);

      await runOrderCron(bindings, new Date(due.getTime() + HOUR));
      expect(await moved(order)).toEqual(winner === "a" ? { payouts: 1, refunds: 0 } : { payouts: 0, refunds: 0 });
    },
  );

  it.each(WINNERS)(
    "a late HANDED_IN (a) and the cron's expiry (b), %s winning: on its way and held, or cancelled and refunded",
    async (winner) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const row = await shipment(order.shipmentId);
      const afterDeadline = new Date(Date.parse(row.drop_off_deadline) + HOUR);
      const handedIn = bringEvent(row.shipment_number!, "HANDED_IN", `evt-late-${order.orderId}`);

      const [late] = await race(
        winner,
        (b) => applyTrackingEvent(b, handedIn),
        (b) => runShipmentCron(b, afterDeadline, carrier),
      );
      const parcel = (await shipment(order.shipmentId)).state;
      const money = (await orderState(order.orderId)).state;
      const recorded = (await events(row.shipment_number!)).filter((e) => e.event_id === handedIn.eventId);
      if (winner === "a") {
        expect([parcel, money]).toEqual(["dropped_off", "held"]);
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
      expect(await moved(order)).toEqual(winner === "a" ? { payouts: 0, refunds: 0 } : { payouts: 0, refunds: 1 });
      // A parcel handed in is never cancelled at the carrier.
      const cancels = carrier.cancelCalls.filter((c) => c.number === row.shipment_number);
      expect(cancels).toHaveLength(winner === "a" ? 0 : 1);
    },
  );

  it.each(WINNERS)(
    "the cron's expiry (a) and the buyer's problem (b), %s winning: a parcel is cancelled only with its refund",
    async (winner) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const row = await shipment(order.shipmentId);
      const afterDeadline = new Date(Date.parse(row.drop_off_deadline) + HOUR);

      const [, reported] = await race(winner, (b) => runShipmentCron(b, afterDeadline, carrier), report(order));
      const parcel = (await shipment(order.shipmentId)).state;
      const money = (await orderState(order.orderId)).state;
      expect([parcel, money]).toEqual(winner === "a" ? ["cancelled", "cancelled"] : ["booked", "problem"]);
      expect(reported.status).toBe(winner === "a" ? 409 : 200);
      await runOrderCron(bindings, new Date(afterDeadline.getTime() + HOUR));
      expect(await moved(order)).toEqual(winner === "a" ? { payouts: 0, refunds: 1 } : { payouts: 0, refunds: 0 });
    },
  );

  it.each(WINNERS)(
    "HANDED_IN (a) and READY_FOR_PICKUP (b), %s winning: the parcel ends ready for pickup, never moved back",
    async (winner) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const number = (await shipment(order.shipmentId)).shipment_number!;

      const [handedIn, ready] = await race(
        winner,
        (b) => applyTrackingEvent(b, bringEvent(number, "HANDED_IN")),
        (b) => applyTrackingEvent(b, bringEvent(number, "READY_FOR_PICKUP")),
      );
      expect((await shipment(order.shipmentId)).state).toBe("ready_for_pickup");
      expect(ready).toEqual({ outcome: "applied", to: "ready_for_pickup" });
      expect(handedIn).toEqual(winner === "a" ? { outcome: "applied", to: "dropped_off" } : { outcome: "ignored", why: "stale" });
      expect((await orderState(order.orderId)).state).toBe("held");
    },
  );

  it("the cron's lost-parcel check (a) and a silent event (b), b winning: a sign of life keeps the parcel from being lost", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier);
    const number = (await shipment(order.shipmentId)).shipment_number!;
    const handedIn = new Date();
    await applyTrackingEvent(bindings, bringEvent(number, "HANDED_IN"), handedIn);
    const checkAt = new Date(handedIn.getTime() + 10 * 24 * HOUR + HOUR);

    // The cron reads the parcel as silent; the carrier's NOTIFICATION_SENT arrives before it writes.
    const [, life] = await race(
      "b",
      (b) => runShipmentCron(b, checkAt, carrier),
      (b) => applyTrackingEvent(b, bringEvent(number, "NOTIFICATION_SENT"), new Date(checkAt.getTime() - HOUR)),
    );
    expect(life).toEqual({ outcome: "ignored", why: "silent" });
    expect((await shipment(order.shipmentId)).state).toBe("dropped_off");
    expect((await orderState(order.orderId)).state).toBe("held");
  });
});
