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
