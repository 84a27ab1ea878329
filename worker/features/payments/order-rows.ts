// A held-money order as the code that moves its money reads it (docs/decisions/105-held-payments.md): the
// order with its payment, listing and parties, in one row.
import type { OrderState, ProblemReason } from "../../../domain/orders";
import type { Role } from "../../../domain/taxonomy";
import type { Db } from "../../db/client";

export interface OrderRow {
  id: string;
  payment_id: string;
  listing_id: string;
  seller_id: string;
  buyer_id: string;
  amount: number;
  currency: string;
  paid_at: string;
  platform_fee: number;
  conversation_id: string | null;
  state: OrderState;
  payout_account: string | null;
  handed_over_at: string | null;
  release_due_at: string | null;
  reminder_sent_at: string | null;
  problem_reason: ProblemReason | null;
  problem_text: string | null;
  problem_at: string | null;
  settled_at: string | null;
  refund_amount: number;
  transfer_ref: string | null;
  refund_ref: string | null;
  money_moved_at: string | null;
  payout_error: string | null;
  payout_error_notified_at: string | null;
  provider: "stripe" | "vipps";
  provider_ref: string;
  provider_payment_ref: string | null;
  title: string;
  seo_slug: string;
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
}

export const ROW_SQL = `SELECT t.id, t.payment_id, t.listing_id, t.seller_id, t.buyer_id, t.amount, t.currency, t.paid_at, t.platform_fee, t.conversation_id,
       t.state, t.payout_account, t.handed_over_at, t.release_due_at, t.reminder_sent_at, t.problem_reason, t.problem_text,
       t.problem_at, t.settled_at, t.refund_amount, t.transfer_ref, t.refund_ref, t.money_moved_at, t.payout_error,
       t.payout_error_notified_at, p.provider, p.provider_ref, p.provider_payment_ref, l.title, l.seo_slug,
       bu.email AS buyer_email, bp.display_name AS buyer_name, bu.deleted_at AS buyer_deleted,
       su.email AS seller_email, sp.display_name AS seller_name, su.deleted_at AS seller_deleted,
       bp.role AS buyer_role, sp.role AS seller_role,
       (SELECT json_group_array(id) FROM (SELECT id FROM problem_photos WHERE order_id = t.id AND attached_at IS NOT NULL ORDER BY position)) AS photo_ids
FROM orders t
JOIN payments p ON p.id = t.payment_id
JOIN listings l ON l.id = t.listing_id
JOIN users bu ON bu.id = t.buyer_id
JOIN users su ON su.id = t.seller_id
LEFT JOIN profiles bp ON bp.user_id = t.buyer_id
LEFT JOIN profiles sp ON sp.user_id = t.seller_id`;

export async function orderRow(db: Db, orderId: string): Promise<OrderRow | null> {
  return db.prepare(`${ROW_SQL} WHERE t.id = ?1`).bind(orderId).first<OrderRow>();
}
