// The hourly cron's shipping step (docs/decisions/132-cron-steps-on-their-own.md, 145): parcels not
// handed in by their deadline are cancelled with the order refunded in full, parcels the carrier has
// been silent about for LOST_AFTER_DAYS become a case, and carrier calls not yet answered (bookings,
// cancellations) are repeated with their keys. The release 48 hours after delivered is the order's
// own automatic release (worker/features/payments/orders.ts runOrderCron).
import { CARRIERS } from "../../../domain/carriers";
import { LOST_AFTER_DAYS, SHIPMENT_CHAT_TEXTS, SHIPMENT_TRANSITIONS, shipmentMove } from "../../../domain/shipping";
import type { Bindings } from "../../env";
import type { CarrierPort } from "./carrier-port";
import { moveParcel, type ShipmentRow } from "./shipment-moves";
import { bookShipment, cancelAtCarrier } from "./shipments";

const DAY_MS = 24 * 3_600_000;
const fromStates = (action: "expire" | "declare_lost") => SHIPMENT_TRANSITIONS[action].map((t) => `'${t.from}'`).join(", ");

export interface ShipmentCronResult {
  expired: number;
  lost: number;
  booked: number;
  cancelledAtCarrier: number;
}

/**
 * One run. Each decision is the conditional batch of shipment-moves.ts with the time in its
 * condition, so a run that overlaps another, a late HANDED_IN or a buyer's report changes the
 * outcome at most once. Without a carrier port (none configured) only D1 moves; the carrier calls
 * wait for a run that has one, and a port that reaches only some carriers (decision 154) is asked
 * only about their parcels.
 */
export async function runShipmentCron(env: Bindings, now: Date, port: CarrierPort | null, limit = 50): Promise<ShipmentCronResult> {
  const db = env.DB;
  const at = now.toISOString();
  const result: ShipmentCronResult = { expired: 0, lost: 0, booked: 0, cancelledAtCarrier: 0 };

  // Past the deadline and not handed in, while the money is still held (a case is the moderator's).
  const { results: late } = await db
    .prepare(
      `SELECT s.* FROM shipments s JOIN orders o ON o.id = s.order_id
       WHERE s.state IN (${fromStates("expire")}) AND s.drop_off_deadline < ?1 AND o.state = 'held'
       ORDER BY s.drop_off_deadline LIMIT ?2`,
    )
    .bind(at, limit)
    .all<ShipmentRow>();
  for (const shipment of late) {
    const move = shipmentMove(shipment.state, "system", "expire");
    if (!move.ok) continue;
    const { moved } = await moveParcel(env, {
      shipment,
      to: move.to,
      now: at,
      orderRequired: true,
      still: (param) => `drop_off_deadline < ${param(at)}`,
    });
    if (moved) result.expired += 1;
  }

  // Handed in, then silence: a case for the moderators. A new event restarts the clock, so the
  // silence is part of the condition.
  const silentSince = new Date(now.getTime() - LOST_AFTER_DAYS * DAY_MS).toISOString();
  const { results: silent } = await db
    .prepare(
      `SELECT * FROM shipments WHERE state IN (${fromStates("declare_lost")}) AND last_event_at <= ?1
       ORDER BY last_event_at LIMIT ?2`,
    )
    .bind(silentSince, limit)
    .all<ShipmentRow>();
  for (const shipment of silent) {
    const move = shipmentMove(shipment.state, "system", "declare_lost");
    if (!move.ok) continue;
    const { moved } = await moveParcel(env, {
      shipment,
      to: move.to,
      now: at,
      problemText: SHIPMENT_CHAT_TEXTS.lost,
      still: (param) => `last_event_at <= ${param(silentSince)}`,
    });
    if (moved) result.lost += 1;
  }

  if (!port) return result;
  // Only the parcels of carriers the port reaches; the others wait for a run that has theirs.
  const carriers = (port.carriers ?? CARRIERS).map((c) => `'${c}'`).join(", ");
  const { results: unbooked } = await db
    .prepare(`SELECT id FROM shipments WHERE state = 'booking' AND carrier IN (${carriers}) ORDER BY created_at LIMIT ?1`)
    .bind(limit)
    .all<{ id: string }>();
  for (const { id } of unbooked) {
    try {
      if ((await bookShipment(env, id, port, now)).state !== "booking") result.booked += 1;
    } catch (error) {
      console.warn("Booking not made yet; the next run retries", id, error instanceof Error ? error.message : error);
    }
  }
  const { results: toCancel } = await db
    .prepare(
      `SELECT * FROM shipments WHERE state = 'cancelled' AND shipment_number IS NOT NULL AND carrier_cancelled_at IS NULL
       AND carrier IN (${carriers}) LIMIT ?1`,
    )
    .bind(limit)
    .all<ShipmentRow>();
  for (const shipment of toCancel) {
    try {
      if (await cancelAtCarrier(db, shipment, port, now)) result.cancelledAtCarrier += 1;
    } catch (error) {
      console.warn("Carrier cancellation not made yet; the next run retries", shipment.id, error instanceof Error ? error.message : error);
    }
  }
  return result;
}
