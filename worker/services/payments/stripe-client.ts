// The official Stripe SDK, on fetch (workerd). Configuration decides where it talks to: Stripe, or
// the local payment sandbox through host/port/protocol.
import Stripe from "stripe";
import type { StripeConfig } from "./config";

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

/** Verifies Stripe-Signature against every configured secret (constructEventAsync: WebCrypto in workerd). */
export async function verifyStripeEvent(stripe: Stripe, rawBody: string, signature: string, secrets: string[]): Promise<Stripe.Event | null> {
  for (const secret of secrets) {
    try {
      return await stripe.webhooks.constructEventAsync(rawBody, signature, secret);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
    }
  }
  return null;
}
