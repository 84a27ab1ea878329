// Fulfilment: what happens once a provider says a payment was made. Runs from the webhooks and from
// the result pages' verification, possibly at the same moment, possibly more than once: every step
// is idempotent, and the race between buyers is settled by conditional statements in one D1 batch
// (docs/decisions/034-two-buyers.md).
import { ANONYMOUS_NAME } from "../../../domain/chat";
import { dropOffDeadline, type ShipmentBookingMessage, type ShipmentState } from "../../../domain/shipping";
import type { Db } from "../../db/client";
import { listedListingSql } from "../listings/visibility";
import type { Bindings } from "../../env";
import { nowIso } from "../../lib/crypto";
import { listingsChanged } from "../../lib/listing-changes";
import { postSystemMessage } from "../chat/live";
import { conversationForSale } from "../chat/conversations";
import { sendMail, type Mail } from "../mail/mail";
import { stripeConfig, vippsConfig } from "./config";
import { receiptMail, releasedMail, saleMail, saleMessage } from "./sale-mail";
import { closePending, stableUuid, type PaymentRow } from "./store";
import { stripeClient } from "./stripe-client";
import { VippsClient, VippsError } from "./vipps-client";

export interface PaidFacts {
  /** What the provider took, in minor units, and its currency. */
  amount: number;
  currency: string;
  /** Stripe PaymentIntent id or Vipps pspReference. */
  providerPaymentRef: string | null;
}

export type SettleOutcome = "won" | "lost" | "mismatch";

/**
 * A payment was made. In one D1 batch: the payment becomes `completed` only if it is still pending,
 * the listing is active and not hidden, and no other payment for the listing is completed; then the
 * order is written and the listing marked sold, both only if this batch completed the payment.
 * Whoever is not completed after the batch lost, and their money is given back.
 */
export async function settlePaidPayment(env: Bindings, payment: PaymentRow, facts: PaidFacts): Promise<SettleOutcome> {
  const db = env.DB;
  if (facts.amount !== payment.amount || facts.currency.toUpperCase() !== payment.currency.toUpperCase()) {
    // Never fulfil for a different amount than the one priced from D1 at checkout.
    console.error("Payment amount mismatch", payment.id, { expected: payment.amount, got: facts.amount, currency: facts.currency });
    if (payment.status !== "completed") await giveBack(env, payment, facts, false);
    return "mismatch";
  }

  const now = nowIso();
  const orderId = crypto.randomUUID();
  // Only a listed listing (active, not hidden: docs/product.md "Listings") can be bought, and only
  // at the price it has now: a checkout started before the seller changed the price is refunded,
  // never fulfilled at the old amount (decision 087).
  const [, , , , state] = await db.batch<{ status: PaymentRow["status"]; order_id: string | null }>([
    db
      .prepare(
        `UPDATE payments SET status = 'completed', provider_payment_ref = COALESCE(?3, provider_payment_ref), updated_at = ?4
         WHERE id = ?1 AND status = 'pending'
           AND EXISTS (SELECT 1 FROM listings WHERE id = ?2 AND ${listedListingSql("listings")} AND is_free = 0
                       AND price * 100 + COALESCE((SELECT shipping_price FROM payment_shipping WHERE payment_id = ?1), 0) = ?5)
           AND NOT EXISTS (SELECT 1 FROM payments WHERE listing_id = ?2 AND status = 'completed')`,
      )
      .bind(payment.id, payment.listing_id, facts.providerPaymentRef, now, payment.amount),
    db
      .prepare(
        // The money is held from here until the buyer has the toy (decision 105); the seller's
        // connected account is kept as it is now, for the transfer at release.
        `INSERT INTO orders (id, payment_id, paid_at, seller_payout, state, payout_account)
         SELECT ?1, p.id, ?3,
                CASE p.provider WHEN 'stripe' THEN 'stripe' ELSE 'owed' END,
                'held', (SELECT stripe_account_id FROM profiles WHERE user_id = p.seller_id)
         FROM payments p WHERE p.id = ?2 AND p.status = 'completed'
         ON CONFLICT (payment_id) DO NOTHING`,
      )
      .bind(orderId, payment.id, now),
    // A sent toy's parcel, waiting for its booking, with the order this batch wrote (decision 150):
    // its drop-off deadline counts from now, the payment.
    db
      .prepare(
        `INSERT INTO shipments (id, order_id, carrier, method, parcel_size, pickup_point_id, pickup_point_name, pickup_point_address,
           shipping_price, recipient_name, recipient_address_line, recipient_postal_code, recipient_city, recipient_phone,
           state, idempotency_key, drop_off_deadline, created_at, updated_at)
         SELECT ?1, o.id, ps.carrier, ps.method, ps.parcel_size, ps.pickup_point_id, ps.pickup_point_name, ps.pickup_point_address,
           ps.shipping_price, ps.recipient_name, ps.recipient_address_line, ps.recipient_postal_code, ps.recipient_city, ps.recipient_phone,
           'booking', 'shipment-' || o.id, ?4, ?5, ?5
         FROM payment_shipping ps JOIN orders o ON o.payment_id = ps.payment_id
         WHERE ps.payment_id = ?2 AND o.id = ?3 AND o.paid_at = ?5
         ON CONFLICT (order_id) DO NOTHING`,
      )
      .bind(crypto.randomUUID(), payment.id, orderId, dropOffDeadline(now), now),
    // Only the batch that wrote the order marks the listing sold (a replay never re-sells a
    // listing its owner has since put back on sale).
    db
      .prepare(
        `UPDATE listings SET status = 'sold', updated_at = ?3
         WHERE id = ?1 AND status = 'active' AND EXISTS (SELECT 1 FROM orders WHERE id = ?2)`,
      )
      .bind(payment.listing_id, orderId, now),
    db
      .prepare("SELECT p.status, t.id AS order_id FROM payments p LEFT JOIN orders t ON t.payment_id = p.id WHERE p.id = ?1")
      .bind(payment.id),
  ]);
  const row = state.results[0];
  if (row?.status === "completed" && row.order_id) {
    // Sold: gone from home and search, and its pages say so, however the payment was settled
    // (webhook, the result pages' verification, the cron).
    await listingsChanged(env, [{ id: payment.listing_id, user_id: payment.seller_id }]);
    await completeSale(env, payment.id);
    return "won";
  }
  await giveBack(env, payment, facts, true);
  return "lost";
}

/** The winner's follow-ups. Each checks whether it is done, so a retry finishes what a failure left. */
export async function completeSale(env: Bindings, paymentId: string): Promise<void> {
  const db = env.DB;
  const sale = await db
    .prepare(
      `SELECT p.id, p.provider, p.provider_ref, p.amount, p.currency, p.listing_id, p.buyer_id, p.seller_id, p.platform_fee,
              t.id AS order_id, t.conversation_id, t.seller_notified_at, t.buyer_receipt_sent_at, t.paid_at,
              l.title, bp.display_name AS buyer_name, sp.display_name AS seller_name, su.email AS seller_email, su.deleted_at AS seller_deleted,
              bu.email AS buyer_email, bu.deleted_at AS buyer_deleted,
              s.state AS shipment_state, COALESCE(s.shipping_price, 0) AS shipping_price
       FROM payments p
       JOIN orders t ON t.payment_id = p.id
       JOIN listings l ON l.id = p.listing_id
       JOIN users su ON su.id = p.seller_id
       JOIN users bu ON bu.id = p.buyer_id
       LEFT JOIN profiles sp ON sp.user_id = p.seller_id
       LEFT JOIN profiles bp ON bp.user_id = p.buyer_id
       LEFT JOIN shipments s ON s.order_id = t.id
       WHERE p.id = ?1 AND p.status = 'completed'`,
    )
    .bind(paymentId)
    .first<{
      id: string;
      provider: "stripe" | "vipps";
      provider_ref: string;
      amount: number;
      currency: string;
      listing_id: string;
      buyer_id: string;
      seller_id: string;
      platform_fee: number;
      order_id: string;
      conversation_id: string | null;
      seller_notified_at: string | null;
      buyer_receipt_sent_at: string | null;
      paid_at: string;
      title: string;
      buyer_name: string | null;
      seller_name: string | null;
      seller_email: string;
      seller_deleted: string | null;
      buyer_email: string;
      buyer_deleted: string | null;
      shipment_state: ShipmentState | null;
      shipping_price: number;
    }>();
  if (!sale) return;

  // 1. The money stays where it is: a card charge on Lekebytte's account, a Vipps reservation
  //    uncaptured. It moves when the order is released or refunded (orders.ts, decision 105).
  // 2. The buyer–seller conversation with a system message about the sale, through the room (stored,
  //    shown live, badges pushed). Its id is derived from the payment, so a retry lands once. A
  //    conversation with a deleted account takes no messages: then there is nothing to post. The
  //    seller's sale mail (step 3) is the e-mail about it, so the room mails no one about this one.
  const buyerName = sale.buyer_name?.trim() || ANONYMOUS_NAME;
  let conversationId = sale.conversation_id;
  if (!conversationId && !sale.buyer_deleted && !sale.seller_deleted) {
    conversationId = await conversationForSale(db, sale.listing_id, sale.buyer_id, sale.seller_id);
    await postSystemMessage(
      env,
      conversationId,
      saleMessage({
        title: sale.title,
        amount: sale.amount - sale.shipping_price,
        provider: sale.provider,
        buyerName,
        shipping: sale.shipping_price,
      }),
      await stableUuid(`sale-message:${sale.id}`),
      { mailed: true },
    );
    await db
      .prepare("UPDATE orders SET conversation_id = ?2 WHERE id = ?1 AND conversation_id IS NULL")
      .bind(sale.order_id, conversationId)
      .run();
  }

  // 3. E-mail the seller once, and the buyer their receipt once (the webhook, the result pages and
  //    the cron may all get here, at the same moment too).
  if (!sale.seller_notified_at && !sale.seller_deleted) {
    await mailOnce(env, sale.order_id, "seller_notified_at", () =>
      saleMail(env, {
        title: sale.title,
        amount: sale.amount - sale.shipping_price,
        shipping: sale.shipping_price,
        provider: sale.provider,
        buyerName,
        sellerName: sale.seller_name?.trim() || "der",
        sellerEmail: sale.seller_email,
        conversationId,
        platformFee: sale.platform_fee,
      }),
    );
  }
  if (!sale.buyer_receipt_sent_at && !sale.buyer_deleted) {
    await mailOnce(env, sale.order_id, "buyer_receipt_sent_at", () =>
      receiptMail(env, {
        to: sale.buyer_email,
        buyerName: sale.buyer_name?.trim() || "der",
        sellerName: (!sale.seller_deleted && sale.seller_name?.trim()) || ANONYMOUS_NAME,
        title: sale.title,
        amount: sale.amount,
        provider: sale.provider,
        orderId: sale.order_id,
        paidAt: sale.paid_at,
        conversationId,
        providerRef: sale.provider_ref,
      }),
    );
  }

  // 4. Other buyers' open checkouts for this listing are closed at the provider (their webhooks
  //    confirm it; one that was paid in the meantime is refunded when its own event arrives).
  await expireCompetitors(env, db, sale.listing_id, sale.id);

  // 5. A sent toy's parcel is booked with its carrier now, through the shipping feature's queue
  //    (decision 150); a repeat finds it booked and does nothing.
  if (sale.shipment_state === "booking") {
    const message: ShipmentBookingMessage = { order_id: sale.order_id };
    await env.SHIPMENT_QUEUE.send(message);
  }
}

/**
 * Send one of the sale's mails once: claim its column, send, and release the claim if sending fails
 * (a retry sends it then). Of simultaneous settlements only the one whose claim lands sends.
 */
async function mailOnce(
  env: Bindings,
  orderId: string,
  claim: "seller_notified_at" | "buyer_receipt_sent_at",
  mail: () => Mail,
): Promise<void> {
  const d1 = env.DB;
  const claimed = await d1
    .prepare(`UPDATE orders SET ${claim} = ?2 WHERE id = ?1 AND ${claim} IS NULL RETURNING id`)
    .bind(orderId, nowIso())
    .first<{ id: string }>();
  if (!claimed) return;
  try {
    await sendMail(env, mail());
  } catch (error) {
    await d1.prepare(`UPDATE orders SET ${claim} = NULL WHERE id = ?1`).bind(orderId).run();
    throw error;
  }
}

async function expireCompetitors(env: Bindings, db: Db, listingId: string, winnerId: string): Promise<void> {
  await closeOpenCheckouts(env, db, listingId, winnerId);
}

/**
 * Closes the listing's checkouts that are still open at the provider (all but `exceptId`): after a
 * sale, and when the seller changes what is being bought (price, free, payment settings: decision
 * 087). One that was paid in the meantime is left to its own event, which settlement refuses and
 * refunds when the listing is no longer for sale at that amount.
 */
export async function closeOpenCheckouts(env: Bindings, db: Db, listingId: string, exceptId: string | null = null): Promise<void> {
  const { results } = await db
    .prepare("SELECT * FROM payments WHERE listing_id = ?1 AND status = 'pending' AND id IS NOT ?2")
    .bind(listingId, exceptId)
    .all<PaymentRow>();
  for (const other of results) {
    try {
      if (other.provider === "stripe" && other.provider_ref) {
        const config = stripeConfig(env);
        if (!config) continue;
        const session = await stripeClient(config).checkout.sessions.retrieve(other.provider_ref);
        if (session.status === "open") await stripeClient(config).checkout.sessions.expire(other.provider_ref);
        if (session.status !== "complete") await closePending(db, other.id, "expired");
      } else if (other.provider === "vipps" && other.provider_ref) {
        const config = vippsConfig(env);
        if (!config) continue;
        const client = new VippsClient(config);
        const remote = await client.getPayment(other.provider_ref);
        // An authorised competitor is settled (and released) by its own event; only waiting ones are cancelled here.
        if (remote.state === "CREATED") {
          await client.cancel(other.provider_ref, `cancel-${other.id}`);
          await closePending(db, other.id, "expired");
        } else if (remote.state !== "AUTHORIZED") {
          await closePending(db, other.id, remote.state === "EXPIRED" ? "expired" : "cancelled");
        }
      } else {
        // Never reached the provider (creation failed half-way): nothing to close there.
        await closePending(db, other.id, "expired");
      }
    } catch (error) {
      // The competitor's own webhook (expired, or paid → refunded) settles it later.
      console.warn("Could not close a competing checkout", other.id, error instanceof Error ? error.message : error);
    }
  }
}

/**
 * This payment was made but does not get the listing (someone else's completed first, or the listing
 * is no longer for sale): give the money back. Stripe: a full refund of the charge (nothing was
 * transferred). Vipps: money is only reserved until capture, so the authorisation is cancelled.
 */
async function giveBack(env: Bindings, payment: PaymentRow, facts: PaidFacts, notifyBuyer: boolean): Promise<void> {
  const d1 = env.DB;
  let refundRef: string | null = null;
  if (payment.provider === "stripe") {
    const config = stripeConfig(env);
    const paymentIntent = facts.providerPaymentRef ?? payment.provider_payment_ref;
    if (!config || !paymentIntent) throw new Error(`cannot refund payment ${payment.id}: Stripe not configured or no PaymentIntent`);
    try {
      // The charge is Lekebytte's own (separate charges and transfers, decision 105): nothing was
      // transferred to the seller yet, so a plain refund gives everything back.
      const refund = await stripeClient(config).refunds.create(
        { payment_intent: paymentIntent, metadata: { payment_id: payment.id, reason: "listing_unavailable" } },
        { idempotencyKey: `refund-${payment.id}` },
      );
      refundRef = refund.id;
    } catch (error) {
      if ((error as { code?: string }).code !== "charge_already_refunded") throw error;
    }
  } else {
    const config = vippsConfig(env);
    if (!config || !payment.provider_ref) throw new Error(`cannot release Vipps payment ${payment.id}: not configured`);
    const client = new VippsClient(config);
    try {
      await client.cancel(payment.provider_ref, `cancel-${payment.id}`);
    } catch (error) {
      if (!(error instanceof VippsError)) throw error;
      const remote = await client.getPayment(payment.provider_ref);
      const capturedLeft = remote.aggregate.capturedAmount.value - remote.aggregate.refundedAmount.value;
      if (capturedLeft > 0)
        await client.refund(payment.provider_ref, { currency: remote.amount.currency, value: capturedLeft }, `refund-${payment.id}`);
      else if (remote.state !== "TERMINATED") throw error;
    }
  }

  const status = payment.provider === "stripe" ? "refunded" : "cancelled";
  const released = await d1
    .prepare(
      `UPDATE payments SET status = ?2, refund_ref = COALESCE(?3, refund_ref), provider_payment_ref = COALESCE(?4, provider_payment_ref), updated_at = ?5
       WHERE id = ?1 AND status NOT IN ('completed', 'refunded', 'cancelled') RETURNING id`,
    )
    .bind(payment.id, status, refundRef, facts.providerPaymentRef, nowIso())
    .first<{ id: string }>();
  if (!released || !notifyBuyer) return;
  const buyer = await d1
    .prepare(
      `SELECT u.email, u.deleted_at, p.display_name, l.title FROM users u LEFT JOIN profiles p ON p.user_id = u.id
       JOIN listings l ON l.id = ?2 WHERE u.id = ?1`,
    )
    .bind(payment.buyer_id, payment.listing_id)
    .first<{ email: string; deleted_at: string | null; display_name: string | null; title: string }>();
  if (buyer && !buyer.deleted_at) {
    await sendMail(
      env,
      releasedMail(env, {
        to: buyer.email,
        buyerName: buyer.display_name?.trim() || "der",
        title: buyer.title,
        amount: payment.amount,
        provider: payment.provider,
      }),
    );
  }
}
