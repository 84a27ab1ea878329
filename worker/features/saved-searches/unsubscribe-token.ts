// The one-click unsubscribe link of saved-search alerts (docs/decisions/041-saved-search-alerts.md):
// `{savedSearchId}.{userId}.{expires}.{mac}`, where mac = HMAC-SHA256(server secret, label ‖
// savedSearchId ‖ userId ‖ expires). It works without signing in and can only switch off the alert
// of that one saved search of that one user until it expires; changing any part breaks the MAC.
import { UNSUBSCRIBE_LINK_DAYS } from "../../../domain/saved-searches";
import type { Bindings } from "../../env";
import { fromBase64Url, toBase64Url } from "../../lib/crypto";
import { serverHmacKey } from "../../lib/jwt";

const LABEL = "lekebytte/saved-search-unsubscribe/v1";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface UnsubscribeClaims {
  savedSearchId: string;
  userId: string;
  /** Epoch seconds. */
  expiresAt: number;
}

const message = (c: UnsubscribeClaims) => new TextEncoder().encode(`${LABEL}\0${c.savedSearchId}\0${c.userId}\0${c.expiresAt}`);

export async function signUnsubscribeToken(
  env: Bindings,
  savedSearchId: string,
  userId: string,
  now: Date = new Date(),
  days: number = UNSUBSCRIBE_LINK_DAYS,
): Promise<string> {
  const claims = { savedSearchId, userId, expiresAt: Math.floor(now.getTime() / 1000) + days * 86_400 };
  const mac = await crypto.subtle.sign("HMAC", await serverHmacKey(env), message(claims));
  return `${savedSearchId}.${userId}.${claims.expiresAt}.${toBase64Url(mac)}`;
}

export type UnsubscribeCheck = { ok: true; claims: UnsubscribeClaims } | { ok: false; reason: "invalid" | "expired" };

/** Checks the MAC (in constant time, by WebCrypto) before anything else, then the expiry. */
export async function verifyUnsubscribeToken(env: Bindings, token: string, now: Date = new Date()): Promise<UnsubscribeCheck> {
  const parts = token.split(".");
  if (parts.length !== 4) return { ok: false, reason: "invalid" };
  const [savedSearchId, userId, expires, macText] = parts;
  const mac = fromBase64Url(macText);
  if (!UUID.test(savedSearchId) || !UUID.test(userId) || !/^[0-9]{1,12}$/.test(expires) || !mac) return { ok: false, reason: "invalid" };
  const claims = { savedSearchId, userId, expiresAt: Number(expires) };
  const valid = await crypto.subtle.verify("HMAC", await serverHmacKey(env), mac, message(claims));
  if (!valid) return { ok: false, reason: "invalid" };
  if (claims.expiresAt * 1000 <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, claims };
}
