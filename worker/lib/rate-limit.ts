import { AppError } from "./errors";

export interface RateRule {
  /** Scope name, e.g. "signin:ip". */
  scope: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Exact fixed-window counters in D1 (one UPSERT per check). Throws 429 with Retry-After when the
 * subject has used its allowance. Old windows are purged by the cron housekeeping.
 */
export async function enforceRateLimit(db: D1Database, rule: RateRule, subject: string): Promise<void> {
  const nowSec = Math.floor(Date.now() / 1000);
  const windowStart = nowSec - (nowSec % rule.windowSeconds);
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1
       RETURNING count`,
    )
    .bind(`${rule.scope}:${subject}`, windowStart)
    .first<{ count: number }>();
  if ((row?.count ?? 0) > rule.limit) {
    const retryAfter = windowStart + rule.windowSeconds - nowSec;
    throw new AppError("RATE_LIMITED", "For mange forsøk. Vent litt og prøv igjen.", undefined, {
      "Retry-After": String(Math.max(1, retryAfter)),
    });
  }
}

export async function enforceRateLimits(db: D1Database, checks: Array<[RateRule, string]>): Promise<void> {
  for (const [rule, subject] of checks) await enforceRateLimit(db, rule, subject);
}

const MIN = 60;
export const RATE_RULES = {
  signinIp: { scope: "signin:ip", limit: 60, windowSeconds: 15 * MIN },
  signinEmail: { scope: "signin:email", limit: 10, windowSeconds: 15 * MIN },
  signupIp: { scope: "signup:ip", limit: 20, windowSeconds: 60 * MIN },
  signupEmail: { scope: "signup:email", limit: 3, windowSeconds: 60 * MIN },
  resendIp: { scope: "resend:ip", limit: 20, windowSeconds: 60 * MIN },
  resendEmail: { scope: "resend:email", limit: 3, windowSeconds: 15 * MIN },
  newsletterIp: { scope: "newsletter:ip", limit: 20, windowSeconds: 60 * MIN },
  newsletterEmail: { scope: "newsletter:email", limit: 5, windowSeconds: 60 * MIN },
  contactIp: { scope: "contact:ip", limit: 10, windowSeconds: 60 * MIN },
} satisfies Record<string, RateRule>;
