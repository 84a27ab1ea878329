// Keys the local payment sandbox accepts and signs with. Local development only: the sandbox is
// not Stripe, Vipps, Bring or Helthjem, these values open nothing anywhere else, and no deployed Worker uses them.
// scripts/start.mjs gives the same values to the Worker (as --var, sandboxBindings) and to the sandbox.
export const SANDBOX_KEYS = Object.freeze({
  STRIPE_SECRET_KEY: "sk_sandbox_lekebytte_local_only",
  STRIPE_WEBHOOK_SECRET: "whsec_sandbox_lekebytte_local_only",
  VIPPS_CLIENT_ID: "lekebytte-sandbox-client",
  VIPPS_CLIENT_SECRET: "sandbox-client-secret-local-only",
  VIPPS_SUBSCRIPTION_KEY: "sandbox-subscription-key-local-only",
  VIPPS_MERCHANT_SERIAL_NUMBER: "123456",
  VIPPS_WEBHOOK_SECRET: "sandbox-vipps-webhook-secret-local-only",
  BRING_API_UID: "lekebytte-sandbox@example.invalid",
  BRING_API_KEY: "sandbox-bring-api-key-local-only",
  BRING_CUSTOMER_NUMBER: "20012345678",
  BRING_WEBHOOK_SECRET: "sandbox-bring-webhook-secret-local-only",
  HELTHJEM_CLIENT_ID: "lekebytte-sandbox-helthjem",
  HELTHJEM_CLIENT_SECRET: "sandbox-helthjem-client-secret-local-only",
  HELTHJEM_SHOP_ID: "4242",
  HELTHJEM_WEBHOOK_SECRET: "sandbox-helthjem-webhook-secret-local-only",
});

/** The sandbox's port: PAYMENT_SANDBOX_PORT, or the app's port + 30 (8787 → 8817). */
export function sandboxPort(appPort) {
  const raw = process.env.PAYMENT_SANDBOX_PORT;
  const p = raw ? Number(raw) : appPort + 30;
  if (!Number.isInteger(p) || p <= 0 || p > 65535) throw new Error(`PAYMENT_SANDBOX_PORT må være et portnummer, fikk «${raw}»`);
  return p;
}

/**
 * Which providers run against the sandbox: those without keys in .dev.vars (`vars`), or all when
 * PAYMENT_SANDBOX=1 (`mode`); none when it is 0.
 */
export function sandboxProviders(vars, mode) {
  if (mode === "0") return { stripe: false, vipps: false, bring: false, helthjem: false };
  const force = mode === "1";
  const all = (names) => names.every((k) => vars[k]);
  return {
    stripe: force || !vars.STRIPE_SECRET_KEY,
    vipps: force || !all(["VIPPS_CLIENT_ID", "VIPPS_CLIENT_SECRET", "VIPPS_SUBSCRIPTION_KEY", "VIPPS_MERCHANT_SERIAL_NUMBER"]),
    bring: force || !all(["BRING_API_UID", "BRING_API_KEY", "BRING_CUSTOMER_NUMBER"]),
    helthjem: force || !all(["HELTHJEM_CLIENT_ID", "HELTHJEM_CLIENT_SECRET", "HELTHJEM_SHOP_ID"]),
  };
}

/** The Worker's variables for the providers the sandbox serves: its keys and its base URL. */
export function sandboxBindings(providers, base) {
  const k = SANDBOX_KEYS;
  return {
    ...(providers.stripe
      ? { STRIPE_SECRET_KEY: k.STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: k.STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE: base }
      : {}),
    ...(providers.vipps
      ? {
          VIPPS_CLIENT_ID: k.VIPPS_CLIENT_ID,
          VIPPS_CLIENT_SECRET: k.VIPPS_CLIENT_SECRET,
          VIPPS_SUBSCRIPTION_KEY: k.VIPPS_SUBSCRIPTION_KEY,
          VIPPS_MERCHANT_SERIAL_NUMBER: k.VIPPS_MERCHANT_SERIAL_NUMBER,
          VIPPS_WEBHOOK_SECRET: k.VIPPS_WEBHOOK_SECRET,
          VIPPS_API_BASE: base,
        }
      : {}),
    ...(providers.bring
      ? {
          BRING_API_UID: k.BRING_API_UID,
          BRING_API_KEY: k.BRING_API_KEY,
          BRING_CUSTOMER_NUMBER: k.BRING_CUSTOMER_NUMBER,
          BRING_WEBHOOK_SECRET: k.BRING_WEBHOOK_SECRET,
          BRING_API_BASE: base,
        }
      : {}),
    ...(providers.helthjem
      ? {
          HELTHJEM_CLIENT_ID: k.HELTHJEM_CLIENT_ID,
          HELTHJEM_CLIENT_SECRET: k.HELTHJEM_CLIENT_SECRET,
          HELTHJEM_SHOP_ID: k.HELTHJEM_SHOP_ID,
          HELTHJEM_WEBHOOK_SECRET: k.HELTHJEM_WEBHOOK_SECRET,
          HELTHJEM_API_BASE: base,
        }
      : {}),
  };
}
