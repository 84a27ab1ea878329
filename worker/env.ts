import type { Context } from "hono";
import type { Db } from "./db/client";

/** Secrets are not in wrangler.toml; they come from `wrangler secret put` or .dev.vars locally. */
export interface Secrets {
  JWT_SECRET?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  VIPPS_CLIENT_ID?: string;
  VIPPS_CLIENT_SECRET?: string;
  VIPPS_SUBSCRIPTION_KEY?: string;
  VIPPS_MERCHANT_SERIAL_NUMBER?: string;
  VIPPS_WEBHOOK_SECRET?: string;
  /** Optional second signing secret: a Connect webhook endpoint (account.updated) has its own. */
  STRIPE_CONNECT_WEBHOOK_SECRET?: string;
  /**
   * Base URL of Stripe's API when it is not api.stripe.com: only the local payment sandbox
   * (http://127.0.0.1:PORT, set by scripts/start.mjs). Outside local mode it must be https.
   */
  STRIPE_API_BASE?: string;
  /**
   * The carrier, Bring (docs/decisions/147-carrier-api-and-sandbox.md): base URL of its APIs when it
   * is not https://api.bring.com (only the local sandbox, http://127.0.0.1:PORT, set by
   * scripts/start.mjs), the Mybring API user and key, the customer number the C2C parcels are
   * booked on, and the secret its tracking webhooks are signed with. Without the user, key and
   * customer number, shipping cannot be booked.
   */
  BRING_API_BASE?: string;
  BRING_API_UID?: string;
  BRING_API_KEY?: string;
  BRING_CUSTOMER_NUMBER?: string;
  BRING_WEBHOOK_SECRET?: string;
  /**
   * The second carrier, Helthjem (docs/decisions/154-helthjem-carrier.md): the API client id and
   * secret a bearer token is asked for with, the shop id the parcels are booked on, and the secret
   * its tracking webhooks are signed with. Without the id, secret and shop, Helthjem's parcels
   * cannot be booked. Its base URL is HELTHJEM_API_BASE in wrangler.toml's vars (the sandbox's
   * locally, set by scripts/start.mjs).
   */
  HELTHJEM_CLIENT_ID?: string;
  HELTHJEM_CLIENT_SECRET?: string;
  HELTHJEM_SHOP_ID?: string;
  HELTHJEM_WEBHOOK_SECRET?: string;
  /** IndexNow key and endpoint; both set only on the production host. */
  INDEXNOW_KEY?: string;
  INDEXNOW_ENDPOINT?: string;
  /**
   * Cloudflare zone id and an API token with the Cache Purge permission: the edge cache's purge by
   * tag then reaches every data centre (docs/decisions/101-edge-cache.md); without them only the
   * data centre that made the change.
   */
  CACHE_PURGE_ZONE_ID?: string;
  CACHE_PURGE_TOKEN?: string;
  /**
   * "off" takes the edge cache out of the path (docs/decisions/101-edge-cache.md): every answer is
   * the handler's and `private, no-store`. A switch for an operator who suspects the cache, without
   * a code change; `npm run bench:load` uses it for its "without the edge cache" figures.
   */
  EDGE_CACHE?: string;
  /**
   * "low" hashes new passwords at the test cost (passwordHashParams in features/auth/password.ts),
   * in local mode only: the end-to-end tests sign up some sixty accounts. Any other mode ignores it.
   */
  PASSWORD_HASH_COST?: string;
}

/** Optional Cloudflare e-mail sending binding (production only). */
export interface MailBinding {
  send(message: { from: string; to: string; subject: string; text: string; html?: string }): Promise<unknown>;
}

export type Bindings = Env & Secrets & { EMAIL?: MailBinding };

/** The signed-in user as loaded from D1 for this request (role is never taken from the token). */
export interface Actor {
  id: string;
  email: string;
  displayName: string | null;
  role: "user" | "moderator" | "admin";
  /** An active suspension (decision 051): it also takes away every staff right (decision 052). */
  suspended: boolean;
  sessionFamily: string;
  /** Access token expiry, epoch seconds (the web refreshes when ≤ 90 s remain). */
  accessExpiresAt: number;
}

/**
 * `requestId`: the request's id (middleware/request-trace.ts); `db`: the request's D1 client
 * (middleware/db.ts); `actor`: the signed-in user (middleware/session.ts); `edgeTags`: set by a handler that already knows what its answer shows (a listing and its seller),
 * so the edge cache tags a stored answer without asking D1 again (middleware/edge-cache.ts).
 */
export type AppEnv = { Bindings: Bindings; Variables: { requestId: string; actor: Actor | null; db: Db; edgeTags?: string[] } };
export type AppContext = Context<AppEnv>;

/** What the Worker runs as (docs/decisions/135-local-mode-from-the-origin.md). */
export type AppMode = "local" | "staging" | "production";

/** The two variables the mode is made of (also the shape a test or a script can hand over). */
export interface ModeVars {
  APP_ENV?: string;
  APP_ORIGIN?: string;
}

/** An origin as the URL parser reads it, or null when it is none. */
export function parsedOrigin(origin: string | undefined): URL | null {
  try {
    return new URL(origin ?? "");
  } catch {
    return null;
  }
}

/**
 * localhost, 127.0.0.0/8 and [::1]: the only origins whose links and cookies stay on the machine that
 * runs the Worker. The URL parser has already written any IPv4 host as four decimal numbers, so
 * "127.1" counts and "127.0.0.1.example.com" does not.
 */
export function isLoopbackOrigin(origin: string | undefined): boolean {
  const url = parsedOrigin(origin);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return false;
  return url.hostname === "localhost" || url.hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(url.hostname);
}

/**
 * The one reading of APP_ENV. Local mode (the dev routes, the dev outbox, the built-in development
 * JWT secret, plain-http provider URLs) is a function of the origin as well: APP_ENV "local" counts
 * only with a loopback APP_ORIGIN. "local" on a real host, or an APP_ENV that is none of the three,
 * is no mode at all: the reason says why, and middleware/config.ts refuses every request with it.
 */
export function readMode(env: ModeVars): { mode: AppMode } | { mode: null; reason: string } {
  switch (env.APP_ENV) {
    case "local":
      if (isLoopbackOrigin(env.APP_ORIGIN)) return { mode: "local" };
      return {
        mode: null,
        reason: `APP_ENV is "local" but APP_ORIGIN is "${env.APP_ORIGIN ?? ""}": local mode (dev routes, dev outbox, the development JWT secret) runs only on localhost, 127.0.0.0/8 or [::1]. A deployed Worker says APP_ENV "staging" or "production".`,
      };
    case "staging":
    case "production":
      return { mode: env.APP_ENV };
    default:
      return { mode: null, reason: `APP_ENV is "${env.APP_ENV ?? ""}": it must be "local", "staging" or "production".` };
  }
}

export function appMode(env: ModeVars): AppMode | null {
  return readMode(env).mode;
}

export function isLocal(env: ModeVars): boolean {
  return appMode(env) === "local";
}

/**
 * A queue's name without its environment's suffix: queue names are per Cloudflare account, so
 * staging's are "analytics-staging", … while production and the local Worker keep the plain names
 * (wrangler.toml). The consumers dispatch on the plain name.
 */
export function queueBaseName(queue: string, env: ModeVars): string {
  const suffix = `-${appMode(env)}`;
  return queue.endsWith(suffix) ? queue.slice(0, -suffix.length) : queue;
}
