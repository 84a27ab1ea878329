// What buyers and sellers see afterwards: verification for /payment-success, the details for
// /betaling-fullfort, and the purchases and sales lists on the profile. Only the payment's buyer or
// seller ever sees a payment; to anyone else it does not exist (404).
import type { PaymentDetails } from "../../../domain/order-views";
import { PAYMENT_TEXTS, type PaymentRecord, type VerifyResponse } from "../../../domain/payments";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { Db } from "../../db/client";
import type { Actor, Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { enforceRateLimit } from "../../lib/rate-limit";
import { stripeConfig, vippsConfig } from "./config";
import { completeSale, settlePaidPayment } from "./settle";
import { closePending, paymentById, paymentBySessionId, type PaymentRow } from "./store";
import { stripeClient } from "./stripe-client";
import { VippsClient } from "./vipps-client";
import { onSessionPaid } from "./webhooks";
import { orderRow } from "./order-rows";
import { orderViewFor } from "./order-views";
import type { OrderState } from "../../../domain/orders";

const notFound = () => new AppError("NOT_FOUND", PAYMENT_TEXTS.orderNotFound);

function roleOf(payment: PaymentRow, actor: Actor): "buyer" | "seller" | null {
  if (payment.buyer_id === actor.id) return "buyer";
  if (payment.seller_id === actor.id) return "seller";
  return null;
}

/**
 * Ask the provider about a payment that is still pending (the webhook may be late, or unreachable
 * in local development against real test keys), and settle it the same way the webhook would.
 */
async function refreshFromProvider(env: Bindings, payment: PaymentRow): Promise<void> {
  if (!payment.provider_ref) return;
  const db = env.DB;
  try {
    if (payment.provider === "stripe") {
      const config = stripeConfig(env);
      if (!config) return;
      const session = await stripeClient(config).checkout.sessions.retrieve(payment.provider_ref);
      if (session.status === "complete") await onSessionPaid(env, session);
      else if (session.status === "expired") await closePending(db, payment.id, "expired");
    } else {
      const config = vippsConfig(env);
      if (!config) return;
      const remote = await new VippsClient(config).getPayment(payment.provider_ref);
      if (remote.state === "AUTHORIZED") {
        await settlePaidPayment(env, payment, {
          amount: remote.aggregate.authorizedAmount.value,
          currency: remote.amount.currency,
          providerPaymentRef: remote.pspReference,
        });
      } else if (remote.state === "ABORTED" || remote.state === "TERMINATED") {
        await closePending(db, payment.id, "cancelled");
      } else if (remote.state === "EXPIRED") {
        await closePending(db, payment.id, "expired");
      }
    }
  } catch (error) {
    console.warn("Could not check the payment with the provider", payment.id, error instanceof Error ? error.message : error);
  }
}

/** Bring a payment up to date for its buyer or seller: settle it if the provider says it is paid. */
async function current(env: Bindings, db: Db, payment: PaymentRow, role: "buyer" | "seller"): Promise<PaymentRow> {
  if (payment.status === "pending" && role === "buyer") {
    await refreshFromProvider(env, payment);
    return (await paymentById(db, payment.id)) ?? payment;
  }
  if (payment.status === "completed") {
    // Finish follow-ups a failed webhook may have left (capture, message, e-mail); all idempotent.
    await completeSale(env, payment.id).catch((error: unknown) =>
      console.warn("Follow-ups after a sale failed", payment.id, error instanceof Error ? error.message : error),
    );
  }
  return payment;
}

/**
 * What the result page says. A payment the buyer stopped at the provider (Vipps ABORTED or
 * TERMINATED before any authorisation) is `cancelled`, not an error; a Vipps payment released after
 * it was authorised (the buyer lost the listing, decision 034) carries the provider's payment
 * reference and stays `failed`, which its e-mail explains (decision 089).
 */
function verifyStatus(payment: PaymentRow): VerifyResponse["status"] {
  if (payment.status === "completed" || payment.status === "pending") return payment.status;
  if (payment.status === "cancelled" && payment.provider_payment_ref === null) return "cancelled";
  return "failed";
}

export async function verifyPayment(env: Bindings, actor: Actor, sessionId: string, paymentId: string): Promise<VerifyResponse> {
  const db = env.DB;
  await enforceRateLimit(db, RATE_RULES.paymentVerify, actor.id);
  const found = await paymentById(db, paymentId);
  const role = found ? roleOf(found, actor) : null;
  if (!found || !role || found.provider_ref !== sessionId) throw notFound();
  const payment = await current(env, db, found, role);
  const tx = await db
    .prepare("SELECT id, conversation_id FROM orders WHERE payment_id = ?1")
    .bind(payment.id)
    .first<{ id: string; conversation_id: string | null }>();
  const status = verifyStatus(payment);
  return {
    status,
    amount_paid: status === "completed" ? payment.amount : null,
    currency: payment.currency,
    order_id: tx?.id ?? null,
    session_id: sessionId,
    listing_id: payment.listing_id,
    conversation_id: tx?.conversation_id ?? null,
    role,
  };
}

export async function paymentDetails(env: Bindings, actor: Actor, sessionId: string): Promise<PaymentDetails> {
  const db = env.DB;
  await enforceRateLimit(db, RATE_RULES.paymentVerify, actor.id);
  const found = await paymentBySessionId(db, sessionId);
  const role = found ? roleOf(found, actor) : null;
  if (!found || !role) throw notFound();
  const payment = await current(env, db, found, role);
  const row = await db
    .prepare(
      `SELECT t.id, pay.amount, pay.currency, t.paid_at, t.conversation_id,
            l.id AS listing_id, l.title, l.images, l.seo_slug,
            u.id AS seller_id, u.deleted_at AS seller_deleted, p.user_id AS seller_profile, p.display_name AS seller_name
     FROM orders t
     JOIN payments pay ON pay.id = t.payment_id
     LEFT JOIN listings l ON l.id = pay.listing_id
     LEFT JOIN users u ON u.id = pay.seller_id
     LEFT JOIN profiles p ON p.user_id = pay.seller_id
     WHERE t.payment_id = ?1`,
    )
    .bind(payment.id)
    .first<{
      id: string;
      amount: number;
      currency: string;
      paid_at: string;
      conversation_id: string | null;
      listing_id: string | null;
      title: string | null;
      images: string | null;
      seo_slug: string | null;
      seller_id: string | null;
      seller_deleted: string | null;
      seller_profile: string | null;
      seller_name: string | null;
    }>();
  if (!row) throw notFound();
  if (!row.listing_id) throw new AppError("NOT_FOUND", PAYMENT_TEXTS.listingNotFound);
  const sellerGone = !row.seller_id || !row.seller_profile || row.seller_deleted;
  return {
    order_id: row.id,
    session_id: sessionId,
    provider: payment.provider === "stripe" ? "card" : "vipps",
    amount: row.amount,
    currency: row.currency,
    paid_at: row.paid_at,
    role,
    conversation_id: row.conversation_id,
    listing: { id: row.listing_id, title: row.title ?? "", images: parseImages(row.images), seo_slug: row.seo_slug ?? "" },
    seller: sellerGone ? null : { user_id: row.seller_id!, display_name: row.seller_name },
    order: await orderRow(db, row.id).then((e) => (e ? orderViewFor(e, role) : null)),
  };
}

function parseImages(raw: string | null): string[] {
  try {
    const v = JSON.parse(raw ?? "[]") as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** The buyer's purchases or the seller's sales, newest first. */
export async function orderRecords(db: Db, actor: Actor, side: "purchases" | "sales"): Promise<PaymentRecord[]> {
  const mine = side === "purchases" ? "pay.buyer_id" : "pay.seller_id";
  const other = side === "purchases" ? "pay.seller_id" : "pay.buyer_id";
  const { results } = await db
    .prepare(
      `SELECT t.id, pay.amount, pay.currency, t.paid_at, t.conversation_id, t.seller_payout, pay.provider, pay.provider_ref,
            t.state, t.release_due_at, t.refund_amount, t.money_moved_at,
            l.id AS listing_id, l.title, l.images, l.seo_slug,
            CASE WHEN ou.deleted_at IS NULL THEN op.display_name END AS counterpart_name
     FROM orders t
     JOIN payments pay ON pay.id = t.payment_id
     JOIN listings l ON l.id = pay.listing_id
     LEFT JOIN users ou ON ou.id = ${other}
     LEFT JOIN profiles op ON op.user_id = ${other}
     WHERE ${mine} = ?1
     ORDER BY t.paid_at DESC LIMIT 50`,
    )
    .bind(actor.id)
    .all<{
      id: string;
      amount: number;
      currency: string;
      paid_at: string;
      conversation_id: string | null;
      seller_payout: PaymentRecord["seller_payout"];
      state: OrderState;
      release_due_at: string | null;
      refund_amount: number;
      money_moved_at: string | null;
      provider: "stripe" | "vipps";
      provider_ref: string;
      listing_id: string;
      title: string;
      images: string;
      seo_slug: string;
      counterpart_name: string | null;
    }>();
  return results.map((r) => ({
    order_id: r.id,
    session_id: r.provider_ref,
    provider: r.provider === "stripe" ? "card" : "vipps",
    amount: r.amount,
    currency: r.currency,
    paid_at: r.paid_at,
    listing: { id: r.listing_id, title: r.title, images: parseImages(r.images), seo_slug: r.seo_slug },
    counterpart_name: r.counterpart_name,
    conversation_id: r.conversation_id,
    seller_payout: r.seller_payout,
    state: r.state,
    release_due_at: r.release_due_at,
    refund_amount: r.refund_amount,
    money_moved: r.money_moved_at !== null,
  }));
}

/**
 * Cron: payments still pending an hour after checkout started (a webhook that never arrived) are
 * checked with the provider and settled or closed, as the webhook would have done.
 */
export async function reconcilePendingPayments(env: Bindings, now: Date = new Date(), limit = 25): Promise<number> {
  const before = new Date(now.getTime() - 3600_000).toISOString();
  const { results } = await env.DB.prepare(
    "SELECT * FROM payments WHERE status = 'pending' AND provider_ref IS NOT NULL AND created_at < ?1 ORDER BY created_at LIMIT ?2",
  )
    .bind(before, limit)
    .all<PaymentRow>();
  for (const payment of results) await refreshFromProvider(env, payment);
  return results.length;
}
