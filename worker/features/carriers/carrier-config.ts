// The carriers' configuration from vars and secrets (worker/env.ts). Only keys and the base URL
// differ between each carrier and the local sandbox: the code path is the same (decisions 147, 154).
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

export interface HelthjemConfig {
  /** https://api.helthjem.no (https://api.pre.helthjem.no on staging), or the local sandbox. No trailing slash. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The shop the parcels are booked on (Helthjem's `shopId`, a number). */
  shopId: number;
  /** The secret the tracking webhooks are signed with; null until one is configured. */
  webhookSecret: string | null;
}

/** Null unless the client id, secret and shop id are all set; throws when a set value is unusable. */
export function helthjemConfig(env: Bindings): HelthjemConfig | null {
  const { HELTHJEM_CLIENT_ID, HELTHJEM_CLIENT_SECRET, HELTHJEM_SHOP_ID } = env;
  if (!HELTHJEM_CLIENT_ID || !HELTHJEM_CLIENT_SECRET || !HELTHJEM_SHOP_ID) return null;
  if (!/^\d{1,9}$/.test(HELTHJEM_SHOP_ID)) throw new Error(`HELTHJEM_SHOP_ID is not a number: ${HELTHJEM_SHOP_ID}`);
  const base = configuredBaseUrl(env, "HELTHJEM_API_BASE", env.HELTHJEM_API_BASE || "https://api.helthjem.no");
  return {
    baseUrl: base.origin + base.pathname.replace(/\/$/, ""),
    clientId: HELTHJEM_CLIENT_ID,
    clientSecret: HELTHJEM_CLIENT_SECRET,
    shopId: Number(HELTHJEM_SHOP_ID),
    webhookSecret: env.HELTHJEM_WEBHOOK_SECRET || null,
  };
}
