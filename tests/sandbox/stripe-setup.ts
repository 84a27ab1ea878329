// The sandbox's Stripe for the Stripe test files: a sandbox per file with a receiver for its
// webhooks, the official SDK pointed at it (as the app drives it), and steps several tests take.
import Stripe from "stripe";
import { afterAll, beforeAll, expect } from "vitest";
import type { PaymentSandbox } from "../../scripts/payment-sandbox/server";
import { form, KEYS, receiver, sandbox } from "./helpers";

// Set before the file's tests run by withStripeSandbox(); importers read them as live bindings.
export let sb: PaymentSandbox;
export let hooks: Awaited<ReturnType<typeof receiver>>;
export let stripe: Stripe;

/** The sandbox with a webhook endpoint and the SDK, started before the file's tests and stopped after. */
export function withStripeSandbox(): void {
  beforeAll(async () => {
    hooks = await receiver();
    sb = await sandbox({
      stripe: { secretKey: KEYS.stripeKey, webhook: { url: `${hooks.url}/hooks/stripe`, secret: KEYS.stripeWebhookSecret } },
    });
    stripe = new Stripe(KEYS.stripeKey, { host: "127.0.0.1", port: sb.port, protocol: "http", maxNetworkRetries: 0 });
  });

  afterAll(async () => {
    await sb.close();
    await hooks.close();
  });
}

/** Hosted-page URLs carry the public host (localhost); reach them on the address the sandbox listens on. */
export const local = (url: string) => {
  const u = new URL(url);
  return `${sb.url}${u.pathname}${u.search}`;
};

export async function onboardedAccount(): Promise<Stripe.Account> {
  const account = await stripe.accounts.create({
    type: "express",
    country: "NO",
    email: "selger@test.no",
    capabilities: { transfers: { requested: true } },
  });
  const link = await stripe.accountLinks.create({
    account: account.id,
    type: "account_onboarding",
    refresh_url: "http://app.test/refresh",
    return_url: "http://app.test/return",
  });
  const done = await fetch(local(link.url), form({ first_name: "Siri", last_name: "Selger", account_number: "1234 56 78903" }));
  expect(done.status).toBe(303);
  expect(done.headers.get("location")).toBe("http://app.test/return");
  return stripe.accounts.retrieve(account.id);
}

export function sessionParams(destination?: string): Stripe.Checkout.SessionCreateParams {
  return {
    mode: "payment",
    line_items: [{ quantity: 1, price_data: { currency: "nok", unit_amount: 125000, product_data: { name: "Lekekjøkken" } } }],
    success_url: "http://app.test/payment-success?session_id={CHECKOUT_SESSION_ID}&payment_id=p1",
    cancel_url: "http://app.test/annonse/lekekjokken",
    metadata: { payment_id: "p1" },
    ...(destination ? { payment_intent_data: { transfer_data: { destination }, application_fee_amount: 5000 } } : {}),
  };
}
