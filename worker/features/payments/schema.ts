// The D1 tables of the payments feature. The whole schema: worker/db/tables.ts.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "../../db/columns";
import { users } from "../auth/schema";
import { conversations } from "../chat/schema";
import { listings } from "../listings/schema";

/** A purchase attempt: created when checkout starts, priced from D1, fulfilled by webhook. */
export const payments = sqliteTable(
  "payments",
  {
    id: text("id").primaryKey(),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id),
    sellerId: text("seller_id")
      .notNull()
      .references(() => users.id),
    buyerId: text("buyer_id")
      .notNull()
      .references(() => users.id),
    provider: text("provider", { enum: ["stripe", "vipps"] }).notNull(),
    /** Stripe Checkout Session id, or the Vipps ePayment reference: the result pages' `session_id`. */
    providerRef: text("provider_ref"),
    amount: integer("amount").notNull(), // øre
    currency: text("currency").notNull().default("NOK"),
    /**
     * pending (checkout open) → completed (paid, this buyer got the listing) | expired (closed unpaid) |
     * cancelled (buyer aborted, or an authorised Vipps payment released) | refunded (paid but the listing
     * was gone) | failed (could not start, or the provider's amount did not match).
     */
    status: text("status", { enum: ["pending", "completed", "failed", "cancelled", "expired", "refunded"] })
      .notNull()
      .default("pending"),
    /** Lekebytte's fee in øre (docs/decisions/033-platform-fee.md). */
    platformFee: integer("platform_fee").notNull().default(0),
    /** Stripe PaymentIntent id (for refunds) once paid. */
    providerPaymentRef: text("provider_payment_ref"),
    /** Vipps: when the winning payment was captured. */
    capturedAt: text("captured_at"),
    /** Stripe refund id, when a paid payment lost the listing. */
    refundRef: text("refund_ref"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payments_provider_ref_unique").on(t.provider, t.providerRef),
    index("payments_listing_idx").on(t.listingId, t.status),
    index("payments_buyer_idx").on(t.buyerId, t.createdAt),
    index("payments_seller_idx").on(t.sellerId, t.createdAt),
  ],
);

/**
 * An order: a paid purchase, its money held until released or refunded (docs/decisions/105-held-payments.md).
 * What was bought, by whom, from whom and for how much is its payment's (`payment_id`): one row each,
 * never copied here (docs/decisions/141-an-order-is-its-payment-s.md).
 */
export const orders = sqliteTable(
  "orders",
  {
    id: text("id").primaryKey(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id),
    paidAt: text("paid_at").notNull(),
    /** stripe: Stripe pays the seller (destination charge); owed: Lekebytte owes the seller (Vipps, decision 035); paid: paid out. */
    sellerPayout: text("seller_payout", { enum: ["stripe", "owed", "paid"] })
      .notNull()
      .default("stripe"),
    /** The buyer–seller conversation that got the sale's system message. */
    conversationId: text("conversation_id").references(() => conversations.id),
    /** Set once the seller has been e-mailed about the sale (claimed before sending, so only once). */
    sellerNotifiedAt: text("seller_notified_at"),
    /** Set once the buyer has been e-mailed their receipt (claimed before sending, so only once). */
    buyerReceiptSentAt: text("buyer_receipt_sent_at"),
    /**
     * The held money (docs/decisions/105-held-payments.md, domain/orders.ts). Sales from before held
     * payments were destination charges, paid out at once: they count as released.
     */
    state: text("state", {
      enum: ["held", "handed_over", "problem", "released", "refunded", "partially_refunded", "cancelled"],
    })
      .notNull()
      .default("released"),
    /** The seller's connected account when the order was paid: where a release transfers to. */
    payoutAccount: text("payout_account"),
    handedOverAt: text("handed_over_at"),
    /** handed_over_at + 48 h: when the cron releases the money. */
    releaseDueAt: text("release_due_at"),
    /** The buyer's reminder 24 h before the automatic release (claimed before sending). */
    reminderSentAt: text("reminder_sent_at"),
    problemReason: text("problem_reason"),
    problemText: text("problem_text"),
    problemAt: text("problem_at"),
    /** When the money's outcome was decided (released, refunded, cancelled); reviews open then. */
    settledAt: text("settled_at"),
    /** Who decided a case (a moderator). */
    decidedBy: text("decided_by").references(() => users.id),
    /** Øre given back to the buyer (all of it for refunded and cancelled). */
    refundAmount: integer("refund_amount").notNull().default(0),
    /** Stripe Transfer id, or the Vipps capture's idempotency key, once the provider acknowledged it. */
    transferRef: text("transfer_ref"),
    /** Stripe Refund id, or the Vipps cancellation's key, once the provider acknowledged it. */
    refundRef: text("refund_ref"),
    /** Every provider call of the decided outcome has been acknowledged; until then the cron retries. */
    moneyMovedAt: text("money_moved_at"),
    /** A transfer the seller's account refused: what the seller must fix. Cleared when it succeeds. */
    payoutError: text("payout_error"),
    payoutErrorNotifiedAt: text("payout_error_notified_at"),
  },
  (t) => [
    index("orders_due_idx").on(t.state, t.releaseDueAt),
    index("orders_money_pending_idx").on(t.moneyMovedAt, t.settledAt),
    uniqueIndex("orders_payment_unique").on(t.paymentId),
  ],
);

/**
 * Photos on a buyer's problem report (docs/decisions/108-problem-photos.md): private evidence in R2
 * under `problem-photos/{uploader}/`, uploaded for one order by its buyer, then named by the report
 * (`attached_at`, `position`) in the same batch that opens the case. An upload no report used is
 * removed by the cron after a day.
 */
export const problemPhotos = sqliteTable(
  "problem_photos",
  {
    id: text("id").primaryKey(),
    /** The order the photo was uploaded for; a report on another order cannot use it. */
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    uploaderId: text("uploader_id")
      .notNull()
      .references(() => users.id),
    r2Key: text("r2_key").notNull(),
    contentType: text("content_type").notNull(),
    createdAt: createdAt(),
    /** When the report that uses it was sent; null: an upload no report has used (yet). */
    attachedAt: text("attached_at"),
    /** Its place among the report's photos (0–3). */
    position: integer("position"),
  },
  (t) => [
    index("problem_photos_order_idx").on(t.orderId, t.attachedAt),
    index("problem_photos_orphan_idx").on(t.attachedAt, t.createdAt),
    index("problem_photos_uploader_idx").on(t.uploaderId),
  ],
);

/** Provider webhook events already processed (idempotency on event id). */
export const webhookEvents = sqliteTable("webhook_events", {
  id: text("id").primaryKey(), // `${provider}:${eventId}`
  provider: text("provider").notNull(),
  type: text("type").notNull(),
  receivedAt: createdAt(),
});

/**
 * Provider webhooks the Worker refused (a bad signature, a body that is not an event, no
 * configuration): one counter per provider, error code and hour (UTC, "2026-11-29T10"), raised by
 * one upsert so concurrent refusals all count, purged after two days by the cron. The operator's
 * page shows the last day's (docs/decisions/134-operations-page.md).
 */
export const webhookRefusals = sqliteTable(
  "webhook_refusals",
  {
    provider: text("provider").notNull(),
    code: text("code").notNull(),
    hour: text("hour").notNull(),
    count: integer("count").notNull().default(0),
    lastAt: text("last_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.code, t.hour] })],
);
