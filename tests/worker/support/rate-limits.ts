// Rate-limit state as earlier requests would have left it (worker/lib/rate-limit.ts keeps one
// row per key and millisecond of an accepted request), without making those requests.
import { env } from "cloudflare:workers";
import type { RateRule } from "../../../domain/rate-limits";

/** `count` attempts (the whole allowance by default) counted for `subject` `agoMs` before now, inside the sliding window. */
export async function countAttempts(rule: RateRule, subject: string, count: number = rule.limit, agoMs = 1000): Promise<void> {
  await env.DB.prepare("INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, ?3)")
    .bind(`${rule.scope}:${subject}`, Date.now() - agoMs, count)
    .run();
}
