// A full refund another way than the parcel's expiry cancels a parcel not handed in yet (decision
// 153), in the refund's own batch: a moderator's refund against the carrier's HANDED_IN and against
// another moderator's release, and the seller's account deletion against HANDED_IN. The loser reads
// before the winner writes and acts on that stale read after the winner has finished; each race is
// run with each side winning. Money is checked against what the payment sandbox recorded, carrier
// cancellations against the carrier's calls.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../worker/env";
import { deleteAccount } from "../../../worker/features/account/account";
import { runShipmentCron } from "../../../worker/features/shipping/shipment-cron";
import { applyTrackingEvent } from "../../../worker/features/shipping/shipments";
import { createUser, signedInClient } from "../../factories";
import { moneyFor, ORDER_READ } from "../support/orders";
import { loserReadsFirst, postWith, WINNERS } from "../support/race";
import { bringEvent, events, orderState, type SentOrder, sentOrder, shipment, TestCarrier } from "../support/shipments";

const bindings = env as Bindings;
/** The account read a deletion starts with (worker/features/account/account.ts getProfile). */
const PROFILE_READ = /FROM users u LEFT JOIN profiles p ON p\.user_id = u\.id WHERE u\.id = \?1 AND u\.deleted_at IS NULL/;

/** A sent order with a case opened by its buyer, and a moderator's decision as a request with other bindings. */
async function caseOf(order: SentOrder) {
  const opened = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/problem`, {
    reason: "not_received",
    text: "Selgeren har ikke sendt pakken.",
  });
  expect(opened.status).toBe(200);
  const moderator = await signedInClient((await createUser({ role: "moderator" })).id);
  return (b: Bindings, action: "refund" | "release_by_moderator") =>
    postWith(b, moderator, `/api/moderation/payment-cases/${order.orderId}/decision`, { action });
}

async function carrierCancels(carrier: TestCarrier, number: string): Promise<number> {
  await runShipmentCron(bindings, new Date(), carrier);
  await runShipmentCron(bindings, new Date(), carrier);
  return carrier.cancelCalls.filter((c) => c.number === number).length;
}

describe("a full refund and the parcel at once", () => {
  it.each(WINNERS)(
    "a moderator's refund (a) and the carrier's HANDED_IN (b), %s winning: cancelled with the refund, or handed in and left to the carrier",
    async (winner) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const number = (await shipment(order.shipmentId)).shipment_number!;
      const decide = await caseOf(order);
      const handedIn = bringEvent(number, "HANDED_IN", `evt-refund-${order.orderId}`);

      const [refund, late] = await loserReadsFirst(
        ORDER_READ,
        winner,
        (b) => decide(b, "refund"),
        (b) => applyTrackingEvent(b, handedIn),
      );
      // The refund is the moderator's either way; only a parcel not yet handed in goes with it.
      expect(refund.status, await refund.clone().text()).toBe(200);
      expect((await orderState(order.orderId)).state).toBe("refunded");
      const recorded = (await events(number)).filter((e) => e.event_id === handedIn.eventId).map((e) => e.applied);
      if (winner === "a") {
        expect((await shipment(order.shipmentId)).state).toBe("cancelled");
        expect(late).toEqual({ outcome: "ignored", why: "stale" });
        expect(recorded).toEqual([null]);
      } else {
        expect((await shipment(order.shipmentId)).state).toBe("dropped_off");
        expect(late).toEqual({ outcome: "applied", to: "dropped_off" });
        expect(recorded).toEqual(["drop_off"]);
      }
      expect(await carrierCancels(carrier, number)).toBe(winner === "a" ? 1 : 0);
      const money = await moneyFor(order);
      expect([money.refunds.length, money.transfers.length]).toEqual([1, 0]);
    },
  );

  it.each(WINNERS)(
    "a moderator's refund (a) and another's release (b), %s winning: the parcel is cancelled only by the refund that was made",
    async (winner) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("card", carrier);
      const decide = await caseOf(order);

      const [refund, release] = await loserReadsFirst(
        ORDER_READ,
        winner,
        (b) => decide(b, "refund"),
        (b) => decide(b, "release_by_moderator"),
      );
      expect([refund.status, release.status]).toEqual(winner === "a" ? [200, 409] : [409, 200]);
      expect([(await shipment(order.shipmentId)).state, (await orderState(order.orderId)).state]).toEqual(
        winner === "a" ? ["cancelled", "refunded"] : ["booked", "released"],
      );
      const money = await moneyFor(order);
      expect([money.refunds.length, money.transfers.length]).toEqual(winner === "a" ? [1, 0] : [0, 1]);
    },
  );

  it.each(WINNERS)(
    "the seller's account deletion (a) and the carrier's HANDED_IN (b), %s winning: refunded either way, the parcel cancelled only if not handed in",
    async (winner) => {
      const carrier = new TestCarrier();
      const order = await sentOrder("vipps", carrier);
      const number = (await shipment(order.shipmentId)).shipment_number!;

      const [, late] = await loserReadsFirst(
        new RegExp(`${ORDER_READ.source}|${PROFILE_READ.source}`),
        winner,
        (b) => deleteAccount(b, order.seller.id),
        (b) => applyTrackingEvent(b, bringEvent(number, "HANDED_IN")),
      );
      expect((await orderState(order.orderId)).state).toBe("refunded");
      expect((await shipment(order.shipmentId)).state).toBe(winner === "a" ? "cancelled" : "dropped_off");
      expect(late).toEqual(winner === "a" ? { outcome: "ignored", why: "stale" } : { outcome: "applied", to: "dropped_off" });
      expect(await carrierCancels(carrier, number)).toBe(winner === "a" ? 1 : 0);
      expect((await moneyFor(order)).vipps.map((v) => v.name)).toEqual(["CANCELLED"]);
    },
  );
});
