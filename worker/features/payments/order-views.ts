// What the buyer, the seller and staff see of held money (docs/decisions/105-held-payments.md):
// an order's state with the buttons its lifecycle allows, the chat's cards, moderators' cases and
// the case's photos (decision 108).
import { cancelAllowedFrom, orderActionsFor, orderMove, isFinalOrderState } from "../../../domain/orders";
import { ORDER_ERROR_TEXTS, PROBLEM_PHOTO_REFUSALS } from "../../../domain/order-texts";
import type { OrderCase, OrderView } from "../../../domain/order-views";
import { ANONYMOUS_NAME, DELETED_USER_NAME } from "../../../domain/chat";
import { hasStaffRights, paymentCaseTarget, staffRefusal } from "../../../domain/moderation";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { Actor, Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { enforceBindingLimit } from "../../lib/rate-limit";
import { messagePageFor } from "../chat/live";
import { problemPhotoUrl, readProblemPhoto, storeProblemPhoto } from "./problem-photos";

import { moveMoney } from "./order-money";
import { handoverOf, orderRow, ROW_SQL, type OrderRow, type ShipmentFacts } from "./order-rows";
import { SHIPMENT_TEXTS, shipmentMove, type ShipmentView } from "../../../domain/shipping";

export const notFound = () => new AppError("NOT_FOUND", ORDER_ERROR_TEXTS.notFound);

/** The viewer's part in the order; staff (with staff rights) only where the buyer has opened a case. Null: not theirs to see. */
export function roleOf(row: OrderRow, actor: Actor): "buyer" | "seller" | "moderator" | null {
  if (row.buyer_id === actor.id) return "buyer";
  if (row.seller_id === actor.id) return "seller";
  if (hasStaffRights(actor) && row.problem_at) return "moderator";
  return null;
}

/** Why the staff rule (decision 085) refuses `actor` a decision on this order's case; null: it does not. */
export function caseRefusal(row: OrderRow, actor: Pick<Actor, "id" | "role" | "suspended">) {
  const target = paymentCaseTarget(
    actor.id,
    { id: row.buyer_id, role: row.buyer_role ?? "user" },
    { id: row.seller_id, role: row.seller_role ?? "user" },
  );
  return staffRefusal(actor, "decide_payment_case", target);
}

function photosOf(row: OrderRow): OrderView["photos"] {
  const ids = JSON.parse(row.photo_ids || "[]") as string[];
  return ids.map((id) => ({ id, url: problemPhotoUrl(row.id, id) }));
}

/** What `role` sees of the order now, with the buttons the lifecycle and its times allow. */
export function orderViewFor(row: OrderRow, role: "buyer" | "seller" | "moderator", now: Date = new Date()): OrderView {
  const handover = handoverOf(row);
  // A sent order is cancelled by its parcel's drop-off deadline, never by the buyer (decision 153).
  const cancelFrom = row.state === "held" && handover === "in_person" ? cancelAllowedFrom(row.paid_at) : null;
  const actions = orderActionsFor(row.state, role, handover).filter(
    (a) => a !== "cancel_no_handover" || (cancelFrom !== null && Date.parse(cancelFrom) <= now.getTime()),
  );
  return {
    order_id: row.id,
    state: row.state,
    role,
    amount: row.amount,
    refund_amount: row.refund_amount,
    paid_at: row.paid_at,
    handed_over_at: row.handed_over_at,
    release_due_at: row.release_due_at,
    cancel_from: cancelFrom,
    settled_at: row.settled_at,
    money_moved: row.money_moved_at !== null,
    payout_error: role === "seller" ? row.payout_error : null,
    actions,
    listing: { id: row.listing_id, title: row.title, seo_slug: row.seo_slug },
    conversation_id: row.conversation_id,
    photos: photosOf(row),
    shipment: shipmentOf(row, role),
  };
}

/** The parcel as `role` sees it: the code and the carrier's refusal are the seller's to act on. */
function shipmentOf(row: OrderRow, role: "buyer" | "seller" | "moderator"): ShipmentView | null {
  if (!row.shipment_json) return null;
  const s = JSON.parse(row.shipment_json) as ShipmentFacts;
  const seller = role === "seller";
  return {
    carrier: s.carrier,
    delivery: s.method,
    parcel_size: s.parcel_size,
    state: s.state,
    toy_price: row.amount - s.shipping_price,
    shipping_price: s.shipping_price,
    pickup_point: s.pickup_point_name ? { name: s.pickup_point_name, address: s.pickup_point_address ?? "" } : null,
    recipient: {
      name: s.recipient_name ?? "",
      address_line: s.recipient_address_line ?? "",
      postal_code: s.recipient_postal_code ?? "",
      city: s.recipient_city ?? "",
    },
    shipment_number: s.shipment_number,
    drop_off_code: seller || role === "moderator" ? s.drop_off_code : null,
    drop_off_deadline: s.drop_off_deadline,
    booking_error: seller && s.state === "booking_failed" ? (s.last_booking_error ?? SHIPMENT_TEXTS.bookingFailedSeller) : null,
    can_retry: role !== "moderator" && shipmentMove(s.state, role, "retry_booking").ok,
  };
}

export async function orderForViewer(env: Bindings, actor: Actor, orderId: string): Promise<OrderView> {
  const db = env.DB;
  const row = await orderRow(db, orderId);
  const role = row ? roleOf(row, actor) : null;
  if (!row || !role) throw notFound();
  if (isFinalOrderState(row.state) && !row.money_moved_at) {
    // A decided order whose money a crash or a provider left unmoved: finish it now rather than at
    // the next cron run (the same idempotent calls), as the result pages finish a sale's follow-ups.
    await moveMoney(env, row.id).catch((error: unknown) =>
      console.warn("Held money still not moved", row.id, error instanceof Error ? error.message : error),
    );
    return orderViewFor((await orderRow(db, orderId))!, role);
  }
  return orderViewFor(row, role);
}

/** The orders of a conversation the viewer is a party to (the chat's card). */
export async function ordersInConversation(env: Bindings, actor: Actor, conversationId: string): Promise<OrderView[]> {
  const { results } = await env.DB.prepare(
    `${ROW_SQL} WHERE t.conversation_id = ?1 AND (p.buyer_id = ?2 OR p.seller_id = ?2) ORDER BY t.paid_at`,
  )
    .bind(conversationId, actor.id)
    .all<OrderRow>();
  return results.map((row) => orderViewFor(row, row.buyer_id === actor.id ? "buyer" : "seller"));
}

/** /moderation: open cases first (oldest first), then the 20 decided most recently, with both parties' chat. */
export async function orderCases(env: Bindings, actor: Actor): Promise<OrderCase[]> {
  const { results } = await env.DB.prepare(
    `${ROW_SQL} WHERE t.problem_at IS NOT NULL AND t.id IN (
       SELECT id FROM (SELECT id FROM orders WHERE state = 'problem' ORDER BY problem_at LIMIT 100)
       UNION SELECT id FROM (SELECT id FROM orders WHERE problem_at IS NOT NULL AND state <> 'problem' ORDER BY settled_at DESC LIMIT 20))
     ORDER BY t.state <> 'problem', t.problem_at`,
  ).all<OrderRow>();
  const cases: OrderCase[] = [];
  for (const row of results) {
    // The chat as the buyer sees it, read through the chat feature from its room (which has every
    // acknowledged message, mirrored to D1 or not: decision 107).
    const messages = row.conversation_id ? (await messagePageFor(env, row.conversation_id, row.buyer_id, undefined, 50)).messages : [];
    const party = (name: string | null, deleted: string | null) => (deleted ? DELETED_USER_NAME : name?.trim() || ANONYMOUS_NAME);
    // Where the staff rule refuses this staff member (a party, or staff on either side for a
    // moderator), the case is shown without its buttons; the dashboard says why.
    const view = orderViewFor(row, "moderator");
    cases.push({
      ...view,
      actions: caseRefusal(row, actor) ? [] : view.actions,
      problem_reason: row.problem_reason ?? "other",
      problem_text: row.problem_text ?? "",
      problem_at: row.problem_at!,
      provider: row.provider === "stripe" ? "card" : "vipps",
      buyer: { id: row.buyer_id, display_name: party(row.buyer_name, row.buyer_deleted), role: row.buyer_role ?? "user" },
      seller: { id: row.seller_id, display_name: party(row.seller_name, row.seller_deleted), role: row.seller_role ?? "user" },
      messages: messages.map((m) => ({
        id: m.id,
        sender: m.sender_id === row.buyer_id ? "buyer" : m.sender_id === row.seller_id ? "seller" : "system",
        content: m.content,
        created_at: m.created_at,
      })),
    });
  }
  return cases;
}

/**
 * A photo for "Meld fra om et problem": only the order's buyer, only while a problem can still be
 * reported (the lifecycle's own refusals otherwise), within the upload rate limit. Checked and
 * cleaned as every photo (worker/lib/photo-upload.ts).
 */
export async function uploadProblemPhoto(env: Bindings, actor: Actor, orderId: string, request: Request) {
  const db = env.DB;
  const row = await orderRow(db, orderId);
  const role = row ? roleOf(row, actor) : null;
  if (!row || !role) throw notFound();
  const move = orderMove(row.state, role, "report_problem", handoverOf(row));
  if (!move.ok) throw new AppError(move.status === 403 ? "FORBIDDEN" : "CONFLICT", move.message);
  await enforceBindingLimit(env, RATE_RULES.upload, actor.id);
  return storeProblemPhoto(env, actor.id, row.id, request);
}

/** A report's photo for its buyer, its seller and staff with staff rights (the case); anyone else 404. */
export async function problemPhotoForViewer(env: Bindings, actor: Actor, orderId: string, photoId: string | null) {
  const row = await orderRow(env.DB, orderId);
  if (!row || !roleOf(row, actor)) throw notFound();
  const photo = photoId ? await readProblemPhoto(env, row.id, photoId) : null;
  if (!photo) throw new AppError("NOT_FOUND", PROBLEM_PHOTO_REFUSALS.notFound);
  return photo;
}
