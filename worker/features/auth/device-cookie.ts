// Device cookies (docs/decisions/084-device-cookies.md; OWASP "Slow Down Online Guessing Attacks
// with Device Cookies"): `{userId}.{nonce}.{mac}`, the MAC an HMAC-SHA256 under the server secret
// over the account and a random nonce. Stateless: the server keeps nothing but the per-nonce
// failure count (RATE_RULES.signinDevice). Anything that does not verify is an unknown device.
import type { Bindings } from "../../env";
import { randomToken } from "../../lib/crypto";
import { serverHmacKey } from "../../lib/jwt";
import { UUID_RE } from "../../lib/uuid";

/** Its own label, so a MAC made for another purpose never verifies as a device cookie. */
const LABEL = "lekebytte/device-cookie/v1\0";
const PART_RE = /^[A-Za-z0-9_-]{16,64}$/;

export interface DeviceCookie {
  userId: string;
  /** Keys the cookie's own failure count. */
  nonce: string;
}

function base64url(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function fromBase64url(value: string): Uint8Array | null {
  try {
    const bin = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/** A new device cookie for the account (a fresh nonce, so a fresh allowance, at every sign-in). */
export async function signDeviceCookie(env: Bindings, userId: string): Promise<string> {
  const nonce = randomToken(16);
  const mac = await crypto.subtle.sign("HMAC", await serverHmacKey(env), new TextEncoder().encode(`${LABEL}${userId}.${nonce}`));
  return `${userId}.${nonce}.${base64url(mac)}`;
}

/** The account and nonce of a genuine device cookie; null for anything forged, altered or malformed. */
export async function verifyDeviceCookie(env: Bindings, value: string | undefined): Promise<DeviceCookie | null> {
  if (!value || value.length > 200) return null;
  const [userId, nonce, mac, ...rest] = value.split(".");
  if (rest.length || !userId || !nonce || !mac || !UUID_RE.test(userId) || !PART_RE.test(nonce) || !PART_RE.test(mac)) return null;
  const signature = fromBase64url(mac);
  // Only the canonical spelling: base64 ignores a last character's unused bits, so another spelling
  // of the same signature would otherwise verify too.
  if (signature?.length !== 32 || base64url(signature.buffer as ArrayBuffer) !== mac) return null;
  // crypto.subtle.verify compares in constant time.
  const ok = await crypto.subtle.verify(
    "HMAC",
    await serverHmacKey(env),
    signature,
    new TextEncoder().encode(`${LABEL}${userId}.${nonce}`),
  );
  return ok ? { userId, nonce } : null;
}
