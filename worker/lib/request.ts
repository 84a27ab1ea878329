import type { Context } from "hono";
import { addressLimitKey } from "../../domain/address";

/** The caller's IP as Cloudflare reports it; local requests have none. */
export function clientIp(c: Context): string {
  return c.req.header("CF-Connecting-IP") ?? c.req.header("X-Real-IP") ?? "local";
}

/**
 * The subject every per-address rate limit counts under (docs/decisions/010-rate-limits.md): an
 * IPv4 address itself, an IPv6 address's /64, which one subscriber gets whole.
 */
export function clientAddressKey(c: Context): string {
  return addressLimitKey(clientIp(c));
}

/** What a session remembers of the device that made it (docs/product.md "Innlogget på"). */
export interface ClientInfo {
  userAgent: string | null;
  /** The platform's guess at the request's city and ISO country code, when it has one. */
  city: string | null;
  country: string | null;
}

export function clientInfo(c: Context): ClientInfo {
  const cf = (c.req.raw as { cf?: { city?: unknown; country?: unknown } }).cf;
  const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
  return { userAgent: c.req.header("User-Agent") ?? null, city: text(cf?.city), country: text(cf?.country) };
}
