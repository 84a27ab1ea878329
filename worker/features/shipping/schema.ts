// The D1 tables of shipping ("Send med posten", docs/decisions/145-shipping-rules.md). The whole
// schema: worker/db/tables.ts. The money stays the order's (worker/features/payments/schema.ts): a
// shipment only records the parcel and moves its order through the order's own conditional update.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CARRIERS, DELIVERY_METHODS, PARCEL_SIZES } from "../../../domain/carriers";
import { SHIPMENT_STATES } from "../../../domain/shipping";
import { createdAt, updatedAt } from "../../db/columns";
import { orders, payments } from "../payments/schema";

const quoted = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

/**
 * The parcel of a sent order: one per order, created when it is paid (state `booking`), booked with
 * the carrier through its idempotency key, then moved by the carrier's tracking events and the cron.
 */
export const shipments = sqliteTable(
  "shipments",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    carrier: text("carrier", { enum: CARRIERS }).notNull(),
    method: text("method", { enum: DELIVERY_METHODS }).notNull(),
    parcelSize: text("parcel_size", { enum: PARCEL_SIZES }).notNull(),
    /** The pickup point or parcel locker the buyer chose; null for the mailbox. */
    pickupPointId: text("pickup_point_id"),
    pickupPointName: text("pickup_point_name"),
    pickupPointAddress: text("pickup_point_address"),
    /** Øre, held with the toy in the order's one payment (shippingSplit). */
    shippingPrice: integer("shipping_price").notNull(),
    /** Where the parcel goes, as the buyer gave it at checkout (the carrier's recipient). */
    recipientName: text("recipient_name"),
    recipientAddressLine: text("recipient_address_line"),
    recipientPostalCode: text("recipient_postal_code"),
    recipientCity: text("recipient_city"),
    recipientPhone: text("recipient_phone"),
    state: text("state", { enum: SHIPMENT_STATES }).notNull().default("booking"),
    /** Sent with every booking and cancellation call: a retry is the carrier's replay, never a second parcel. */
    idempotencyKey: text("idempotency_key").notNull(),
    /** The carrier's shipment number (tracking events name it), once booked. */
    shipmentNumber: text("shipment_number"),
    /** What the seller writes on the parcel ("Sendekode: {kode}"). */
    dropOffCode: text("drop_off_code"),
    /** dropOffDeadline(paid_at): the cron cancels a parcel not handed in by then. */
    dropOffDeadline: text("drop_off_deadline").notNull(),
    bookingAttempts: integer("booking_attempts").notNull().default(0),
    /** The carrier's refusal or the transport error of the last attempt; cleared when booked. */
    lastBookingError: text("last_booking_error"),
    /** The last verified tracking event received, any code: the lost-parcel clock restarts from it. */
    lastEventAt: text("last_event_at"),
    /** The carrier acknowledged the cancellation of a booked parcel that was cancelled; until then the cron retries. */
    carrierCancelledAt: text("carrier_cancelled_at"),
    /** When Lekebytte received DELIVERED: the 48 hours before release count from here. */
    deliveredNoticeAt: text("delivered_notice_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("shipments_order_unique").on(t.orderId),
    uniqueIndex("shipments_key_unique").on(t.idempotencyKey),
    uniqueIndex("shipments_number_unique").on(t.carrier, t.shipmentNumber),
    index("shipments_deadline_idx").on(t.state, t.dropOffDeadline),
    index("shipments_silence_idx").on(t.state, t.lastEventAt),
    check("shipments_state_check", sql`${sql.identifier("state")} IN (${quoted(SHIPMENT_STATES)})`),
  ],
);

/**
 * Every verified tracking event, once: the carrier's event id is unique per carrier, so a webhook
 * delivered twice (or at the same moment) is recorded once and moves the parcel at most once.
 */
export const shipmentEvents = sqliteTable(
  "shipment_events",
  {
    carrier: text("carrier", { enum: CARRIERS }).notNull(),
    eventId: text("event_id").notNull(),
    shipmentNumber: text("shipment_number").notNull(),
    code: text("code").notNull(),
    occurredAt: text("occurred_at").notNull(),
    receivedAt: text("received_at").notNull(),
    /** The parcel's action it applied; null for an unknown, silent or stale code (acknowledged, ignored). */
    applied: text("applied"),
  },
  (t) => [primaryKey({ columns: [t.carrier, t.eventId] }), index("shipment_events_number_idx").on(t.carrier, t.shipmentNumber)],
);

/**
 * The buyer's "Sending" choice of a checkout, written with its pending payment: the payment's amount
 * is the toy's price plus `shipping_price`. The paid payment's batch turns it into the order's
 * shipment; an unpaid checkout's choice stays with its payment.
 */
export const paymentShipping = sqliteTable("payment_shipping", {
  paymentId: text("payment_id")
    .primaryKey()
    .references(() => payments.id, { onDelete: "cascade" }),
  carrier: text("carrier", { enum: CARRIERS }).notNull(),
  method: text("method", { enum: DELIVERY_METHODS }).notNull(),
  parcelSize: text("parcel_size", { enum: PARCEL_SIZES }).notNull(),
  shippingPrice: integer("shipping_price").notNull(),
  pickupPointId: text("pickup_point_id"),
  pickupPointName: text("pickup_point_name"),
  pickupPointAddress: text("pickup_point_address"),
  recipientName: text("recipient_name").notNull(),
  recipientAddressLine: text("recipient_address_line").notNull(),
  recipientPostalCode: text("recipient_postal_code").notNull(),
  recipientCity: text("recipient_city").notNull(),
  recipientPhone: text("recipient_phone").notNull(),
  createdAt: createdAt(),
});
