// The official Stripe SDK, on fetch (workerd). Configuration decides where it talks to: Stripe, or
// the local payment sandbox through host/port/protocol.
import Stripe from "stripe";
import { AppError } from "../../lib/errors";
import type { StripeConfig } from "./config";
import { PAYMENT_REFUSALS } from "../../../domain/payments";

export type { Stripe };

export function stripeClient(config: StripeConfig): Stripe {
  return new Stripe(config.secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    host: config.host,
    port: config.port,
    protocol: config.protocol,
    maxNetworkRetries: 1,
    timeout: 15_000,
    appInfo: { name: "Lekebytte" },
  });
}

/**
 * Verifies Stripe-Signature against every configured secret (constructEventAsync: WebCrypto in
 * workerd). The SDK parses the body only after the signature holds, so a signed body that is not
 * JSON, or not an event, is a malformed request (400), not our failure (500).
 */
export async function verifyStripeEvent(
  stripe: Stripe,
  rawBody: string,
  signature: string,
  secrets: string[],
): Promise<Stripe.Event | null> {
  for (const secret of secrets) {
    let event: Stripe.Event;
    try {
      event = await stripe.webhooks.constructEventAsync(rawBody, signature, secret);
    } catch (error) {
      if (error instanceof SyntaxError) throw new AppError("VALIDATION", PAYMENT_REFUSALS.invalidJson);
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
      continue;
    }
    const shape = event as unknown as { id?: unknown; type?: unknown; data?: { object?: unknown } } | null;
    if (
      !shape ||
      typeof shape.id !== "string" ||
      typeof shape.type !== "string" ||
      typeof shape.data?.object !== "object" ||
      shape.data.object === null
    ) {
      throw new AppError("VALIDATION", PAYMENT_REFUSALS.invalidEvent);
    }
    return event;
  }
  return null;
}
