import { RATE_LIMITED_MESSAGE, type BindingRateRule, type RateRule } from "../../domain/rate-limits";
import type { Db } from "../db/client";
import { AppError } from "./errors";

/** The names of the Rate Limiting bindings wrangler.toml declares (worker-configuration.d.ts). */
type RateLimitBindingName = { [K in keyof Env]-?: Env[K] extends RateLimit ? K : never }[keyof Env];

/**
 * A high-volume limit on Cloudflare's Rate Limiting binding (docs/decisions/010-rate-limits.md): no
 * D1 write; counted per Cloudflare location and approximately, in windows of the rule's period.
 * Throws the same 429 as the D1 limits; the binding does not say when its window frees up, so
 * Retry-After is the whole period.
 */
export async function enforceBindingLimit(
  env: Pick<Env, RateLimitBindingName>,
  rule: BindingRateRule & { binding: RateLimitBindingName },
  subject: string,
): Promise<void> {
  if (await takeBindingLimit(env, rule, subject)) return;
  throw new AppError("RATE_LIMITED", RATE_LIMITED_MESSAGE, undefined, { "Retry-After": String(rule.periodSeconds) });
}

/** The same check without the refusal: counts the request and says whether it was within the limit. */
export async function takeBindingLimit(
  env: Pick<Env, RateLimitBindingName>,
  rule: BindingRateRule & { binding: RateLimitBindingName },
  subject: string,
): Promise<boolean> {
  const { success } = await env[rule.binding].limit({ key: `${rule.scope}:${subject}` });
  return success;
}

/**
 * Exact sliding-window limits (docs/decisions/010-rate-limits.md). Each accepted request adds one
 * to its millisecond's row; a request is accepted only while the rows of the last `windowSeconds`
 * sum to less than the limit, checked and written by one statement (so concurrent requests cannot
 * both take the last slot). Refused requests write nothing, so a key never holds more rows than
 * its limit. Throws 429 with Retry-After (seconds until the oldest counted request leaves the window).
 */
export async function enforceRateLimit(
  db: Db,
  rule: RateRule,
  subject: string,
  now: number = Date.now(),
  /** The refusal in the route's own words, given the wait in seconds; the general one otherwise. */
  refusal: (retryAfterSeconds: number) => string = () => RATE_LIMITED_MESSAGE,
): Promise<void> {
  if (await takeRateLimit(db, rule, subject, now)) return;
  const key = `${rule.scope}:${subject}`;
  const since = now - rule.windowSeconds * 1000;
  const oldest = await db
    .prepare("SELECT MIN(window_start) AS at FROM rate_limits WHERE key = ?1 AND window_start > ?2")
    .bind(key, since)
    .first<{ at: number | null }>();
  const retryAfter = Math.max(1, Math.ceil(((oldest?.at ?? now) + rule.windowSeconds * 1000 - now) / 1000));
  throw new AppError("RATE_LIMITED", refusal(retryAfter), undefined, { "Retry-After": String(retryAfter) });
}

/**
 * The same check without the refusal: counts the request and returns true while the window has
 * room, else writes nothing and returns false (for a caller with another way to go, such as a
 * device cookie over its own limit falling back to the limits for unknown devices).
 */
export async function takeRateLimit(db: Db, rule: RateRule, subject: string, now: number = Date.now()): Promise<boolean> {
  const key = `${rule.scope}:${subject}`;
  const since = now - rule.windowSeconds * 1000;
  const accepted = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count)
       SELECT ?1, ?2, 1 WHERE (SELECT COALESCE(SUM(count), 0) FROM rate_limits WHERE key = ?1 AND window_start > ?3) < ?4
       ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1
       RETURNING count`,
    )
    .bind(key, now, since, rule.limit)
    .first<{ count: number }>();
  return accepted !== null;
}

/**
 * Several limits for one request, narrowest first: the first that refuses stops the rest, so a
 * refused attempt does not use up the wider (for example per-account) allowances.
 */
export async function enforceRateLimits(
  db: Db,
  checks: ReadonlyArray<readonly [RateRule, string]>,
  now: number = Date.now(),
): Promise<void> {
  for (const [rule, subject] of checks) await enforceRateLimit(db, rule, subject, now);
}
