// The carrier's tracking webhooks are authenticated with a shared secret (decision 147):
//   X-Lekebytte-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
// the scheme Stripe uses, so the timestamp is signed with the body: a replayed request is refused
// once it is older than five minutes, a changed body or timestamp never matches. Several v1 values
// (or several secrets) may be given while a secret is being rotated.
import { sameString } from "../../lib/crypto";

export const CARRIER_SIGNATURE_HEADER = "X-Lekebytte-Signature";

/** A signature older than this is a replay (the sender signs every attempt anew). */
export const CARRIER_SIGNATURE_MAX_AGE_S = 5 * 60;
/** How far ahead of our clock a sender's clock may be. */
export const CARRIER_CLOCK_SKEW_S = 30;

export type CarrierVerdict = "ok" | "missing-header" | "malformed-header" | "bad-signature" | "stale" | "future";

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hex(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

/** The header value for this body at this time (the sandbox signs the same way in Node). */
export async function carrierSignature(rawBody: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): Promise<string> {
  return `t=${timestamp},v1=${await hmacHex(secret, `${timestamp}.${rawBody}`)}`;
}

/** Parses `t=…,v1=…[,v1=…]`; null when the header is not in that shape. */
function parseHeader(value: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of value.split(",")) {
    const [key, v, ...rest] = part.trim().split("=");
    if (rest.length > 0 || v === undefined) return null;
    if (key === "t" && /^\d{1,12}$/.test(v)) timestamp = Number(v);
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(v)) signatures.push(v);
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

/**
 * Checks the raw body (exactly as received, before any JSON parsing) against the header with every
 * configured secret. The signature is checked before the time, so a forged request learns nothing
 * about the clock.
 */
export async function verifyCarrierSignature(
  rawBody: string,
  header: string | null | undefined,
  secrets: readonly string[],
  nowMs: number = Date.now(),
): Promise<CarrierVerdict> {
  if (!header) return "missing-header";
  const parsed = parseHeader(header);
  if (!parsed) return "malformed-header";
  let matched = false;
  for (const secret of secrets) {
    if (!secret) continue;
    const expected = await hmacHex(secret, `${parsed.timestamp}.${rawBody}`);
    // Every candidate is compared, so the time taken does not say which one matched.
    for (const given of parsed.signatures) if (sameString(expected, given)) matched = true;
  }
  if (!matched) return "bad-signature";
  const now = Math.floor(nowMs / 1000);
  if (parsed.timestamp < now - CARRIER_SIGNATURE_MAX_AGE_S) return "stale";
  if (parsed.timestamp > now + CARRIER_CLOCK_SKEW_S) return "future";
  return "ok";
}
