// A held-money order as the code that moves its money reads it (docs/decisions/105-held-payments.md): the
// order with its payment, listing and parties, in one row.
import type { Carrier, DeliveryMethod, HandoverMode, ParcelSize } from "../../../domain/carriers";
import type { ProblemReason } from "../../../domain/order-texts";
import type { ShipmentState } from "../../../domain/shipping";
import type { Role } from "../../../domain/roles";
import type { Db } from "../../db/client";
import type { RowOf } from "../../db/rows";
import type { listings } from "../listings/schema";
import type { orders, payments } from "./schema";

/** The columns ROW_SQL reads, typed from the schema; the joined parties' columns by their aliases. */
export type OrderRow = Pick<
  RowOf<typeof orders>,
  | "id"
  | "payment_id"
  | "paid_at"
  | "conversation_id"
  | "state"
  | "payout_account"
  | "handed_over_at"
  | "release_due_at"
  | "reminder_sent_at"
  | "problem_text"
  | "problem_at"
  | "settled_at"
  | "refund_amount"
  | "transfer_ref"
  | "refund_ref"
  | "money_moved_at"
  | "payout_error"
  | "payout_error_notified_at"
> &
  Pick<
    RowOf<typeof payments>,
    "listing_id" | "seller_id" | "buyer_id" | "amount" | "currency" | "platform_fee" | "provider" | "provider_payment_ref"
  > &
  Pick<RowOf<typeof listings>, "title" | "seo_slug"> & {
    /** Stored as text; only the reasons of domain/orders.ts are ever written. */
    problem_reason: ProblemReason | null;
    /** Every order has its payment's reference (set when checkout started). */
    provider_ref: string;
    buyer_email: string;
    buyer_name: string | null;
    buyer_deleted: string | null;
    seller_email: string;
    seller_name: string | null;
    seller_deleted: string | null;
    buyer_role: Role | null;
    seller_role: Role | null;
    /** JSON array of the report's photo ids, in the buyer's order. */
    photo_ids: string;
    /** Øre of the amount that is a sent toy's shipping (its shipment's price); 0 for a toy picked up. */
    shipping_price: number;
    /** A sent toy's parcel as JSON (SHIPMENT_JSON's keys), null for a toy picked up. */
    shipment_json: string | null;
  };

/** The parcel's columns OrderView shows, read with the order (orderViewFor parses them). */
export interface ShipmentFacts {
  carrier: Carrier;
  method: DeliveryMethod;
  parcel_size: ParcelSize;
  state: ShipmentState;
  shipping_price: number;
  pickup_point_name: string | null;
  pickup_point_address: string | null;
  recipient_name: string | null;
  recipient_address_line: string | null;
  recipient_postal_code: string | null;
  recipient_city: string | null;
  shipment_number: string | null;
  drop_off_code: string | null;
  drop_off_deadline: string;
  last_booking_error: string | null;
}

const SHIPMENT_JSON = `(SELECT json_object(${[
  "carrier",
  "method",
  "parcel_size",
  "state",
  "shipping_price",
  "pickup_point_name",
  "pickup_point_address",
  "recipient_name",
  "recipient_address_line",
  "recipient_postal_code",
  "recipient_city",
  "shipment_number",
  "drop_off_code",
  "drop_off_deadline",
  "last_booking_error",
]
  .map((c) => `'${c}', s.${c}`)
  .join(", ")}) FROM shipments s WHERE s.order_id = t.id)`;

export const ROW_SQL = `SELECT t.id, t.payment_id, p.listing_id, p.seller_id, p.buyer_id, p.amount, p.currency, t.paid_at, p.platform_fee, t.conversation_id,
       t.state, t.payout_account, t.handed_over_at, t.release_due_at, t.reminder_sent_at, t.problem_reason, t.problem_text,
       t.problem_at, t.settled_at, t.refund_amount, t.transfer_ref, t.refund_ref, t.money_moved_at, t.payout_error,
       t.payout_error_notified_at, p.provider, p.provider_ref, p.provider_payment_ref, l.title, l.seo_slug,
       bu.email AS buyer_email, bp.display_name AS buyer_name, bu.deleted_at AS buyer_deleted,
       su.email AS seller_email, sp.display_name AS seller_name, su.deleted_at AS seller_deleted,
       bp.role AS buyer_role, sp.role AS seller_role,
       (SELECT json_group_array(id) FROM (SELECT id FROM problem_photos WHERE order_id = t.id AND attached_at IS NOT NULL ORDER BY position)) AS photo_ids,
       COALESCE((SELECT shipping_price FROM shipments WHERE order_id = t.id), 0) AS shipping_price,
       ${SHIPMENT_JSON} AS shipment_json
FROM orders t
JOIN payments p ON p.id = t.payment_id
JOIN listings l ON l.id = p.listing_id
JOIN users bu ON bu.id = p.buyer_id
JOIN users su ON su.id = p.seller_id
LEFT JOIN profiles bp ON bp.user_id = p.buyer_id
LEFT JOIN profiles sp ON sp.user_id = p.seller_id`;

/** How the toy changes hands: a sent order has its shipment from the paid batch on, so this never changes (decision 153). */
export function handoverOf(row: Pick<OrderRow, "shipment_json">): HandoverMode {
  return row.shipment_json === null ? "in_person" : "shipping";
}

export async function orderRow(db: Db, orderId: string): Promise<OrderRow | null> {
  return db.prepare(`${ROW_SQL} WHERE t.id = ?1`).bind(orderId).first<OrderRow>();
}
