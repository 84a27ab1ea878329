// Rate-limit state as earlier requests would have left it (worker/lib/rate-limit.ts keeps one
// row per key and millisecond of an accepted request), without making those requests; and what the
// tests of the Rate Limiting binding's rules need.
import { env } from "cloudflare:workers";
import type { BindingRateRule, RateRule } from "../../../domain/rate-limits";

/** `count` attempts (the whole allowance by default) counted for `subject` `agoMs` before now, inside the sliding window. */
export async function countAttempts(rule: RateRule, subject: string, count: number = rule.limit, agoMs = 1000): Promise<void> {
  await env.DB.prepare("INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, ?3)")
    .bind(`${rule.scope}:${subject}`, Date.now() - agoMs, count)
    .run();
}

/** Every row of the D1 limiter: a binding rule's requests must not add any. */
export async function rateLimitRows(): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM rate_limits").first<{ n: number }>())!.n;
}

/**
 * Waits, when needed, until the binding's current window has `needMs` left. The local binding
 * (Miniflare) counts in fixed windows of the period aligned to the clock, so `limit + 1` requests
 * that straddle a window's end would meet a fresh count and not be refused. `needMs` is what the
 * requests take on a loaded machine, not alone: 120 search pages took 7 s beside the end-to-end
 * tests (a fresh-clone run met exactly that straddle with 5 s).
 */
export async function withinOneWindow(rule: BindingRateRule, needMs: number): Promise<void> {
  const period = rule.periodSeconds * 1000;
  const left = period - (Date.now() % period);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/**
 * Runs `burst` (the requests of a whole allowance and the one over it) inside one window of the
 * binding, and runs it again with fresh subjects when a loaded machine made it straddle a window's
 * end anyway, where the count starts over and nothing is refused.
 */
export async function inOneWindow<T>(rule: BindingRateRule, needMs: number, burst: () => Promise<T>): Promise<T> {
  const period = rule.periodSeconds * 1000;
  for (let attempt = 1; ; attempt++) {
    await withinOneWindow(rule, needMs);
    const window = Math.floor(Date.now() / period);
    const result = await burst();
    if (Math.floor(Date.now() / period) === window || attempt === 3) return result;
  }
}
