// Moving held money through the providers once D1 has decided (docs/decisions/105-held-payments.md):
// a refund, a Stripe Transfer or a Vipps capture, each with an idempotency key derived from the
// order, retried by the cron until the provider acknowledges it.
import { isFinalOrderState, orderMoney } from "../../../domain/orders";
import { PAYOUT_FIX_TEXT } from "../../../domain/order-texts";
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { sendMail } from "../mail/mail";
import { stripeConfig, vippsConfig } from "./config";
import { payoutFailedMail } from "./order-mail";
import { transferGroup } from "./store";
import { stripeClient, type Stripe } from "./stripe-client";
import { VippsClient, VippsError } from "./vipps-client";

import { orderRow, type OrderRow } from "./order-rows";

/** What the decided state moves: øre back to the buyer, øre to the seller, øre captured (Vipps). */
function amountsOf(row: OrderRow): { refund: number; payout: number; capture: number } {
  return orderMoney(row.state, { amount: row.amount, shipping: row.shipping_price, refund: row.refund_amount, fee: row.platform_fee });
}

/**
 * Make the provider calls of the decided outcome that are not yet acknowledged. Safe to run any
 * number of times, at the same moment too: every call carries a key derived from the order, so a
 * repeat is the provider's replay of the first, never a second movement of money.
 */
export async function moveMoney(env: Bindings, orderId: string): Promise<void> {
  const db = env.DB;
  const row = await orderRow(db, orderId);
  if (!row || row.money_moved_at || !isFinalOrderState(row.state)) return;
  const { refund, payout, capture } = amountsOf(row);
  let transferRef = row.transfer_ref;
  let refundRef = row.refund_ref;

  if (row.provider === "stripe") {
    const config = stripeConfig(env);
    if (!config || !row.provider_payment_ref) throw new Error(`cannot move money of ${row.id}: Stripe not configured or no PaymentIntent`);
    const stripe = stripeClient(config);
    if (refund > 0 && !refundRef) {
      refundRef = await stripeRefund(stripe, row, refund);
      await saveRef(db, row.id, "refund_ref", refundRef);
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
      const key = `order-cancel-${row.id}`;
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
      await saveRef(db, row.id, "refund_ref", key);
    }
  }
  await db
    .prepare("UPDATE orders SET money_moved_at = ?2, payout_error = NULL WHERE id = ?1 AND money_moved_at IS NULL")
    .bind(row.id, new Date().toISOString())
    .run();
}

async function saveRef(db: Db, id: string, column: "transfer_ref" | "refund_ref", ref: string): Promise<void> {
  await db.prepare(`UPDATE orders SET ${column} = ?2 WHERE id = ?1 AND ${column} IS NULL`).bind(id, ref).run();
}

async function stripeRefund(stripe: Stripe, row: OrderRow, amount: number): Promise<string> {
  try {
    const refund = await stripe.refunds.create(
      {
        payment_intent: row.provider_payment_ref!,
        ...(amount < row.amount ? { amount } : {}),
        metadata: { payment_id: row.payment_id, order_id: row.id, reason: row.state },
      },
      { idempotencyKey: `order-refund-${row.id}` },
    );
    return refund.id;
  } catch (error) {
    // Refunded by an earlier attempt whose key the provider no longer remembers.
    if ((error as { code?: string }).code === "charge_already_refunded") return `already:${row.provider_payment_ref}`;
    throw error;
  }
}

/** The Transfer to the seller's account from this order's charge, or null when the account refused it. */
async function stripeTransfer(env: Bindings, stripe: Stripe, row: OrderRow, amount: number): Promise<string | null> {
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
        metadata: { payment_id: row.payment_id, order_id: row.id },
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
async function payoutRefused(env: Bindings, row: OrderRow, why: string): Promise<void> {
  console.warn("Transfer refused; the money stays held", row.id, why);
  const d1 = env.DB;
  await d1.prepare("UPDATE orders SET payout_error = ?2 WHERE id = ?1").bind(row.id, PAYOUT_FIX_TEXT).run();
  if (row.seller_deleted) return;
  const claimed = await d1
    .prepare("UPDATE orders SET payout_error_notified_at = ?2 WHERE id = ?1 AND payout_error_notified_at IS NULL RETURNING id")
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
export async function acknowledgeMoney(env: Bindings, orderId: string, kind: "transfer" | "refund", ref: string): Promise<void> {
  const db = env.DB;
  const row = await orderRow(db, orderId);
  if (!row || !isFinalOrderState(row.state) || row.money_moved_at) return;
  const { refund, payout, capture } = amountsOf(row);
  if (kind === "refund" && refund > 0) await saveRef(db, row.id, "refund_ref", ref);
  if (kind === "transfer" && (row.provider === "stripe" ? payout : capture) > 0) await saveRef(db, row.id, "transfer_ref", ref);
  const now = await orderRow(db, orderId);
  if (!now) return;
  const needsPayout = (row.provider === "stripe" ? payout : capture) > 0;
  if ((refund === 0 || now.refund_ref) && (!needsPayout || now.transfer_ref)) {
    await db
      .prepare("UPDATE orders SET money_moved_at = ?2, payout_error = NULL WHERE id = ?1 AND money_moved_at IS NULL")
      .bind(row.id, new Date().toISOString())
      .run();
  }
}
