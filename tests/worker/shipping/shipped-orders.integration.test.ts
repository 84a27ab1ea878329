// A sent order follows its parcel, not the in-person rules (decision 153): the seller never marks it
// handed over and the buyer never cancels it (the parcel's DELIVERED and its drop-off deadline do),
// while "Jeg har fått varen" stays. A full refund another way (a moderator's refund in a case, the
// seller's deleted account) cancels a parcel not handed in yet, in the refund's batch, and the cron
// then cancels its booking at the carrier; a parcel handed in is left to the carrier. Money checks
// read what the payment sandbox itself moved.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../worker/env";
import { deleteAccount } from "../../../worker/features/account/account";
import { actOnOrder } from "../../../worker/features/payments/orders";
import { cancelKey } from "../../../worker/features/shipping/carrier-port";
import { runShipmentCron } from "../../../worker/features/shipping/shipment-cron";
import { applyTrackingEvent, bookShipment } from "../../../worker/features/shipping/shipments";
import { createUser, signedInClient } from "../../factories";
import { errorOf } from "../support/http";
import { moneyFor, orderView } from "../support/orders";
import { bringEvent, orderState, type SentOrder, sentOrder, shipment, TestCarrier } from "../support/shipments";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const bindings = env as Bindings;
const PARCEL_HANDOVER = "Fraktselskapet melder når pakken er levert.";
const PARCEL_CANCEL = "Kjøpet avbrytes automatisk, og du får pengene tilbake, hvis selgeren ikke leverer inn pakken innen fristen.";

async function listingStatus(id: string): Promise<string> {
  return (await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(id).first<{ status: string }>())!.status;
}

/** The buyer as the Worker's session gives it (actOnOrder with the clock moved on). */
function buyerOf(order: SentOrder) {
  return { id: order.buyer.id, email: order.buyer.email, displayName: null, role: "user", suspended: false, sessionFamily: "x" } as never;
}

const problem = { reason: "not_received", text: "Selgeren har ikke sendt pakken." };

/** A sent order whose buyer has opened a case, and a moderator to decide it. */
async function caseOf(order: SentOrder) {
  expect((await order.buyerClient.post(`/api/payments/orders/${order.orderId}/problem`, problem)).status).toBe(200);
  const moderator = await createUser({ role: "moderator" });
  const client = await signedInClient(moderator.id);
  return (action: "refund" | "release_by_moderator") => client.post(`/api/moderation/payment-cases/${order.orderId}/decision`, { action });
}

describe("a sent order follows its parcel", () => {
  it("the seller is neither offered nor allowed «Overlevert til kjøper», before or after delivery", async () => {
    const order = await sentOrder("card", new TestCarrier());
    expect((await orderView(order.sellerClient, order.orderId)).actions).toEqual([]);
    const early = await order.sellerClient.post(`/api/payments/orders/${order.orderId}/handed-over`);
    expect(early.status).toBe(409);
    expect((await errorOf(early)).message).toBe(PARCEL_HANDOVER);
    expect((await orderState(order.orderId)).state).toBe("held");

    await applyTrackingEvent(bindings, bringEvent((await shipment(order.shipmentId)).shipment_number!, "DELIVERED"));
    expect((await orderView(order.sellerClient, order.orderId)).actions).toEqual([]);
    const late = await order.sellerClient.post(`/api/payments/orders/${order.orderId}/handed-over`);
    expect(late.status).toBe(409);
    expect((await errorOf(late)).message).toBe(PARCEL_HANDOVER);
    expect((await orderState(order.orderId)).handed_over_at).not.toBeNull();
  });

  it("the buyer is neither offered nor allowed «Avbryt kjøpet», even 8 days after paying: the deadline's expiry decides", async () => {
    const order = await sentOrder("card", new TestCarrier());
    const view = await orderView(order.buyerClient, order.orderId);
    expect(view.actions).toEqual(["confirm_received", "report_problem"]);
    expect(view.cancel_from).toBeNull();
    const now = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/cancel`);
    expect(now.status).toBe(409);
    expect((await errorOf(now)).message).toBe(PARCEL_CANCEL);
    await expect(
      actOnOrder(bindings, buyerOf(order), order.orderId, "cancel_no_handover", {}, new Date(Date.now() + 8 * DAY)),
    ).rejects.toMatchObject({ code: "CONFLICT", message: PARCEL_CANCEL });
    expect((await orderState(order.orderId)).state).toBe("held");
    expect(await moneyFor(order)).toMatchObject({ refunds: [], transfers: [] });
  });

  it("«Jeg har fått varen» before the carrier's delivered: released, paid once", async () => {
    const order = await sentOrder("card", new TestCarrier());
    const res = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/received`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await orderState(order.orderId)).state).toBe("released");
    expect((await moneyFor(order)).transfers).toHaveLength(1);
  });

  it("«Jeg har fått varen» once the parcel is delivered: offered, released, paid once", async () => {
    const order = await sentOrder("vipps", new TestCarrier());
    await applyTrackingEvent(bindings, bringEvent((await shipment(order.shipmentId)).shipment_number!, "DELIVERED"));
    const view = await orderView(order.buyerClient, order.orderId);
    expect([view.state, view.actions]).toEqual(["handed_over", ["confirm_received", "report_problem"]]);
    const res = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/received`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await orderState(order.orderId)).state).toBe("released");
    expect((await moneyFor(order)).vipps.filter((v) => v.name === "CAPTURED")).toHaveLength(1);
  });
});

describe("a full refund cancels a parcel not handed in", () => {
  it("a moderator's refund of a booked parcel: cancelled with the refund, then at the carrier once by the cron", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier);
    const decide = await caseOf(order);
    const res = await decide("refund");
    expect(res.status, await res.clone().text()).toBe(200);
    const row = await shipment(order.shipmentId);
    expect([row.state, (await orderState(order.orderId)).state]).toEqual(["cancelled", "refunded"]);
    expect(await listingStatus(order.listingId)).toBe("active");
    expect((await moneyFor(order)).refunds.map((r) => r.amount)).toEqual([(await orderState(order.orderId)).refund_amount]);

    await runShipmentCron(bindings, new Date(), carrier);
    await runShipmentCron(bindings, new Date(Date.now() + HOUR), carrier);
    expect(carrier.cancelCalls.filter((c) => c.number === row.shipment_number)).toEqual([
      { number: row.shipment_number, key: cancelKey(row.idempotency_key) },
    ]);
    expect((await shipment(order.shipmentId)).carrier_cancelled_at).not.toBeNull();
  });

  it("a moderator's refund while the carrier is booking: cancelled, and the booking it answers afterwards is cancelled too", async () => {
    // The carrier answers the booking only after the refund has been decided.
    let asked!: () => void;
    let answer!: () => void;
    const bookingAsked = new Promise<void>((resolve) => (asked = resolve));
    const refunded = new Promise<void>((resolve) => (answer = resolve));
    const carrier = new (class extends TestCarrier {
      override async book(...args: Parameters<TestCarrier["book"]>) {
        asked();
        await refunded;
        return super.book(...args);
      }
    })();
    const order = await sentOrder("vipps", carrier, false);
    const decide = await caseOf(order);
    const booking = bookShipment(bindings, order.shipmentId, carrier);
    await bookingAsked;
    expect((await decide("refund")).status).toBe(200);
    expect((await shipment(order.shipmentId)).state).toBe("cancelled");
    answer();

    const late = await booking;
    expect(late.state).toBe("cancelled");
    expect(late.shipment_number).not.toBeNull();
    await runShipmentCron(bindings, new Date(), carrier);
    expect(carrier.cancelled.has(late.shipment_number!)).toBe(true);
    expect((await moneyFor(order)).vipps.map((v) => v.name)).toEqual(["CANCELLED"]);
  });

  it("a moderator's refund of a parcel already handed in leaves it to the carrier", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier);
    const number = (await shipment(order.shipmentId)).shipment_number!;
    await applyTrackingEvent(bindings, bringEvent(number, "HANDED_IN"));
    const decide = await caseOf(order);
    expect((await decide("refund")).status).toBe(200);
    expect([(await shipment(order.shipmentId)).state, (await orderState(order.orderId)).state]).toEqual(["dropped_off", "refunded"]);
    await runShipmentCron(bindings, new Date(), carrier);
    expect(carrier.cancelCalls.filter((c) => c.number === number)).toEqual([]);
  });

  it("a moderator's release keeps the parcel: only a full refund cancels it", async () => {
    const order = await sentOrder("card", new TestCarrier());
    const decide = await caseOf(order);
    expect((await decide("release_by_moderator")).status).toBe(200);
    expect([(await shipment(order.shipmentId)).state, (await orderState(order.orderId)).state]).toEqual(["booked", "released"]);
  });

  it("the seller's deleted account: a parcel not handed in is cancelled with the refund, one handed in is left to the carrier", async () => {
    const carrier = new TestCarrier();
    const waiting = await sentOrder("card", carrier);
    await deleteAccount(bindings, waiting.seller.id);
    expect([(await shipment(waiting.shipmentId)).state, (await orderState(waiting.orderId)).state]).toEqual(["cancelled", "refunded"]);
    expect((await moneyFor(waiting)).refunds).toHaveLength(1);

    const handedIn = await sentOrder("card", carrier);
    await applyTrackingEvent(bindings, bringEvent((await shipment(handedIn.shipmentId)).shipment_number!, "HANDED_IN"));
    await deleteAccount(bindings, handedIn.seller.id);
    expect([(await shipment(handedIn.shipmentId)).state, (await orderState(handedIn.orderId)).state]).toEqual(["dropped_off", "refunded"]);

    await runShipmentCron(bindings, new Date(), carrier);
    const numbers = carrier.cancelCalls.map((c) => c.number);
    expect(numbers).toContain((await shipment(waiting.shipmentId)).shipment_number);
    expect(numbers).not.toContain((await shipment(handedIn.shipmentId)).shipment_number);
  });

  it("the seller's deleted account after the buyer confirmed: nothing is refunded, so the parcel stays", async () => {
    const order = await sentOrder("card", new TestCarrier());
    expect((await order.buyerClient.post(`/api/payments/orders/${order.orderId}/received`)).status).toBe(200);
    await deleteAccount(bindings, order.seller.id);
    expect([(await shipment(order.shipmentId)).state, (await orderState(order.orderId)).state]).toEqual(["booked", "released"]);
  });

  it("the buyer's deleted account refunds nothing, so the parcel goes on (as the order does)", async () => {
    const order = await sentOrder("card", new TestCarrier());
    await deleteAccount(bindings, order.buyer.id);
    expect([(await shipment(order.shipmentId)).state, (await orderState(order.orderId)).state]).toEqual(["booked", "held"]);
  });
});
