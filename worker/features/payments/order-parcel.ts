// A sent order refunded in full another way than by its parcel's expiry (a moderator's refund in a
// case, the seller's deleted account) cancels its parcel if it is not handed in yet (decision 153):
// the shipment's `cancel` by the system, in the refund's own D1 batch, only for the orders that batch
// refunded. A parcel already handed in is left to the carrier. The carrier's booking is then
// cancelled by the cron (worker/features/shipping/shipment-cron.ts, `carrier_cancelled_at`).
import { SHIPMENT_TRANSITIONS } from "../../../domain/shipping";
import type { Db } from "../../db/client";

const CANCEL = SHIPMENT_TRANSITIONS.cancel.filter((t) => t.by.includes("system"));
const NOT_HANDED_IN = CANCEL.map((t) => `'${t.from}'`).join(", ");
const CANCELLED = CANCEL[0].to;

/**
 * The statement that cancels the parcels of the orders `decidedSql` selects (the ids of the orders
 * this batch has just refunded, with its parameters `values`). It comes after the refund in the
 * batch, so it reads the refund's result: an order whose refund lost to another move keeps its parcel.
 */
export function cancelParcelsOf(db: Db, decidedSql: string, values: unknown[], now: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE shipments SET state = '${CANCELLED}', updated_at = ?${values.length + 1}
       WHERE state IN (${NOT_HANDED_IN}) AND order_id IN (${decidedSql})`,
    )
    .bind(...values, now);
}
