// Vipps MobilePay webhook request authentication (Webhooks API, "Request authentication"):
//   x-ms-content-sha256 = base64(SHA-256(body))
//   Authorization = HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=<sig>
//   sig = base64(HMAC-SHA256(secret, "POST\n<path and query>\n<x-ms-date>;<host>;<content hash>"))
// The secret is the one returned when the webhook was registered, used as UTF-8 bytes.
import { sameString } from "../../lib/crypto";

export interface WebhookRequest {
  method: string;
  /** The full request URL as received (its host and path and query are signed). */
  url: string;
  headers: Headers;
  body: string;
}

/** How far x-ms-date may be from our clock. Vipps signs each delivery attempt when it sends it. */
export const VIPPS_DATE_TOLERANCE_MS = 5 * 60 * 1000;

const AUTH_RE = /^HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=([A-Za-z0-9+/=]+)$/;

const encoder = new TextEncoder();

function base64(bytes: ArrayBuffer): string {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s);
}

export type VippsVerdict = "ok" | "missing-headers" | "bad-content-hash" | "bad-signature" | "stale-date";

export async function verifyVippsWebhook(req: WebhookRequest, secret: string, now: number = Date.now()): Promise<VippsVerdict> {
  const date = req.headers.get("x-ms-date");
  const contentHash = req.headers.get("x-ms-content-sha256");
  const authorization = req.headers.get("authorization");
  if (!date || !contentHash || !authorization) return "missing-headers";
  const signature = AUTH_RE.exec(authorization)?.[1];
  if (!signature) return "bad-signature";

  const actualHash = base64(await crypto.subtle.digest("SHA-256", encoder.encode(req.body)));
  if (!sameString(actualHash, contentHash)) return "bad-content-hash";

  const url = new URL(req.url);
  const signed = `${req.method.toUpperCase()}\n${url.pathname}${url.search}\n${date};${url.host};${contentHash}`;
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const expected = base64(await crypto.subtle.sign("HMAC", key, encoder.encode(signed)));
  if (!sameString(expected, signature)) return "bad-signature";

  const sent = Date.parse(date);
  if (!Number.isFinite(sent) || Math.abs(now - sent) > VIPPS_DATE_TOLERANCE_MS) return "stale-date";
  return "ok";
}
