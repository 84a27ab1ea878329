// The analytics session a consenting browser gets from the server (docs/decisions/038): a cookie
// `{sessionId}.{expires}.{mac}`, mac = HMAC-SHA256(server secret, label ‖ sessionId ‖ expires).
// Listing views, events and searches are counted only under such a session, and under the one the
// cookie names, never a session id the request body makes up.
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { ANALYTICS_SESSION_TTL_SECONDS } from "../../../domain/analytics";
import type { AppEnv } from "../../env";
import { fromBase64Url, toBase64Url } from "../../lib/crypto";
import { serverHmacKey } from "../../lib/jwt";

const LABEL = "lekebytte/analytics-session/v1";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `__Host-` and Secure need https; plain http (local development) gets the unprefixed name (web/analytics/tracker.ts deletes both). */
function cookieName(c: Context<AppEnv>): { name: string; secure: boolean } {
  const secure = new URL(c.req.url).protocol === "https:";
  return { name: secure ? "__Host-lb_analytics" : "lb_analytics", secure };
}

const message = (sessionId: string, expiresAt: number) => new TextEncoder().encode(`${LABEL}\0${sessionId.toLowerCase()}\0${expiresAt}`);

/** The session id of the request's valid, unexpired analytics cookie, or null. */
export async function analyticsSessionOf(c: Context<AppEnv>, now: Date = new Date()): Promise<string | null> {
  const value = getCookie(c, cookieName(c).name);
  const parts = value?.split(".") ?? [];
  if (parts.length !== 3) return null;
  const [sessionId, expires, mac] = parts;
  const expiresAt = Number(expires);
  const signature = fromBase64Url(mac);
  if (!UUID.test(sessionId) || !/^\d{1,12}$/.test(expires) || !signature) return null;
  const valid = await crypto.subtle.verify("HMAC", await serverHmacKey(c.env), signature, message(sessionId, expiresAt));
  if (!valid || expiresAt * 1000 <= now.getTime()) return null;
  return sessionId.toLowerCase();
}

/**
 * Sets the cookie for `sessionId` (SameSite=Strict, a day). Not HttpOnly: withdrawing consent must
 * delete it at once in the browser (decision 037), and it grants nothing but being counted.
 */
export async function issueAnalyticsSession(c: Context<AppEnv>, sessionId: string, now: Date = new Date()): Promise<void> {
  const expiresAt = Math.floor(now.getTime() / 1000) + ANALYTICS_SESSION_TTL_SECONDS;
  const mac = await crypto.subtle.sign("HMAC", await serverHmacKey(c.env), message(sessionId, expiresAt));
  const { name, secure } = cookieName(c);
  setCookie(c, name, `${sessionId.toLowerCase()}.${expiresAt}.${toBase64Url(mac)}`, {
    httpOnly: false,
    secure,
    sameSite: "Strict",
    path: "/",
    maxAge: ANALYTICS_SESSION_TTL_SECONDS,
  });
}
