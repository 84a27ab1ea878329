import type { Context } from "hono";

/** The caller's IP as Cloudflare reports it; local requests have none. */
export function clientIp(c: Context): string {
  return c.req.header("CF-Connecting-IP") ?? c.req.header("X-Real-IP") ?? "local";
}
