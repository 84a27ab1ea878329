// Keys the local payment sandbox accepts and signs with. Local development only: the sandbox is
// not Stripe or Vipps, these values open nothing anywhere else, and no deployed Worker uses them.
// scripts/start.mjs gives the same values to the Worker (as --var) and to the sandbox.
export const SANDBOX_KEYS = Object.freeze({
  STRIPE_SECRET_KEY: "sk_sandbox_lekebytte_local_only",
  STRIPE_WEBHOOK_SECRET: "whsec_sandbox_lekebytte_local_only",
  VIPPS_CLIENT_ID: "lekebytte-sandbox-client",
  VIPPS_CLIENT_SECRET: "sandbox-client-secret-local-only",
  VIPPS_SUBSCRIPTION_KEY: "sandbox-subscription-key-local-only",
  VIPPS_MERCHANT_SERIAL_NUMBER: "123456",
  VIPPS_WEBHOOK_SECRET: "sandbox-vipps-webhook-secret-local-only",
});

/** The sandbox's port: PAYMENT_SANDBOX_PORT, or the app's port + 30 (8787 → 8817). */
export function sandboxPort(appPort) {
  const raw = process.env.PAYMENT_SANDBOX_PORT;
  const p = raw ? Number(raw) : appPort + 30;
  if (!Number.isInteger(p) || p <= 0 || p > 65535) throw new Error(`PAYMENT_SANDBOX_PORT må være et portnummer, fikk «${raw}»`);
  return p;
}
