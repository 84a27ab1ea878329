// A sent order's parcel (docs/decisions/145-shipping-rules.md, domain/shipping.ts): created when the
// order is paid, booked with the carrier through CarrierPort (retried with the same key until the
// carrier answers), then moved by the carrier's tracking events. The money stays the order's; the
// parcel moves its order through the order's own path (shipment-moves.ts).
import type { Carrier } from "../../../domain/carriers";
import { SHIPMENT_CHAT_TEXTS, type ShipmentState, shipmentMove, trackingMove } from "../../../domain/shipping";
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { type CarrierPort, cancelKey } from "./carrier-port";
import { announceParcel } from "./shipment-announce";
import { moveParcel, type ShipmentRow, shipmentRow } from "./shipment-moves";

/**
 * Book a parcel in `booking` with the carrier. Booked: the seller has the number and the code.
 * Refused: booking_failed, the money stays held and the seller is told what to fix. No answer: it
 * stays in booking and the cron repeats the same call (same key) until the carrier answers.
 */
export async function bookShipment(env: Bindings, shipmentId: string, port: CarrierPort, now: Date = new Date()): Promise<ShipmentRow> {
  const db = env.DB;
  const row = await shipmentRow(db, shipmentId);
  if (!row) throw new AppError("NOT_FOUND", "Sendingen finnes ikke.");
  if (row.state !== "booking") return row;
  await db.prepare("UPDATE shipments SET booking_attempts = booking_attempts + 1 WHERE id = ?1").bind(row.id).run();
  const result = await port.book(
    {
      shipmentId: row.id,
      orderId: row.order_id,
      carrier: row.carrier,
      method: row.method,
      parcelSize: row.parcel_size,
      pickupPointId: row.pickup_point_id,
      createdAt: row.created_at,
    },
    row.idempotency_key,
  );
  const at = now.toISOString();
  if (result.kind === "unavailable") {
    await db.prepare("UPDATE shipments SET last_booking_error = ?2, updated_at = ?3 WHERE id = ?1").bind(row.id, result.message, at).run();
  } else if (result.kind === "refused") {
    const failed = await db
      .prepare("UPDATE shipments SET state = ?2, last_booking_error = ?3, updated_at = ?4 WHERE id = ?1 AND state = 'booking' RETURNING id")
      .bind(row.id, to(row.state, "fail_booking"), result.message, at)
      .first();
    if (failed) await announceParcel(env, (await shipmentRow(db, row.id))!, "booking_failed");
  } else {
    const booked = await db
      .prepare(
        `UPDATE shipments SET state = ?2, shipment_number = ?3, drop_off_code = ?4, last_booking_error = NULL, updated_at = ?5
         WHERE id = ?1 AND state = 'booking' RETURNING id`,
      )
      .bind(row.id, to(row.state, "book"), result.shipmentNumber, result.dropOffCode, at)
      .first();
    if (booked) await announceParcel(env, (await shipmentRow(db, row.id))!, "booked");
    // Cancelled while the carrier was booking (the deadline passed): keep the number so the
    // cron cancels this booking at the carrier too.
    else
      await db
        .prepare("UPDATE shipments SET shipment_number = ?2 WHERE id = ?1 AND state = 'cancelled' AND shipment_number IS NULL")
        .bind(row.id, result.shipmentNumber)
        .run();
  }
  return (await shipmentRow(db, row.id))!;
}

function to(state: ShipmentState, action: "book" | "fail_booking"): ShipmentState {
  const move = shipmentMove(state, "system", action);
  if (!move.ok) throw new AppError("CONFLICT", move.message);
  return move.to;
}

/** "Prøv igjen" after a refused booking: back to booking (once, whoever presses first), then booked again. */
export async function retryBooking(
  env: Bindings,
  shipmentId: string,
  actor: "buyer" | "seller",
  port: CarrierPort,
  now: Date = new Date(),
): Promise<ShipmentRow> {
  const row = await shipmentRow(env.DB, shipmentId);
  if (!row) throw new AppError("NOT_FOUND", "Sendingen finnes ikke.");
  const move = shipmentMove(row.state, actor, "retry_booking");
  if (!move.ok) throw new AppError(move.status === 403 ? "FORBIDDEN" : "CONFLICT", move.message);
  // A key of its own: the seller has fixed what the carrier refused, so this is another request,
  // which the carrier would refuse under the first booking's key (decision 147).
  const claimed = await env.DB.prepare(
    `UPDATE shipments SET state = ?2, idempotency_key = ?3, updated_at = ?4
     WHERE id = ?1 AND state = 'booking_failed' AND booking_attempts = ?5 RETURNING id`,
  )
    .bind(row.id, move.to, `shipment-${row.order_id}-${row.booking_attempts + 1}`, now.toISOString(), row.booking_attempts)
    .first();
  if (!claimed) {
    const fresh = (await shipmentRow(env.DB, shipmentId))!;
    const again = shipmentMove(fresh.state, actor, "retry_booking");
    throw new AppError("CONFLICT", again.ok ? "Sendingen ble endret samtidig. Last siden på nytt." : again.message);
  }
  return bookShipment(env, row.id, port, now);
}

/** Cancel at the carrier a cancelled parcel's booking (same key every time) and record its answer. */
export async function cancelAtCarrier(db: Db, row: ShipmentRow, port: CarrierPort, now: Date = new Date()): Promise<boolean> {
  if (row.state !== "cancelled" || !row.shipment_number || row.carrier_cancelled_at) return false;
  const result = await port.cancel(row.carrier, row.shipment_number, cancelKey(row.idempotency_key));
  if (result.kind !== "cancelled") {
    console.warn("Carrier booking not cancelled yet; the cron retries", row.id, result.message);
    return false;
  }
  await db
    .prepare("UPDATE shipments SET carrier_cancelled_at = ?2 WHERE id = ?1 AND carrier_cancelled_at IS NULL")
    .bind(row.id, now.toISOString())
    .run();
  return true;
}

/** A verified tracking event as the webhook hands it on. */
export interface TrackingEvent {
  carrier: Carrier;
  eventId: string;
  shipmentNumber: string;
  code: string;
  occurredAt: string;
}

/**
 * applied: the parcel moved (and its order with it where the order's table allows). already_seen:
 * this event id was recorded before; nothing changes. ignored: recorded, moved nothing (an unknown,
 * silent or stale code, or a parcel we do not know).
 */
export type TrackingOutcome =
  | { outcome: "applied"; to: ShipmentState }
  | { outcome: "already_seen" }
  | { outcome: "ignored"; why: "unknown" | "silent" | "stale" | "no_shipment" };

const UNIQUE = /UNIQUE constraint failed: shipment_events/;

/**
 * Record the event once and move the parcel by it. The record is part of the move's batch, written
 * only if the shipment's update took effect (`changes()` of the statement before it): a duplicate id
 * fails the whole batch (nothing moved twice), and a move lost to a concurrent one is decided again
 * from the state it left.
 */
export async function applyTrackingEvent(env: Bindings, event: TrackingEvent, now: Date = new Date()): Promise<TrackingOutcome> {
  const db = env.DB;
  const at = now.toISOString();
  const record = (applied: string | null, onlyIfMoved: boolean) =>
    db
      .prepare(
        `INSERT INTO shipment_events (carrier, event_id, shipment_number, code, occurred_at, received_at, applied)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7${onlyIfMoved ? " WHERE changes() = 1" : ""}`,
      )
      .bind(event.carrier, event.eventId, event.shipmentNumber, event.code, event.occurredAt, at, applied);
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      const seen = await db
        .prepare("SELECT 1 FROM shipment_events WHERE carrier = ?1 AND event_id = ?2")
        .bind(event.carrier, event.eventId)
        .first();
      if (seen) return { outcome: "already_seen" };
      const shipment = await db
        .prepare("SELECT * FROM shipments WHERE carrier = ?1 AND shipment_number = ?2")
        .bind(event.carrier, event.shipmentNumber)
        .first<ShipmentRow>();
      if (!shipment) {
        await record(null, false).run();
        return { outcome: "ignored", why: "no_shipment" };
      }
      const move = trackingMove(shipment.state, event.carrier, event.code);
      if (!move.moved) {
        // Any verified event is a sign of life: the lost-parcel clock restarts (decision 145).
        await db.batch([record(null, false), db.prepare("UPDATE shipments SET last_event_at = ?2 WHERE id = ?1").bind(shipment.id, at)]);
        return { outcome: "ignored", why: move.ignored };
      }
      const result = await moveParcel(env, {
        shipment,
        to: move.to,
        now: at,
        sets: { last_event_at: at, ...(move.to === "delivered" ? { delivered_notice_at: at } : {}) },
        problemText: move.to === "returned" ? SHIPMENT_CHAT_TEXTS.returned : undefined,
        then: () => record(move.action, true),
      });
      if (result.moved) return { outcome: "applied", to: move.to };
      // Another move came first: decide again from the state it left.
    }
    throw new Error(`tracking event ${event.carrier}:${event.eventId} kept losing to concurrent moves`);
  } catch (error) {
    if (error instanceof Error && UNIQUE.test(error.message)) return { outcome: "already_seen" };
    throw error;
  }
}
