// Provider webhooks, the source of truth for payments. Each is verified as its provider documents
// (Stripe: constructEventAsync over the raw body; Vipps: HMAC over method, path and query, date,
// host and content hash), handled idempotently, and recorded once in webhook_events: a replayed or
// duplicated event changes nothing and calls no provider.
import { z } from "../../../domain/schemas/zod";
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { stripeConfig, vippsConfig } from "./config";
import { refreshAccount } from "./connect";
import { acknowledgeMoney } from "./order-money";
import { settlePaidPayment } from "./settle";
import { closePending, paymentByRef } from "./store";
import { stripeClient, verifyStripeEvent, type Stripe } from "./stripe-client";
import { verifyVippsWebhook, type WebhookRequest } from "./vipps-signature";
import { PAYMENT_REFUSALS } from "../../../domain/payments";

export interface WebhookResult {
  received: true;
  duplicate: boolean;
}

async function seen(db: Db, id: string): Promise<boolean> {
  return (await db.prepare("SELECT 1 AS ok FROM webhook_events WHERE id = ?1").bind(id).first()) !== null;
}

async function remember(db: Db, id: string, provider: string, type: string): Promise<void> {
  await db
    .prepare("INSERT INTO webhook_events (id, provider, type) VALUES (?1, ?2, ?3) ON CONFLICT (id) DO NOTHING")
    .bind(id, provider, type)
    .run();
}

export async function handleStripeWebhook(env: Bindings, rawBody: string, signature: string | undefined): Promise<WebhookResult> {
  const config = stripeConfig(env);
  if (!config || config.webhookSecrets.length === 0) throw new AppError("SERVICE_UNAVAILABLE");
  if (!signature) throw new AppError("INVALID_SIGNATURE");
  const stripe = stripeClient(config);
  const event = await verifyStripeEvent(stripe, rawBody, signature, config.webhookSecrets);
  if (!event) throw new AppError("INVALID_SIGNATURE");

  const db = env.DB;
  const key = `stripe:${event.id}`;
  if (await seen(db, key)) return { received: true, duplicate: true };

  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      await onSessionPaid(env, event.data.object);
      break;
    case "checkout.session.expired":
    case "checkout.session.async_payment_failed": {
      const payment = await paymentByRef(db, "stripe", event.data.object.id);
      if (payment) await closePending(db, payment.id, event.type === "checkout.session.expired" ? "expired" : "failed");
      break;
    }
    // Acknowledgements of held money's movements (decision 105): the provider confirms what the
    // Worker asked for; if the Worker's own record of it was lost, this completes it.
    case "transfer.created": {
      const orderId = event.data.object.metadata?.order_id;
      if (orderId) await acknowledgeMoney(env, orderId, "transfer", event.data.object.id);
      break;
    }
    case "charge.refunded": {
      const charge = event.data.object;
      const intent = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
      const tx = intent
        ? await db
            .prepare(
              "SELECT t.id FROM orders t JOIN payments p ON p.id = t.payment_id WHERE p.provider = 'stripe' AND p.provider_payment_ref = ?1 AND t.refund_amount > 0 AND t.refund_amount <= ?2",
            )
            .bind(intent, charge.amount_refunded)
            .first<{ id: string }>()
        : null;
      if (tx) await acknowledgeMoney(env, tx.id, "refund", `charge:${charge.id}`);
      break;
    }
    case "account.updated":
      await refreshAccount(env, event.account ?? event.data.object.id);
      break;
    default:
      // Other events (refunds, payment intents…) need nothing from us; they are still recorded.
      break;
  }
  await remember(db, key, "stripe", event.type);
  return { received: true, duplicate: false };
}

/** A Checkout Session completed. With async payment methods it may be completed but not yet paid. */
export async function onSessionPaid(env: Bindings, session: Stripe.Checkout.Session): Promise<void> {
  if (session.payment_status !== "paid") return;
  const payment = await paymentByRef(env.DB, "stripe", session.id);
  if (!payment || session.metadata?.payment_id !== payment.id) {
    console.warn("Checkout Session without a matching payment", session.id);
    return;
  }
  const paymentIntent = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
  await settlePaidPayment(env, payment, {
    amount: session.amount_total ?? -1,
    currency: session.currency ?? "",
    providerPaymentRef: paymentIntent,
  });
}

/** The ePayment webhook body (vipps-epayment-api WebhookEvent). */
const vippsEventSchema = z.object({
  msn: z.string(),
  reference: z.string().min(1).max(50),
  pspReference: z.string(),
  name: z.enum(["CREATED", "ABORTED", "EXPIRED", "CANCELLED", "CAPTURED", "REFUNDED", "AUTHORIZED", "TERMINATED"]),
  amount: z.object({ currency: z.string(), value: z.number().int() }),
  timestamp: z.string(),
  idempotencyKey: z.string().nullish(),
  success: z.boolean(),
});

export async function handleVippsWebhook(env: Bindings, req: WebhookRequest): Promise<WebhookResult> {
  const config = vippsConfig(env);
  if (!config?.webhookSecret) throw new AppError("SERVICE_UNAVAILABLE");
  const verdict = await verifyVippsWebhook(req, config.webhookSecret);
  if (verdict !== "ok") throw new AppError("INVALID_SIGNATURE");

  let body: unknown;
  try {
    body = JSON.parse(req.body);
  } catch {
    throw new AppError("VALIDATION", PAYMENT_REFUSALS.invalidJson);
  }
  const parsed = vippsEventSchema.safeParse(body);
  if (!parsed.success) throw new AppError("VALIDATION", PAYMENT_REFUSALS.invalidEvent);
  const event = parsed.data;
  if (event.msn !== config.msn) throw new AppError("VALIDATION", PAYMENT_REFUSALS.unknownMerchant);

  const db = env.DB;
  const key = `vipps:${event.reference}:${event.name}:${event.pspReference}`;
  if (await seen(db, key)) return { received: true, duplicate: true };

  const payment = await paymentByRef(db, "vipps", event.reference);
  if (!payment) {
    console.warn("Vipps event for an unknown reference", event.reference, event.name);
  } else if (event.success) {
    switch (event.name) {
      case "AUTHORIZED":
        await settlePaidPayment(env, payment, {
          amount: event.amount.value,
          currency: event.amount.currency,
          providerPaymentRef: event.pspReference,
        });
        break;
      case "ABORTED":
      case "TERMINATED":
        await closePending(db, payment.id, "cancelled");
        break;
      case "EXPIRED":
        await closePending(db, payment.id, "expired");
        break;
      case "CAPTURED":
      case "CANCELLED": {
        // Our own calls; a held order's release (capture) or refund (cancel) is acknowledged by it.
        const key = event.idempotencyKey ?? "";
        const match = /^(capture|order-cancel)-([0-9a-f-]{36})$/.exec(key);
        if (match) await acknowledgeMoney(env, match[2], match[1] === "capture" ? "transfer" : "refund", key);
        break;
      }
      default:
        // CREATED, REFUNDED: results of our own calls; nothing to do.
        break;
    }
  }
  await remember(db, key, "vipps", `epayments.payment.${event.name.toLowerCase()}.v1`);
  return { received: true, duplicate: false };
}
