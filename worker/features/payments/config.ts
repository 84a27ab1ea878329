// Provider configuration from wrangler vars and secrets. Only keys and base URLs differ between
// the real providers and the local payment sandbox: the code path is the same.
import type { Bindings } from "../../env";
import { configuredBaseUrl } from "../../lib/base-url";

export interface StripeConfig {
  secretKey: string;
  /** Every secret a webhook may be signed with (the account endpoint's and, if set, the Connect endpoint's). */
  webhookSecrets: string[];
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

export interface VippsConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
  msn: string;
  webhookSecret: string | null;
}

/** Null when Stripe is not configured (no secret key): card payments and onboarding are unavailable. */
export function stripeConfig(env: Bindings): StripeConfig | null {
  if (!env.STRIPE_SECRET_KEY) return null;
  const webhookSecrets = [env.STRIPE_WEBHOOK_SECRET, env.STRIPE_CONNECT_WEBHOOK_SECRET].filter((s): s is string => !!s);
  const config: StripeConfig = { secretKey: env.STRIPE_SECRET_KEY, webhookSecrets };
  if (env.STRIPE_API_BASE) {
    const url = configuredBaseUrl(env, "STRIPE_API_BASE", env.STRIPE_API_BASE);
    config.host = url.hostname;
    config.protocol = url.protocol === "http:" ? "http" : "https";
    config.port = url.port ? Number(url.port) : config.protocol === "http" ? 80 : 443;
  }
  return config;
}

/** Null unless every Vipps credential is set. */
export function vippsConfig(env: Bindings): VippsConfig | null {
  const { VIPPS_CLIENT_ID, VIPPS_CLIENT_SECRET, VIPPS_SUBSCRIPTION_KEY, VIPPS_MERCHANT_SERIAL_NUMBER } = env;
  if (!VIPPS_CLIENT_ID || !VIPPS_CLIENT_SECRET || !VIPPS_SUBSCRIPTION_KEY || !VIPPS_MERCHANT_SERIAL_NUMBER) return null;
  const base = configuredBaseUrl(env, "VIPPS_API_BASE", env.VIPPS_API_BASE || "https://api.vipps.no");
  return {
    baseUrl: base.origin + base.pathname.replace(/\/$/, ""),
    clientId: VIPPS_CLIENT_ID,
    clientSecret: VIPPS_CLIENT_SECRET,
    subscriptionKey: VIPPS_SUBSCRIPTION_KEY,
    msn: VIPPS_MERCHANT_SERIAL_NUMBER,
    webhookSecret: env.VIPPS_WEBHOOK_SECRET || null,
  };
}

export function platformFeeBasisPoints(env: Bindings): number {
  const bps = Number(env.PLATFORM_FEE_BASIS_POINTS ?? 0);
  return Number.isInteger(bps) && bps >= 0 && bps <= 10_000 ? bps : 0;
}
