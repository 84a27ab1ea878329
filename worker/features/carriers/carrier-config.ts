// The carrier's configuration from vars and secrets (worker/env.ts). Only keys and the base URL
// differ between Bring and the local sandbox: the code path is the same (decision 147).
import type { Bindings } from "../../env";
import { configuredBaseUrl } from "../../lib/base-url";

export interface BringConfig {
  /** https://api.bring.com, or the local sandbox. No trailing slash. */
  baseUrl: string;
  apiUid: string;
  apiKey: string;
  customerNumber: string;
  /** The secret the tracking webhooks are signed with; null until one is configured. */
  webhookSecret: string | null;
}

/** Null unless the API user, key and customer number are all set: shipping cannot be booked. */
export function bringConfig(env: Bindings): BringConfig | null {
  const { BRING_API_UID, BRING_API_KEY, BRING_CUSTOMER_NUMBER } = env;
  if (!BRING_API_UID || !BRING_API_KEY || !BRING_CUSTOMER_NUMBER) return null;
  const base = configuredBaseUrl(env, "BRING_API_BASE", env.BRING_API_BASE || "https://api.bring.com");
  return {
    baseUrl: base.origin + base.pathname.replace(/\/$/, ""),
    apiUid: BRING_API_UID,
    apiKey: BRING_API_KEY,
    customerNumber: BRING_CUSTOMER_NUMBER,
    webhookSecret: env.BRING_WEBHOOK_SECRET || null,
  };
}
