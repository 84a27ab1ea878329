// Held money (docs/decisions/105-held-payments.md; the lifecycle is domain/escrow.ts). A paid order's
// money stays with Lekebytte (a card charge on the platform, a Vipps reservation) until the buyer
// has the toy. Who may move it, and to where, is decided in D1 by one conditional update per move:
// of any number of simultaneous moves (confirm, problem, cron, refund, account deletion) exactly
// one changes the state. Then the money follows the decided state through the providers, each call
// with an idempotency key derived from the order, retried by the cron until acknowledged; the
// decided state never changes again, so the same call is repeated, never a different one.
import {
  autoReleaseAt,
  cancelAllowedFrom,
  ESCROW_CHAT_TEXTS,
  ESCROW_ERROR_TEXTS,
  ESCROW_TRANSITIONS,
  escrowActionsFor,
  escrowMove,
  isFinalEscrowState,
  isFullRefund,
  partialPayout,
  PAYOUT_FIX_TEXT,
  PROBLEM_PHOTO_REFUSALS,
  PROBLEM_REASON_LABELS,
  REMINDER_HOURS_BEFORE,
  CANCEL_AFTER_DAYS,
  type EscrowAction,
  type EscrowActor,
  type EscrowCase,
  type EscrowState,
  type EscrowView,
  type ProblemReason,
} from "../../../domain/escrow";
import { formatDateTime, formatMinorUnits } from "../../../domain/format";
import { ANONYMOUS_NAME, DELETED_USER_NAME, ORDER_EVENT } from "../../../domain/messaging";
import { hasStaffRights, isStaffRole, paymentCaseTarget, staffRefusal, staffRefusalMessage } from "../../../domain/moderation";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { Role } from "../../../domain/taxonomy";
import { getDb, type Db } from "../../db/client";
import type { Actor, Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { enforceRateLimit } from "../../lib/rate-limit";
import { postSystemMessage, pushConversationEvent } from "../chat/live";
import { messagePage } from "../chat/messages";
import { sendMail } from "../mail/mail";
import { stripeConfig, vippsConfig } from "./config";
import { escrowChangeMail, payoutFailedMail, releaseReminderMail } from "./escrow-mail";
import {
  attachedAllSql,
  attachPhotosStatement,
  checkProblemPhotos,
  problemPhotoUrl,
  readProblemPhoto,
  removeUnusedProblemPhotos,
  storeProblemPhoto,
} from "./problem-photos";
import { stableUuid, transferGroup } from "./store";
import { stripeClient, type Stripe } from "./stripe-client";
import { VippsClient, VippsError } from "./vipps-client";

export interface EscrowRow {
  id: string;
  payment_id: string;
  ad_id: string;
  seller_id: string;
  buyer_id: string;
  amount: number;
  currency: string;
  paid_at: string;
  platform_fee: number;
  conversation_id: string | null;
  escrow_state: EscrowState;
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
  escrow_refund_ref: string | null;
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

const ROW_SQL = `SELECT t.id, t.payment_id, t.ad_id, t.seller_id, t.buyer_id, t.amount, t.currency, t.paid_at, t.platform_fee, t.conversation_id,
       t.escrow_state, t.payout_account, t.handed_over_at, t.release_due_at, t.reminder_sent_at, t.problem_reason, t.problem_text,
       t.problem_at, t.settled_at, t.refund_amount, t.transfer_ref, t.escrow_refund_ref, t.money_moved_at, t.payout_error,
       t.payout_error_notified_at, p.provider, p.provider_ref, p.provider_payment_ref, l.title, l.seo_slug,
       bu.email AS buyer_email, bp.display_name AS buyer_name, bu.deleted_at AS buyer_deleted,
       su.email AS seller_email, sp.display_name AS seller_name, su.deleted_at AS seller_deleted,
       bp.role AS buyer_role, sp.role AS seller_role,
       (SELECT json_group_array(id) FROM (SELECT id FROM problem_photos WHERE transaction_id = t.id AND attached_at IS NOT NULL ORDER BY position)) AS photo_ids
FROM transactions t
JOIN payments p ON p.id = t.payment_id
JOIN listings l ON l.id = t.ad_id
JOIN users bu ON bu.id = t.buyer_id
JOIN users su ON su.id = t.seller_id
LEFT JOIN profiles bp ON bp.user_id = t.buyer_id
LEFT JOIN profiles sp ON sp.user_id = t.seller_id`;

export async function escrowRow(db: Db, transactionId: string): Promise<EscrowRow | null> {
  return db.$client.prepare(`${ROW_SQL} WHERE t.id = ?1`).bind(transactionId).first<EscrowRow>();
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const notFound = () => new AppError("NOT_FOUND", ESCROW_ERROR_TEXTS.notFound);

/** The viewer's part in the order; staff (with staff rights) only where the buyer has opened a case. Null: not theirs to see. */
function roleOf(row: EscrowRow, actor: Actor): "buyer" | "seller" | "moderator" | null {
  if (row.buyer_id === actor.id) return "buyer";
  if (row.seller_id === actor.id) return "seller";
  if (hasStaffRights(actor) && row.problem_at) return "moderator";
  return null;
}

/** Why the staff rule (decision 085) refuses `actor` a decision on this order's case; null: it does not. */
function caseRefusal(row: EscrowRow, actor: Pick<Actor, "id" | "role" | "suspended">) {
  const target = paymentCaseTarget(
    actor.id,
    { id: row.buyer_id, role: row.buyer_role ?? "user" },
    { id: row.seller_id, role: row.seller_role ?? "user" },
  );
  return staffRefusal(actor, "decide_payment_case", target);
}

function photosOf(row: EscrowRow): EscrowView["photos"] {
  const ids = JSON.parse(row.photo_ids || "[]") as string[];
  return ids.map((id) => ({ id, url: problemPhotoUrl(row.id, id) }));
}

/** What `role` sees of the order now, with the buttons the lifecycle and its times allow. */
export function escrowView(row: EscrowRow, role: "buyer" | "seller" | "moderator", now: Date = new Date()): EscrowView {
  const cancelFrom = row.escrow_state === "held" ? cancelAllowedFrom(row.paid_at) : null;
  const actions = escrowActionsFor(row.escrow_state, role).filter(
    (a) => a !== "cancel_no_handover" || (cancelFrom !== null && Date.parse(cancelFrom) <= now.getTime()),
  );
  return {
    transaction_id: row.id,
    state: row.escrow_state,
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
    listing: { id: row.ad_id, title: row.title, seo_slug: row.seo_slug },
    conversation_id: row.conversation_id,
    photos: photosOf(row),
  };
}

export interface EscrowInput {
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
export async function actOnEscrow(
  env: Bindings,
  by: Actor | "system",
  transactionId: string,
  action: EscrowAction,
  input: EscrowInput = {},
  now: Date = new Date(),
): Promise<EscrowView | null> {
  const db = getDb(env.DB);
  const row = await escrowRow(db, transactionId);
  if (!row) throw notFound();
  let actor: EscrowActor = "system";
  if (by !== "system") {
    const role = roleOf(row, by);
    if (!role) throw notFound();
    // A case is decided under the staff rule (decision 085): not by a party, not by suspended staff,
    // and where either party is staff only by an admin.
    if (isStaffRole(by.role) && ESCROW_TRANSITIONS[action].some((t) => t.by.includes("moderator"))) {
      const refusal = caseRefusal(row, by);
      if (refusal) throw new AppError("FORBIDDEN", staffRefusalMessage(refusal, "decide_payment_case"));
    }
    actor = role;
  }
  const move = escrowMove(row.escrow_state, actor, action);
  if (!move.ok) throw new AppError(move.status === 403 ? "FORBIDDEN" : "CONFLICT", move.message);

  const nowIso = now.toISOString();
  if (action === "cancel_no_handover" && Date.parse(cancelAllowedFrom(row.paid_at)) > now.getTime())
    throw new AppError("CONFLICT", ESCROW_ERROR_TEXTS.cancelTooEarly(formatDateTime(cancelAllowedFrom(row.paid_at))));
  if (action === "auto_release" && (!row.release_due_at || Date.parse(row.release_due_at) > now.getTime()))
    throw new AppError("CONFLICT", ESCROW_ERROR_TEXTS.notDue);
  if (action === "partial_refund") {
    const refund = input.refundAmount ?? 0;
    if (!Number.isInteger(refund) || refund <= 0 || refund >= row.amount)
      throw new AppError("VALIDATION", ESCROW_ERROR_TEXTS.refundTooLarge);
  }

  if (action === "report_problem" && by !== "system") await checkProblemPhotos(env.DB, row.id, by.id, input.photos ?? []);

  const decidedBy = actor === "moderator" && by !== "system" ? by.id : null;
  const changed = await decide(db, row, move.to, action, input, nowIso, decidedBy);
  if (!changed) {
    // Someone else moved it first: explain with the state it is in now.
    const fresh = await escrowRow(db, transactionId);
    const again = fresh ? escrowMove(fresh.escrow_state, actor, action) : null;
    if (again && !again.ok) throw new AppError(again.status === 403 ? "FORBIDDEN" : "CONFLICT", again.message);
    // Still reportable: a photo was taken in the meantime (the cron, or another report); say which.
    if (action === "report_problem" && by !== "system") await checkProblemPhotos(env.DB, row.id, by.id, input.photos ?? []);
    throw new AppError("CONFLICT", ESCROW_ERROR_TEXTS.concurrent);
  }

  const after = (await escrowRow(db, transactionId))!;
  if (isFinalEscrowState(after.escrow_state)) {
    await moveMoney(env, transactionId).catch((error: unknown) =>
      console.error("Held money not moved yet; the cron retries", transactionId, error instanceof Error ? error.message : error),
    );
  }
  await announce(env, after, action).catch((error: unknown) =>
    console.error("Could not announce a held-money change", transactionId, action, error instanceof Error ? error.message : error),
  );
  if (by === "system") return null;
  return escrowView((await escrowRow(db, transactionId))!, actor as "buyer" | "seller" | "moderator", now);
}

/** The conditional update (and, for a full refund, the listing and payment in the same batch). */
async function decide(
  db: Db,
  row: EscrowRow,
  to: EscrowState,
  action: EscrowAction,
  input: EscrowInput,
  now: string,
  decidedBy: string | null,
): Promise<boolean> {
  const d1 = db.$client;
  const sets: string[] = [];
  const values: unknown[] = [row.id, to, row.escrow_state, now];
  const add = (sql: string, value: unknown) => {
    values.push(value);
    sets.push(`${sql} = ?${values.length}`);
  };
  let guard = "";
  switch (to) {
    case "handed_over":
      add("handed_over_at", now);
      add("release_due_at", autoReleaseAt(now));
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
  const update = d1
    .prepare(`UPDATE transactions SET escrow_state = ?2, ${sets.join(", ")} WHERE id = ?1 AND escrow_state = ?3${guard} RETURNING id`)
    .bind(...values);
  if (photos.length > 0) {
    const [, opened] = await d1.batch<{ id: string }>([
      attachPhotosStatement(d1, row.id, row.buyer_id, photos, row.escrow_state, now),
      update,
    ]);
    return opened.results.length > 0;
  }
  if (!isFullRefund(to)) return (await update.first<{ id: string }>()) !== null;
  // All the money back: the listing is for sale again and the payment no longer holds it (checkout
  // and settlement look for a completed payment). Only this batch's decision (settled now) counts.
  const decided = "EXISTS (SELECT 1 FROM transactions WHERE id = ?1 AND escrow_state IN ('refunded', 'cancelled') AND settled_at = ?3)";
  const [changed] = await d1.batch<{ id: string }>([
    update,
    d1
      .prepare(`UPDATE listings SET status = 'active', updated_at = ?3 WHERE id = ?2 AND status = 'sold' AND ${decided}`)
      .bind(row.id, row.ad_id, now),
    d1
      .prepare(`UPDATE payments SET status = 'refunded', updated_at = ?3 WHERE id = ?2 AND status = 'completed' AND ${decided}`)
      .bind(row.id, row.payment_id, now),
  ]);
  return changed.results.length > 0;
}

/**
 * The account of a deleted seller can receive nothing: their held orders are refunded. Statements
 * for the deletion's own batch (worker/features/account/account.ts), so the deletion and these
 * refunds happen together or not at all, and a buyer's confirmation at the same moment either comes
 * first (released, paid to the account as it was) or finds the order refunded.
 */
export function refundHeldOrdersOf(d1: D1Database, sellerId: string, now: string): D1PreparedStatement[] {
  const from = ESCROW_TRANSITIONS.seller_account_deleted.map((t) => `'${t.from}'`).join(", ");
  const decided = `SELECT id FROM transactions WHERE seller_id = ?1 AND escrow_state = 'refunded' AND settled_at = ?2 AND decided_by IS NULL`;
  return [
    d1
      .prepare(
        `UPDATE transactions SET escrow_state = 'refunded', settled_at = ?2, refund_amount = amount
         WHERE seller_id = ?1 AND escrow_state IN (${from})`,
      )
      .bind(sellerId, now),
    d1
      .prepare(
        `UPDATE payments SET status = 'refunded', updated_at = ?2 WHERE id IN (SELECT payment_id FROM transactions WHERE id IN (${decided}))`,
      )
      .bind(sellerId, now),
  ];
}

/** After a seller's deletion: give the buyers their money and tell them. */
export async function afterSellerDeleted(env: Bindings, sellerId: string, now: string): Promise<void> {
  const { results } = await env.DB.prepare(
    "SELECT id FROM transactions WHERE seller_id = ?1 AND escrow_state = 'refunded' AND settled_at = ?2 AND money_moved_at IS NULL",
  )
    .bind(sellerId, now)
    .all<{ id: string }>();
  for (const { id } of results) {
    try {
      await moveMoney(env, id);
    } catch (error) {
      console.error("Refund after a seller's deletion not made yet; the cron retries", id, error instanceof Error ? error.message : error);
    }
    const row = await escrowRow(getDb(env.DB), id);
    if (row) await announce(env, row, "seller_account_deleted").catch((e: unknown) => console.error("Could not announce", id, e));
  }
}

// ---- money ---------------------------------------------------------------------------------------

/** What the decided state moves: øre back to the buyer, øre to the seller, øre captured (Vipps). */
function amountsOf(row: EscrowRow): { refund: number; payout: number; capture: number } {
  switch (row.escrow_state) {
    case "released":
      return { refund: 0, payout: row.amount - row.platform_fee, capture: row.amount };
    case "partially_refunded": {
      const { payout } = partialPayout(row.amount, row.refund_amount, row.platform_fee);
      return { refund: row.refund_amount, payout, capture: row.amount - row.refund_amount };
    }
    default:
      return { refund: row.amount, payout: 0, capture: 0 };
  }
}

/**
 * Make the provider calls of the decided outcome that are not yet acknowledged. Safe to run any
 * number of times, at the same moment too: every call carries a key derived from the order, so a
 * repeat is the provider's replay of the first, never a second movement of money.
 */
export async function moveMoney(env: Bindings, transactionId: string): Promise<void> {
  const db = getDb(env.DB);
  const row = await escrowRow(db, transactionId);
  if (!row || row.money_moved_at || !isFinalEscrowState(row.escrow_state)) return;
  const { refund, payout, capture } = amountsOf(row);
  let transferRef = row.transfer_ref;
  let refundRef = row.escrow_refund_ref;

  if (row.provider === "stripe") {
    const config = stripeConfig(env);
    if (!config || !row.provider_payment_ref) throw new Error(`cannot move money of ${row.id}: Stripe not configured or no PaymentIntent`);
    const stripe = stripeClient(config);
    if (refund > 0 && !refundRef) {
      refundRef = await stripeRefund(stripe, row, refund);
      await saveRef(db, row.id, "escrow_refund_ref", refundRef);
    }
    if (payout > 0 && !transferRef) {
      transferRef = await stripeTransfer(env, stripe, row, payout);
      if (!transferRef) return; // refused by the seller's account: held until it can receive
      await saveRef(db, row.id, "transfer_ref", transferRef);
    }
  } else {
    const config = vippsConfig(env);
    if (!config) throw new Error(`cannot move money of ${row.id}: Vipps not configured`);
    const vipps = new VippsClient(config);
    // Capture what the seller is paid (Lekebytte then owes it, decision 035), then release the rest
    // of the reservation back to the buyer; nothing was captured before, so nothing is refunded.
    if (capture > 0 && !transferRef) {
      const key = `capture-${row.id}`;
      await vipps.capture(row.provider_ref, { currency: row.currency, value: capture }, key);
      transferRef = key;
      await saveRef(db, row.id, "transfer_ref", key);
    }
    if (refund > 0 && !refundRef) {
      const key = `escrow-cancel-${row.id}`;
      try {
        await vipps.cancel(row.provider_ref, key);
      } catch (error) {
        // Already cancelled (an earlier attempt whose answer was lost, with the key forgotten): check.
        if (!(error instanceof VippsError)) throw error;
        const remote = await vipps.getPayment(row.provider_ref);
        const open =
          remote.aggregate.authorizedAmount.value - remote.aggregate.capturedAmount.value - remote.aggregate.cancelledAmount.value;
        if (open > 0) throw error;
      }
      refundRef = key;
      await saveRef(db, row.id, "escrow_refund_ref", key);
    }
  }
  await db.$client
    .prepare("UPDATE transactions SET money_moved_at = ?2, payout_error = NULL WHERE id = ?1 AND money_moved_at IS NULL")
    .bind(row.id, new Date().toISOString())
    .run();
}

async function saveRef(db: Db, id: string, column: "transfer_ref" | "escrow_refund_ref", ref: string): Promise<void> {
  await db.$client.prepare(`UPDATE transactions SET ${column} = ?2 WHERE id = ?1 AND ${column} IS NULL`).bind(id, ref).run();
}

async function stripeRefund(stripe: Stripe, row: EscrowRow, amount: number): Promise<string> {
  try {
    const refund = await stripe.refunds.create(
      {
        payment_intent: row.provider_payment_ref!,
        ...(amount < row.amount ? { amount } : {}),
        metadata: { payment_id: row.payment_id, transaction_id: row.id, reason: row.escrow_state },
      },
      { idempotencyKey: `escrow-refund-${row.id}` },
    );
    return refund.id;
  } catch (error) {
    // Refunded by an earlier attempt whose key the provider no longer remembers.
    if ((error as { code?: string }).code === "charge_already_refunded") return `already:${row.provider_payment_ref}`;
    throw error;
  }
}

/** The Transfer to the seller's account from this order's charge, or null when the account refused it. */
async function stripeTransfer(env: Bindings, stripe: Stripe, row: EscrowRow, amount: number): Promise<string | null> {
  if (!row.payout_account) {
    await payoutRefused(env, row, "no connected account");
    return null;
  }
  const intent = await stripe.paymentIntents.retrieve(row.provider_payment_ref!);
  const charge = typeof intent.latest_charge === "string" ? intent.latest_charge : intent.latest_charge?.id;
  try {
    const transfer = await stripe.transfers.create(
      {
        amount,
        currency: row.currency.toLowerCase(),
        destination: row.payout_account,
        transfer_group: transferGroup(row.payment_id),
        ...(charge ? { source_transaction: charge } : {}),
        metadata: { payment_id: row.payment_id, transaction_id: row.id },
      },
      { idempotencyKey: `transfer-${row.id}` },
    );
    return transfer.id;
  } catch (error) {
    const e = error as { type?: string; code?: string; param?: string };
    // The account cannot receive (capabilities, requirements, gone): the seller must act; anything
    // else (network, Stripe down) is thrown and retried as it is.
    if (e.type === "StripeInvalidRequestError" && (e.code === "insufficient_capabilities_for_transfer" || e.param === "destination")) {
      await payoutRefused(env, row, e.code ?? "destination");
      return null;
    }
    throw error;
  }
}

/** Keep the money held, and tell the seller once what to fix. */
async function payoutRefused(env: Bindings, row: EscrowRow, why: string): Promise<void> {
  console.warn("Transfer refused; the money stays held", row.id, why);
  const d1 = env.DB;
  await d1.prepare("UPDATE transactions SET payout_error = ?2 WHERE id = ?1").bind(row.id, PAYOUT_FIX_TEXT).run();
  if (row.seller_deleted) return;
  const claimed = await d1
    .prepare("UPDATE transactions SET payout_error_notified_at = ?2 WHERE id = ?1 AND payout_error_notified_at IS NULL RETURNING id")
    .bind(row.id, new Date().toISOString())
    .first();
  if (!claimed) return;
  await sendMail(
    env,
    payoutFailedMail(env, {
      to: row.seller_email,
      name: row.seller_name?.trim() || "der",
      title: row.title,
      conversationId: row.conversation_id,
      fix: PAYOUT_FIX_TEXT,
    }),
  );
}

/**
 * A provider's event acknowledges a call (Stripe transfer.created and charge.refunded, Vipps
 * CAPTURED and CANCELLED): record it, and finish the order's money if nothing else is missing.
 */
export async function acknowledgeMoney(env: Bindings, transactionId: string, kind: "transfer" | "refund", ref: string): Promise<void> {
  const db = getDb(env.DB);
  const row = await escrowRow(db, transactionId);
  if (!row || !isFinalEscrowState(row.escrow_state) || row.money_moved_at) return;
  const { refund, payout, capture } = amountsOf(row);
  if (kind === "refund" && refund > 0) await saveRef(db, row.id, "escrow_refund_ref", ref);
  if (kind === "transfer" && (row.provider === "stripe" ? payout : capture) > 0) await saveRef(db, row.id, "transfer_ref", ref);
  const now = await escrowRow(db, transactionId);
  if (!now) return;
  const needsPayout = (row.provider === "stripe" ? payout : capture) > 0;
  if ((refund === 0 || now.escrow_refund_ref) && (!needsPayout || now.transfer_ref)) {
    await db.$client
      .prepare("UPDATE transactions SET money_moved_at = ?2, payout_error = NULL WHERE id = ?1 AND money_moved_at IS NULL")
      .bind(row.id, new Date().toISOString())
      .run();
  }
}

// ---- telling both parties ------------------------------------------------------------------------

function chatText(row: EscrowRow, action: EscrowAction): string {
  switch (action) {
    case "mark_handed_over":
      return ESCROW_CHAT_TEXTS.handedOver(formatDateTime(row.release_due_at!));
    case "confirm_received":
      return ESCROW_CHAT_TEXTS.released;
    case "auto_release":
      return ESCROW_CHAT_TEXTS.autoReleased;
    case "release_by_moderator":
      return ESCROW_CHAT_TEXTS.moderatorReleased;
    case "report_problem":
      return ESCROW_CHAT_TEXTS.problem(PROBLEM_REASON_LABELS[row.problem_reason ?? "other"]);
    case "refund":
      return ESCROW_CHAT_TEXTS.refunded;
    case "partial_refund":
      return ESCROW_CHAT_TEXTS.partiallyRefunded(formatMinorUnits(row.refund_amount), formatMinorUnits(row.amount - row.refund_amount));
    case "cancel_no_handover":
      return ESCROW_CHAT_TEXTS.cancelled;
    case "seller_account_deleted":
      return ESCROW_CHAT_TEXTS.sellerDeleted;
  }
}

/**
 * A system message in the deal's chat (through the chat feature's one write path, so it is stored,
 * shown live and badged; its id derives from the order and the move, so a retry lands once) and an
 * e-mail to each party still here. The room mails no one about it: these e-mails are the mail.
 */
async function announce(env: Bindings, row: EscrowRow, action: EscrowAction): Promise<void> {
  if (row.conversation_id && !row.buyer_deleted && !row.seller_deleted) {
    try {
      await postSystemMessage(env, row.conversation_id, chatText(row, action), await stableUuid(`escrow:${row.id}:${action}`), {
        mailed: true,
      });
    } catch (error) {
      // A party deleted the account a moment ago: the conversation takes no more messages, and
      // the e-mails below still tell whoever is left.
      if (!(error instanceof AppError)) throw error;
      console.warn("No system message about a held-money change", row.id, action, error.message);
    }
  }
  // Both parties' open chats refetch the order's card (the live event of the chat feature).
  if (row.conversation_id) {
    await pushConversationEvent(env, row.conversation_id, ORDER_EVENT, { transaction_id: row.id, state: row.escrow_state }).catch(
      (error: unknown) => console.warn("No live event about a held-money change", row.id, error instanceof Error ? error.message : error),
    );
  }
  const facts = {
    title: row.title,
    conversationId: row.conversation_id,
    amount: row.amount,
    refund: row.refund_amount,
    releaseAt: row.release_due_at,
  };
  const change = row.escrow_state;
  if (!row.buyer_deleted)
    await sendMail(
      env,
      escrowChangeMail(env, { ...facts, to: row.buyer_email, name: row.buyer_name?.trim() || "der", role: "buyer", change }),
    );
  if (!row.seller_deleted)
    await sendMail(
      env,
      escrowChangeMail(env, { ...facts, to: row.seller_email, name: row.seller_name?.trim() || "der", role: "seller", change }),
    );
}

// ---- cron ----------------------------------------------------------------------------------------

/**
 * Hourly: remind buyers 24 hours before an automatic release, release what is due, and retry the
 * money of decided orders that a provider has not acknowledged yet. Returns how many orders changed.
 */
export async function runEscrowCron(env: Bindings, now: Date = new Date(), limit = 50): Promise<number> {
  const d1 = env.DB;
  const nowIso = now.toISOString();
  // Reminders: claimed before sending, released again if the mail fails (so it is sent once).
  const reminderBefore = new Date(now.getTime() + REMINDER_HOURS_BEFORE * HOUR_MS).toISOString();
  const { results: toRemind } = await d1
    .prepare(
      `UPDATE transactions SET reminder_sent_at = ?1
       WHERE id IN (SELECT id FROM transactions WHERE escrow_state = 'handed_over' AND reminder_sent_at IS NULL
                    AND release_due_at <= ?2 AND release_due_at > ?1 LIMIT ?3)
       RETURNING id`,
    )
    .bind(nowIso, reminderBefore, limit)
    .all<{ id: string }>();
  for (const { id } of toRemind) {
    const row = await escrowRow(getDb(d1), id);
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
      await d1.prepare("UPDATE transactions SET reminder_sent_at = NULL WHERE id = ?1").bind(id).run();
      console.error("Release reminder not sent; next run retries", id, error instanceof Error ? error.message : error);
    }
  }

  const { results: due } = await d1
    .prepare("SELECT id FROM transactions WHERE escrow_state = 'handed_over' AND release_due_at <= ?1 ORDER BY release_due_at LIMIT ?2")
    .bind(nowIso, limit)
    .all<{ id: string }>();
  let changed = 0;
  for (const { id } of due) {
    try {
      await actOnEscrow(env, "system", id, "auto_release", {}, now);
      changed += 1;
    } catch (error) {
      // Moved by someone else in the meantime (a problem, a confirmation): nothing to do.
      if (!(error instanceof AppError)) console.error("Automatic release failed", id, error instanceof Error ? error.message : error);
    }
  }

  const { results: unmoved } = await d1
    .prepare("SELECT id FROM transactions WHERE money_moved_at IS NULL AND settled_at IS NOT NULL ORDER BY settled_at LIMIT ?1")
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

// ---- what people see -----------------------------------------------------------------------------

export async function escrowForViewer(env: Bindings, actor: Actor, transactionId: string): Promise<EscrowView> {
  const db = getDb(env.DB);
  const row = await escrowRow(db, transactionId);
  const role = row ? roleOf(row, actor) : null;
  if (!row || !role) throw notFound();
  if (isFinalEscrowState(row.escrow_state) && !row.money_moved_at) {
    // A decided order whose money a crash or a provider left unmoved: finish it now rather than at
    // the next cron run (the same idempotent calls), as the result pages finish a sale's follow-ups.
    await moveMoney(env, row.id).catch((error: unknown) =>
      console.warn("Held money still not moved", row.id, error instanceof Error ? error.message : error),
    );
    return escrowView((await escrowRow(db, transactionId))!, role);
  }
  return escrowView(row, role);
}

/** The orders of a conversation the viewer is a party to (the chat's card). */
export async function escrowsInConversation(env: Bindings, actor: Actor, conversationId: string): Promise<EscrowView[]> {
  const { results } = await env.DB.prepare(
    `${ROW_SQL} WHERE t.conversation_id = ?1 AND (t.buyer_id = ?2 OR t.seller_id = ?2) ORDER BY t.paid_at`,
  )
    .bind(conversationId, actor.id)
    .all<EscrowRow>();
  return results.map((row) => escrowView(row, row.buyer_id === actor.id ? "buyer" : "seller"));
}

/** /moderation: open cases first (oldest first), then the 20 decided most recently, with both parties' chat. */
export async function escrowCases(env: Bindings, actor: Actor): Promise<EscrowCase[]> {
  const { results } = await env.DB.prepare(
    `${ROW_SQL} WHERE t.problem_at IS NOT NULL AND t.id IN (
       SELECT id FROM (SELECT id FROM transactions WHERE escrow_state = 'problem' ORDER BY problem_at LIMIT 100)
       UNION SELECT id FROM (SELECT id FROM transactions WHERE problem_at IS NOT NULL AND escrow_state <> 'problem' ORDER BY settled_at DESC LIMIT 20))
     ORDER BY t.escrow_state <> 'problem', t.problem_at`,
  ).all<EscrowRow>();
  const cases: EscrowCase[] = [];
  for (const row of results) {
    // The chat as the buyer sees it, read through the chat feature (not its storage).
    const messages = row.conversation_id ? (await messagePage(getDb(env.DB), row.conversation_id, row.buyer_id, 50)).messages : [];
    const party = (name: string | null, deleted: string | null) => (deleted ? DELETED_USER_NAME : name?.trim() || ANONYMOUS_NAME);
    // Where the staff rule refuses this staff member (a party, or staff on either side for a
    // moderator), the case is shown without its buttons; the dashboard says why.
    const view = escrowView(row, "moderator");
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

// ---- problem photos (decision 108) -------------------------------------------------------------

/**
 * A photo for "Meld fra om et problem": only the order's buyer, only while a problem can still be
 * reported (the lifecycle's own refusals otherwise), within the upload rate limit. Checked and
 * cleaned as every photo (worker/lib/photo-upload.ts).
 */
export async function uploadProblemPhoto(env: Bindings, actor: Actor, transactionId: string, request: Request) {
  const db = getDb(env.DB);
  const row = await escrowRow(db, transactionId);
  const role = row ? roleOf(row, actor) : null;
  if (!row || !role) throw notFound();
  const move = escrowMove(row.escrow_state, role, "report_problem");
  if (!move.ok) throw new AppError(move.status === 403 ? "FORBIDDEN" : "CONFLICT", move.message);
  await enforceRateLimit(db, RATE_RULES.upload, actor.id);
  return storeProblemPhoto(env, actor.id, row.id, request);
}

/** A report's photo for its buyer, its seller and staff with staff rights (the case); anyone else 404. */
export async function problemPhotoForViewer(env: Bindings, actor: Actor, transactionId: string, photoId: string | null) {
  const row = await escrowRow(getDb(env.DB), transactionId);
  if (!row || !roleOf(row, actor)) throw notFound();
  const photo = photoId ? await readProblemPhoto(env, row.id, photoId) : null;
  if (!photo) throw new AppError("NOT_FOUND", PROBLEM_PHOTO_REFUSALS.notFound);
  return photo;
}
