// Held money (docs/decisions/105-held-payments.md; the lifecycle is domain/orders.ts). A paid order's
// money stays with Lekebytte (a card charge on the platform, a Vipps reservation) until the buyer
// has the toy. Who may move it, and to where, is decided in D1 by one conditional update per move:
// of any number of simultaneous moves (confirm, problem, cron, refund, account deletion) exactly
// one changes the state. Then the money follows the decided state through the providers, each call
// with an idempotency key derived from the order, retried by the cron until acknowledged; the
// decided state never changes again, so the same call is repeated, never a different one.
import {
  autoReleaseAt,
  cancelAllowedFrom,
  ORDER_TRANSITIONS,
  orderMove,
  isFinalOrderState,
  isFullRefund,
  REMINDER_HOURS_BEFORE,
  CANCEL_AFTER_DAYS,
  type OrderAction,
  type OrderActor,
  type OrderState,
} from "../../../domain/orders";
import { ORDER_ERROR_TEXTS, type ProblemReason } from "../../../domain/order-texts";
import type { OrderView } from "../../../domain/order-views";
import { formatDateTime } from "../../../domain/format";
import { deliveredReleaseAt } from "../../../domain/shipping";
import { isStaffRole, staffRefusalMessage } from "../../../domain/moderation";
import type { Db } from "../../db/client";
import type { Actor, Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { listingsChanged } from "../../lib/listing-changes";
import { sendMail } from "../mail/mail";
import { releaseReminderMail } from "./order-mail";
import { attachedAllSql, attachPhotosStatement, checkProblemPhotos, removeUnusedProblemPhotos } from "./problem-photos";

import { announce } from "./order-announce";
import { moveMoney } from "./order-money";
import { cancelParcelsOf } from "./order-parcel";
import { handoverOf, orderRow, type OrderRow } from "./order-rows";
import { caseRefusal, orderViewFor, notFound, roleOf } from "./order-views";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface OrderInput {
  reason?: ProblemReason;
  text?: string;
  /** Øre given back in a partial refund. */
  refundAmount?: number;
  /** The problem report's photos: ids of this buyer's uploads for the order. */
  photos?: string[];
}

/**
 * One move of the held money by a person or by the Worker itself. Refused with the lifecycle's own
 * text; decided by a conditional update, so of simultaneous moves exactly one wins and the others
 * are answered with the refusal for the state it left behind.
 */
export async function actOnOrder(
  env: Bindings,
  by: Actor | "system",
  orderId: string,
  action: OrderAction,
  input: OrderInput = {},
  now: Date = new Date(),
): Promise<OrderView | null> {
  const db = env.DB;
  const row = await orderRow(db, orderId);
  if (!row) throw notFound();
  let actor: OrderActor = "system";
  if (by !== "system") {
    const role = roleOf(row, by);
    if (!role) throw notFound();
    // A case is decided under the staff rule (decision 085): not by a party, not by suspended staff,
    // and where either party is staff only by an admin.
    if (isStaffRole(by.role) && ORDER_TRANSITIONS[action].some((t) => t.by.includes("moderator"))) {
      const refusal = caseRefusal(row, by);
      if (refusal) throw new AppError("FORBIDDEN", staffRefusalMessage(refusal, "decide_payment_case"));
    }
    actor = role;
  }
  const move = orderMove(row.state, actor, action, handoverOf(row));
  if (!move.ok) throw new AppError(move.status === 403 ? "FORBIDDEN" : "CONFLICT", move.message);

  const nowIso = now.toISOString();
  if (action === "cancel_no_handover" && Date.parse(cancelAllowedFrom(row.paid_at)) > now.getTime())
    throw new AppError("CONFLICT", ORDER_ERROR_TEXTS.cancelTooEarly(formatDateTime(cancelAllowedFrom(row.paid_at))));
  if (action === "auto_release" && (!row.release_due_at || Date.parse(row.release_due_at) > now.getTime()))
    throw new AppError("CONFLICT", ORDER_ERROR_TEXTS.notDue);
  if (action === "partial_refund") {
    const refund = input.refundAmount ?? 0;
    if (!Number.isInteger(refund) || refund <= 0 || refund >= row.amount)
      throw new AppError("VALIDATION", ORDER_ERROR_TEXTS.refundTooLarge);
  }

  if (action === "report_problem" && by !== "system") await checkProblemPhotos(env.DB, row.id, by.id, input.photos ?? []);

  const decidedBy = actor === "moderator" && by !== "system" ? by.id : null;
  const { statements, decisive } = orderDecision(db, row, move.to, action, input, nowIso, decidedBy);
  // A report with photos: they are attached first in the same batch (orderDecision's guard checks them).
  const photos = move.to === "problem" ? (input.photos ?? []) : [];
  if (photos.length > 0) statements.unshift(attachPhotosStatement(db, row.id, row.buyer_id, photos, row.state, nowIso));
  const results = await db.batch<{ id: string }>(statements);
  const changed = results[decisive + (photos.length > 0 ? 1 : 0)].results.length > 0;
  if (!changed) {
    // Someone else moved it first: explain with the state it is in now.
    const fresh = await orderRow(db, orderId);
    const again = fresh ? orderMove(fresh.state, actor, action, handoverOf(fresh)) : null;
    if (again && !again.ok) throw new AppError(again.status === 403 ? "FORBIDDEN" : "CONFLICT", again.message);
    // Still reportable: a photo was taken in the meantime (the cron, or another report); say which.
    if (action === "report_problem" && by !== "system") await checkProblemPhotos(env.DB, row.id, by.id, input.photos ?? []);
    throw new AppError("CONFLICT", ORDER_ERROR_TEXTS.concurrent);
  }

  await afterOrderMove(env, row, move.to, action);
  if (by === "system") return null;
  return orderViewFor((await orderRow(db, orderId))!, actor as "buyer" | "seller" | "moderator", now);
}

/**
 * What a decided move does once D1 holds it: all the money back puts the listing on sale again (its
 * pages say so at once), a final state moves the money, and both parties are told. A parcel's move
 * (worker/features/shipping) runs this too after its own batch.
 */
export async function afterOrderMove(env: Bindings, row: OrderRow, to: OrderState, action: OrderAction): Promise<void> {
  if (isFullRefund(to)) await listingsChanged(env, [{ id: row.listing_id, user_id: row.seller_id }]);
  const after = (await orderRow(env.DB, row.id))!;
  if (isFinalOrderState(after.state)) {
    await moveMoney(env, row.id).catch((error: unknown) =>
      console.error("Held money not moved yet; the cron retries", row.id, error instanceof Error ? error.message : error),
    );
  }
  await announce(env, after, action).catch((error: unknown) =>
    console.error("Could not announce a held-money change", row.id, action, error instanceof Error ? error.message : error),
  );
}

/**
 * The statements of one decided move, for a batch: the order's conditional update (index `decisive`,
 * RETURNING the id when it changed) and, for a full refund, the listing and the payment, which
 * follow only that update. `guard` adds a condition of the caller's to the update (a parcel's move
 * requires its shipment still where it was read), its values bound through `param`.
 */
export function orderDecision(
  db: Db,
  row: OrderRow,
  to: OrderState,
  action: OrderAction,
  input: OrderInput,
  now: string,
  decidedBy: string | null,
  guardOf?: (param: (value: unknown) => string) => string,
): { statements: D1PreparedStatement[]; decisive: number } {
  const sets: string[] = [];
  const values: unknown[] = [row.id, to, row.state, now];
  const param = (value: unknown) => {
    values.push(value);
    return `?${values.length}`;
  };
  const add = (sql: string, value: unknown) => sets.push(`${sql} = ${param(value)}`);
  let guard = "";
  switch (to) {
    case "handed_over":
      add("handed_over_at", now);
      // The same 48 hours after a carrier's delivered as after a handover by hand (decision 145).
      add("release_due_at", action === "parcel_delivered" ? deliveredReleaseAt(now) : autoReleaseAt(now));
      break;
    case "problem":
      add("problem_reason", input.reason ?? "other");
      add("problem_text", input.text ?? "");
      add("problem_at", now);
      break;
    default:
      add("settled_at", now);
      add("decided_by", decidedBy);
      add("refund_amount", isFullRefund(to) ? row.amount : to === "partially_refunded" ? input.refundAmount! : 0);
  }
  // The times are part of the condition too: a cron run late or a click early changes nothing.
  if (action === "auto_release") guard = " AND release_due_at <= ?4";
  if (action === "cancel_no_handover") {
    values.push(new Date(Date.parse(now) - CANCEL_AFTER_DAYS * DAY_MS).toISOString());
    guard = ` AND paid_at <= ?${values.length}`;
  }
  // A report with photos: they are attached first in the same batch, and the case opens only if all were.
  const photos = to === "problem" ? (input.photos ?? []) : [];
  if (photos.length > 0) guard += ` AND ${attachedAllSql("?4", photos.length)}`;
  if (guardOf) guard += ` AND ${guardOf(param)}`;
  const update = db
    .prepare(`UPDATE orders SET state = ?2, ${sets.join(", ")} WHERE id = ?1 AND state = ?3${guard} RETURNING id`)
    .bind(...values);
  if (!isFullRefund(to)) return { statements: [update], decisive: 0 };
  // All the money back: the listing is for sale again and the payment no longer holds it (checkout
  // and settlement look for a completed payment). Only this batch's decision (settled now) counts.
  const decided = "EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND state IN ('refunded', 'cancelled') AND settled_at = ?3)";
  // A parcel's own expiry writes its shipment itself (worker/features/shipping/shipment-moves.ts);
  // any other full refund cancels a parcel not handed in yet.
  const parcel =
    action === "parcel_not_handed_in"
      ? []
      : [
          cancelParcelsOf(
            db,
            "SELECT id FROM orders WHERE id = ?1 AND state IN ('refunded', 'cancelled') AND settled_at = ?2",
            [row.id, now],
            now,
          ),
        ];
  return {
    statements: [
      update,
      ...parcel,
      db
        .prepare(`UPDATE listings SET status = 'active', updated_at = ?3 WHERE id = ?2 AND status = 'sold' AND ${decided}`)
        .bind(row.id, row.listing_id, now),
      db
        .prepare(`UPDATE payments SET status = 'refunded', updated_at = ?3 WHERE id = ?2 AND status = 'completed' AND ${decided}`)
        .bind(row.id, row.payment_id, now),
    ],
    decisive: 0,
  };
}

/**
 * The account of a deleted seller can receive nothing: their held orders are refunded. Statements
 * for the deletion's own batch (worker/features/account/account.ts), so the deletion and these
 * refunds happen together or not at all, and a buyer's confirmation at the same moment either comes
 * first (released, paid to the account as it was) or finds the order refunded.
 */
/** The payments made to the seller ?1 (an order's parties are its payment's). */
const PAYMENTS_TO_SELLER = "SELECT id FROM payments WHERE seller_id = ?1";

export function refundHeldOrdersOf(d1: Db, sellerId: string, now: string): D1PreparedStatement[] {
  const from = ORDER_TRANSITIONS.seller_account_deleted.map((t) => `'${t.from}'`).join(", ");
  const decided = `SELECT id FROM orders WHERE payment_id IN (${PAYMENTS_TO_SELLER}) AND state = 'refunded' AND settled_at = ?2 AND decided_by IS NULL`;
  return [
    d1
      .prepare(
        `UPDATE orders SET state = 'refunded', settled_at = ?2, refund_amount = (SELECT amount FROM payments WHERE id = orders.payment_id)
         WHERE payment_id IN (${PAYMENTS_TO_SELLER}) AND state IN (${from})`,
      )
      .bind(sellerId, now),
    d1
      .prepare(
        `UPDATE payments SET status = 'refunded', updated_at = ?2 WHERE id IN (SELECT payment_id FROM orders WHERE id IN (${decided}))`,
      )
      .bind(sellerId, now),
    cancelParcelsOf(d1, decided, [sellerId, now], now),
  ];
}

/** After a seller's deletion: give the buyers their money and tell them. */
export async function afterSellerDeleted(env: Bindings, sellerId: string, now: string): Promise<void> {
  const { results } = await env.DB.prepare(
    `SELECT id FROM orders WHERE payment_id IN (${PAYMENTS_TO_SELLER}) AND state = 'refunded' AND settled_at = ?2 AND money_moved_at IS NULL`,
  )
    .bind(sellerId, now)
    .all<{ id: string }>();
  for (const { id } of results) {
    try {
      await moveMoney(env, id);
    } catch (error) {
      console.error("Refund after a seller's deletion not made yet; the cron retries", id, error instanceof Error ? error.message : error);
    }
    const row = await orderRow(env.DB, id);
    if (row) await announce(env, row, "seller_account_deleted").catch((e: unknown) => console.error("Could not announce", id, e));
  }
}

/**
 * Hourly: remind buyers 24 hours before an automatic release, release what is due, and retry the
 * money of decided orders that a provider has not acknowledged yet. Returns how many orders changed.
 */
export async function runOrderCron(env: Bindings, now: Date = new Date(), limit = 50): Promise<number> {
  const d1 = env.DB;
  const nowIso = now.toISOString();
  // Reminders: claimed before sending, released again if the mail fails (so it is sent once).
  const reminderBefore = new Date(now.getTime() + REMINDER_HOURS_BEFORE * HOUR_MS).toISOString();
  const { results: toRemind } = await d1
    .prepare(
      `UPDATE orders SET reminder_sent_at = ?1
       WHERE id IN (SELECT id FROM orders WHERE state = 'handed_over' AND reminder_sent_at IS NULL
                    AND release_due_at <= ?2 AND release_due_at > ?1 LIMIT ?3)
       RETURNING id`,
    )
    .bind(nowIso, reminderBefore, limit)
    .all<{ id: string }>();
  for (const { id } of toRemind) {
    const row = await orderRow(d1, id);
    if (!row || row.buyer_deleted) continue;
    try {
      await sendMail(
        env,
        releaseReminderMail(env, {
          to: row.buyer_email,
          name: row.buyer_name?.trim() || "der",
          title: row.title,
          conversationId: row.conversation_id,
          releaseAt: row.release_due_at!,
        }),
      );
    } catch (error) {
      await d1.prepare("UPDATE orders SET reminder_sent_at = NULL WHERE id = ?1").bind(id).run();
      console.error("Release reminder not sent; next run retries", id, error instanceof Error ? error.message : error);
    }
  }

  const { results: due } = await d1
    .prepare("SELECT id FROM orders WHERE state = 'handed_over' AND release_due_at <= ?1 ORDER BY release_due_at LIMIT ?2")
    .bind(nowIso, limit)
    .all<{ id: string }>();
  let changed = 0;
  for (const { id } of due) {
    try {
      await actOnOrder(env, "system", id, "auto_release", {}, now);
      changed += 1;
    } catch (error) {
      // Moved by someone else in the meantime (a problem, a confirmation): nothing to do.
      if (!(error instanceof AppError)) console.error("Automatic release failed", id, error instanceof Error ? error.message : error);
    }
  }

  const { results: unmoved } = await d1
    .prepare("SELECT id FROM orders WHERE money_moved_at IS NULL AND settled_at IS NOT NULL ORDER BY settled_at LIMIT ?1")
    .bind(limit)
    .all<{ id: string }>();
  for (const { id } of unmoved) {
    await moveMoney(env, id).catch((error: unknown) =>
      console.warn("Held money still not moved", id, error instanceof Error ? error.message : error),
    );
  }
  // Problem photos uploaded for a report that was refused or never sent (decision 108).
  await removeUnusedProblemPhotos(env, now).catch((error: unknown) =>
    console.warn("Unused problem photos not removed yet", error instanceof Error ? error.message : error),
  );
  return changed + toRemind.length;
}
