// A sent order's parcel (decision 145) beside its held money (decision 105): created at payment,
// booked through the carrier port, moved by tracking events (each recorded once), and by the cron
// (a missed drop-off deadline refunds everything, silence makes a case). Money checks read what the
// payment sandbox itself moved. The cron sees every test's parcels (one database per file), so each
// test checks its own rows, not the run's counts.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliveredReleaseAt, dropOffDeadline, SHIPMENT_CHAT_TEXTS } from "../../../domain/shipping";
import type { Bindings } from "../../../worker/env";
import { runOrderCron } from "../../../worker/features/payments/orders";
import { runShipmentCron } from "../../../worker/features/shipping/shipment-cron";
import { applyTrackingEvent, bookShipment, retryBooking } from "../../../worker/features/shipping/shipments";
import { formatDateTime } from "../../../domain/format";
import { chatTexts, moneyFor } from "../support/orders";
import { paymentRow } from "../support/payments";
import { bringEvent, events, orderState, sentOrder, shipment, TestCarrier } from "../support/shipments";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const bindings = env as Bindings;

async function listingStatus(id: string): Promise<string> {
  return (await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(id).first<{ status: string }>())!.status;
}

describe("creating and booking the parcel", () => {
  it("creates it in booking, with the deadline counted from the payment", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier, false);
    const row = await shipment(order.shipmentId);
    expect(row).toMatchObject({
      state: "booking",
      order_id: order.orderId,
      carrier: "bring",
      method: "pickup_point",
      parcel_size: "large",
      pickup_point_name: "Coop Extra Grünerløkka",
      shipping_price: 13_900,
      drop_off_deadline: dropOffDeadline(order.paidAt),
      idempotency_key: `shipment-${order.orderId}`,
      shipment_number: null,
    });
  });

  it("refuses a state outside the lifecycle (the table's CHECK)", async () => {
    const order = await sentOrder("card", new TestCarrier(), false);
    await expect(env.DB.prepare("UPDATE shipments SET state = 'sent' WHERE id = ?1").bind(order.shipmentId).run()).rejects.toThrow(
      /CHECK constraint failed/,
    );
  });

  it("books with the shipment's key: the number and the code for the seller; no answer keeps it in booking, the cron repeats the same call", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier, false);
    carrier.answer = "unavailable";
    expect((await bookShipment(bindings, order.shipmentId, carrier)).state).toBe("booking");
    expect(await shipment(order.shipmentId)).toMatchObject({ booking_attempts: 1, last_booking_error: "503 Service Unavailable" });

    carrier.answer = "book";
    await runShipmentCron(bindings, new Date(), carrier);
    const booked = await shipment(order.shipmentId);
    expect(booked).toMatchObject({ state: "booked", booking_attempts: 2, last_booking_error: null });
    expect(booked.shipment_number).toMatch(/^70712345\d{7}$/);
    expect(booked.drop_off_code).toMatch(/^LL12 \d{4} \d{3}$/);
    const mine = () => carrier.bookCalls.filter((key) => key === `shipment-${order.orderId}`);
    expect(mine()).toHaveLength(2);
    // Booked: no further call.
    await runShipmentCron(bindings, new Date(), carrier);
    expect(mine()).toHaveLength(2);
  });

  it("a refused booking keeps the money held; «Prøv igjen» books it (by one side only, the other is told)", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier, false);
    carrier.answer = "refuse";
    expect(await bookShipment(bindings, order.shipmentId, carrier)).toMatchObject({
      state: "booking_failed",
      last_booking_error: "Avsenders telefonnummer mangler",
    });
    expect((await orderState(order.orderId)).state).toBe("held");
    expect(await moneyFor(order)).toMatchObject({ transfers: [], refunds: [] });

    carrier.answer = "book";
    expect((await retryBooking(bindings, order.shipmentId, "seller", carrier)).state).toBe("booked");
    await expect(retryBooking(bindings, order.shipmentId, "buyer", carrier)).rejects.toThrow("Frakten er allerede bestilt.");
  });
});

describe("tracking events", () => {
  it("HANDED_IN, IN_TRANSIT, DELIVERED: the order is handed over with 48 hours from the notice; then the order's automatic release pays once", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier);
    const number = (await shipment(order.shipmentId)).shipment_number!;

    expect(await applyTrackingEvent(bindings, bringEvent(number, "HANDED_IN"))).toEqual({ outcome: "applied", to: "dropped_off" });
    expect(await applyTrackingEvent(bindings, bringEvent(number, "IN_TRANSIT"))).toEqual({ outcome: "applied", to: "in_transit" });
    expect((await orderState(order.orderId)).state).toBe("held");

    const notice = new Date();
    const delivered = bringEvent(number, "DELIVERED", "evt-delivered");
    expect(await applyTrackingEvent(bindings, delivered, notice)).toEqual({ outcome: "applied", to: "delivered" });
    expect(await shipment(order.shipmentId)).toMatchObject({ state: "delivered", delivered_notice_at: notice.toISOString() });
    expect(await orderState(order.orderId)).toMatchObject({
      state: "handed_over",
      handed_over_at: notice.toISOString(),
      release_due_at: deliveredReleaseAt(notice.toISOString()),
    });
    // Both read it in the deal's chat, with the moment the money is released.
    expect(await chatTexts(order.buyerClient, order.conversationId)).toContain(
      SHIPMENT_CHAT_TEXTS.delivered(formatDateTime(deliveredReleaseAt(notice.toISOString()))),
    );

    // The same event again (a webhook retried), a late IN_TRANSIT, a code nobody knows.
    expect(await applyTrackingEvent(bindings, delivered)).toEqual({ outcome: "already_seen" });
    expect(await applyTrackingEvent(bindings, bringEvent(number, "IN_TRANSIT"))).toEqual({ outcome: "ignored", why: "stale" });
    expect(await applyTrackingEvent(bindings, bringEvent(number, "TELEPORTED"))).toEqual({ outcome: "ignored", why: "unknown" });
    expect(await applyTrackingEvent(bindings, bringEvent("99999999999", "DELIVERED"))).toEqual({ outcome: "ignored", why: "no_shipment" });
    expect((await events(number)).map((e) => [e.code, e.applied])).toEqual([
      ["HANDED_IN", "drop_off"],
      ["IN_TRANSIT", "transit"],
      ["DELIVERED", "deliver"],
      ["IN_TRANSIT", null],
      ["TELEPORTED", null],
    ]);
    expect((await shipment(order.shipmentId)).state).toBe("delivered");

    // Not yet at 47 hours; released at 49, the transfer made once.
    await runOrderCron(bindings, new Date(notice.getTime() + 47 * HOUR));
    expect((await orderState(order.orderId)).state).toBe("handed_over");
    await runOrderCron(bindings, new Date(notice.getTime() + 49 * HOUR));
    await runOrderCron(bindings, new Date(notice.getTime() + 50 * HOUR));
    expect((await orderState(order.orderId)).state).toBe("released");
    expect(await moneyFor(order)).toMatchObject({ transfers: [expect.anything()], refunds: [] });
  });

  it("RETURN opens a case for the moderators with the returned text; the money stays held", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("vipps", carrier);
    const number = (await shipment(order.shipmentId)).shipment_number!;
    await applyTrackingEvent(bindings, bringEvent(number, "HANDED_IN"));
    expect(await applyTrackingEvent(bindings, bringEvent(number, "RETURN"))).toEqual({ outcome: "applied", to: "returned" });
    expect(await orderState(order.orderId)).toMatchObject({
      state: "problem",
      problem_reason: "not_received",
      problem_text: SHIPMENT_CHAT_TEXTS.returned,
    });
    expect(await moneyFor(order)).toMatchObject({ vipps: [] });
  });
});

describe("the cron", () => {
  it("past the drop-off deadline: the parcel is cancelled, the order refunded in full, the listing for sale, the booking cancelled at the carrier; once", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier);
    const row = await shipment(order.shipmentId);
    const deadline = Date.parse(row.drop_off_deadline);

    await runShipmentCron(bindings, new Date(deadline - HOUR), carrier);
    expect((await shipment(order.shipmentId)).state).toBe("booked");

    await runShipmentCron(bindings, new Date(deadline + HOUR), carrier);
    expect(await shipment(order.shipmentId)).toMatchObject({ state: "cancelled" });
    expect((await shipment(order.shipmentId)).carrier_cancelled_at).not.toBeNull();
    expect(await orderState(order.orderId)).toMatchObject({ state: "cancelled", refund_amount: 30_000 });
    expect(await listingStatus(order.listingId)).toBe("active");
    expect(await chatTexts(order.buyerClient, order.conversationId)).toContain(SHIPMENT_CHAT_TEXTS.expired);
    expect((await paymentRow(order.paymentId))!.status).toBe("refunded");
    const mine = () => carrier.cancelCalls.filter((c) => c.number === row.shipment_number);
    expect(mine()).toEqual([{ number: row.shipment_number, key: `cancel-shipment-${order.orderId}` }]);

    await runShipmentCron(bindings, new Date(deadline + 2 * HOUR), carrier);
    await runOrderCron(bindings, new Date(deadline + 2 * HOUR));
    expect(mine()).toHaveLength(1);
    const moved = await moneyFor(order);
    expect(moved.refunds).toHaveLength(1);
    expect(moved.refunds[0].amount).toBe(30_000);
    expect(moved.transfers).toEqual([]);
  });

  it("a carrier that does not answer the cancellation is asked again, with the same key, until it does", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("vipps", carrier);
    const row = await shipment(order.shipmentId);
    carrier.answer = "unavailable";
    await runShipmentCron(bindings, new Date(Date.parse(row.drop_off_deadline) + HOUR), carrier);
    expect((await shipment(order.shipmentId)).carrier_cancelled_at).toBeNull();
    expect((await orderState(order.orderId)).state).toBe("cancelled");
    carrier.answer = "book";
    await runShipmentCron(bindings, new Date(Date.parse(row.drop_off_deadline) + 2 * HOUR), carrier);
    expect((await shipment(order.shipmentId)).carrier_cancelled_at).not.toBeNull();
    expect(carrier.cancelCalls.filter((c) => c.number === row.shipment_number).map((c) => c.key)).toEqual([
      `cancel-shipment-${order.orderId}`,
      `cancel-shipment-${order.orderId}`,
    ]);
  });

  it(`${10} days of silence after the drop-off: lost, a case; a later DELIVERED moves the parcel on, the case stays`, async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier);
    const number = (await shipment(order.shipmentId)).shipment_number!;
    const handedIn = new Date();
    await applyTrackingEvent(bindings, bringEvent(number, "HANDED_IN"), handedIn);

    await runShipmentCron(bindings, new Date(handedIn.getTime() + 9 * DAY), carrier);
    expect((await shipment(order.shipmentId)).state).toBe("dropped_off");
    await runShipmentCron(bindings, new Date(handedIn.getTime() + 10 * DAY + HOUR), carrier);
    expect((await shipment(order.shipmentId)).state).toBe("lost");
    expect(await orderState(order.orderId)).toMatchObject({ state: "problem", problem_text: SHIPMENT_CHAT_TEXTS.lost });
    expect(await chatTexts(order.buyerClient, order.conversationId)).toContain(SHIPMENT_CHAT_TEXTS.lost);

    expect(await applyTrackingEvent(bindings, bringEvent(number, "DELIVERED"))).toEqual({ outcome: "applied", to: "delivered" });
    expect((await orderState(order.orderId)).state).toBe("problem");
    expect(await moneyFor(order)).toMatchObject({ transfers: [], refunds: [] });
  });

  it("a silent code restarts the lost-parcel clock", async () => {
    const carrier = new TestCarrier();
    const order = await sentOrder("card", carrier);
    const number = (await shipment(order.shipmentId)).shipment_number!;
    const handedIn = new Date();
    await applyTrackingEvent(bindings, bringEvent(number, "HANDED_IN"), handedIn);
    expect(await applyTrackingEvent(bindings, bringEvent(number, "NOTIFICATION_SENT"), new Date(handedIn.getTime() + 8 * DAY))).toEqual({
      outcome: "ignored",
      why: "silent",
    });
    await runShipmentCron(bindings, new Date(handedIn.getTime() + 11 * DAY), carrier);
    expect((await shipment(order.shipmentId)).state).toBe("dropped_off");
  });
});
