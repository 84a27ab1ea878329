// One move of a sent order's parcel together with its order (docs/decisions/145-shipping-rules.md):
// the shipment's conditional update and the order's own (worker/features/payments/orders.ts
// orderDecision, with its guards and, for a cancellation, the listing and the payment) in ONE D1
// batch, each conditioned on the other, so that of a carrier's delivered, a buyer's problem, the
// cron's release, expiry or lost-parcel check and a late event arriving together exactly one outcome
// holds, and a crash leaves both as they were or both moved.
import { type OrderAction, type OrderState, orderMove } from "../../../domain/orders";
import { ORDER_STATE_AFTER, type ShipmentState } from "../../../domain/shipping";
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { handoverOf, type OrderRow, orderRow } from "../payments/order-rows";
import { afterOrderMove, orderDecision } from "../payments/orders";
import { announceParcel } from "./shipment-announce";
import { type ShipmentRow, shipmentRow } from "./shipment-rows";

export { type ShipmentRow, shipmentRow } from "./shipment-rows";

/** The order's move by the Worker that each order state after a parcel's move takes (domain/orders.ts). */
const ORDER_ACTION: Partial<Record<OrderState, OrderAction>> = {
  handed_over: "parcel_delivered",
  problem: "parcel_case",
  cancelled: "parcel_not_handed_in",
};
/** The order's column its move sets to the batch's time: how the shipment's update knows it was this batch's. */
const ORDER_MARKER: Partial<Record<OrderState, string>> = { handed_over: "handed_over_at", problem: "problem_at", cancelled: "settled_at" };

type Param = (value: unknown) => string;

export interface ParcelMove {
  /** The shipment as read before deciding; its update requires it unchanged. */
  shipment: ShipmentRow;
  to: ShipmentState;
  now: string;
  /** Further columns the shipment's update sets. */
  sets?: Record<string, unknown>;
  /** A further condition on the shipment as read (the deadline passed, the silence still as long). */
  still?: (param: Param) => string;
  /** Both or neither: the parcel moves only if its order moves too (a missed deadline's refund). */
  orderRequired?: boolean;
  /** The case's text when the order opens one (a lost or returned parcel). */
  problemText?: string;
  /** A statement the same batch runs right after the shipment's update (the tracking event's record). */
  then?: (db: Db) => D1PreparedStatement;
}

export interface ParcelMoveResult {
  moved: boolean;
  /** The order's move this batch made (null: none). */
  orderAction: OrderAction | null;
  order: OrderRow;
}

/**
 * Decide the move in one batch. The order's update comes first and requires the shipment still as
 * read; the shipment's then requires the order moved by this batch (its marker column at `now`), or
 * still in the state read when the order has no move from there (a parcel delivered after the buyer
 * reported a problem: the case stays, the parcel is delivered). Returns whether the shipment moved.
 */
export async function moveParcel(env: Bindings, move: ParcelMove): Promise<ParcelMoveResult> {
  const db = env.DB;
  const { shipment, to, now } = move;
  const order = await orderRow(db, shipment.order_id);
  if (!order) throw new Error(`shipment ${shipment.id} has no order ${shipment.order_id}`);
  const orderTo = ORDER_STATE_AFTER[to];
  const orderAction = orderTo ? (ORDER_ACTION[orderTo] ?? null) : null;
  const orderMoves = orderAction !== null && orderMove(order.state, "system", orderAction, handoverOf(order)).ok;
  if (move.orderRequired && !orderMoves) return { moved: false, orderAction: null, order };

  const statements: D1PreparedStatement[] = [];
  const shipmentAsRead = (param: Param) =>
    `EXISTS (SELECT 1 FROM shipments WHERE id = ${param(shipment.id)} AND state = ${param(shipment.state)}${move.still ? ` AND ${move.still(param)}` : ""})`;
  if (orderMoves) {
    const decision = orderDecision(
      db,
      order,
      orderTo!,
      orderAction!,
      { reason: "not_received", text: move.problemText ?? "" },
      now,
      null,
      shipmentAsRead,
    );
    statements.push(...decision.statements);
  }

  const values: unknown[] = [];
  const param: Param = (value) => {
    values.push(value);
    return `?${values.length}`;
  };
  const sets = Object.entries({ ...move.sets, state: to, updated_at: now }).map(([column, value]) => `${column} = ${param(value)}`);
  const orderCondition = orderMoves
    ? `EXISTS (SELECT 1 FROM orders WHERE id = ${param(order.id)} AND state = ${param(orderTo)} AND ${ORDER_MARKER[orderTo!]} = ${param(now)})`
    : `EXISTS (SELECT 1 FROM orders WHERE id = ${param(order.id)} AND state = ${param(order.state)})`;
  const where = `id = ${param(shipment.id)} AND state = ${param(shipment.state)}${move.still ? ` AND ${move.still(param)}` : ""}`;
  statements.push(db.prepare(`UPDATE shipments SET ${sets.join(", ")} WHERE ${where} AND ${orderCondition} RETURNING id`).bind(...values));
  const updateAt = statements.length - 1;
  if (move.then) statements.push(move.then(db));

  const results = await db.batch<{ id: string }>(statements);
  const moved = results[updateAt].results.length > 0;
  if (moved && orderMoves) await afterOrderMove(env, order, orderTo!, orderAction!);
  else if (moved) await announceParcel(env, (await shipmentRow(db, shipment.id))!, to);
  return { moved, orderAction: moved && orderMoves ? orderAction : null, order };
}
