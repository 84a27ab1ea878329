// The sliding-window limiter (docs/decisions/010-rate-limits.md) on the real D1, with explicit
// clocks: a burst across a fixed window's edge gets no extra attempts, concurrent requests never
// share the last slot, and refused requests leave nothing behind.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RATE_RULES, type RateRule } from "../../domain/rate-limits";
import { getDb } from "../../worker/db/client";
import { AppError } from "../../worker/lib/errors";
import { enforceRateLimit, enforceRateLimits } from "../../worker/lib/rate-limit";

const db = getDb(env.DB);
const rule = (scope: string, limit = 10, windowSeconds = 900): RateRule => ({
  scope: `test-${scope}-${crypto.randomUUID()}`,
  limit,
  windowSeconds,
});

async function outcome(r: RateRule, subject: string, now: number): Promise<number | "ok"> {
  try {
    await enforceRateLimit(db, r, subject, now);
    return "ok";
  } catch (err) {
    if (err instanceof AppError && err.code === "RATE_LIMITED") return Number(err.headers?.["Retry-After"]);
    throw err;
  }
}

describe("enforceRateLimit", () => {
  it("allows the limit within any window, also across a fixed window's edge", async () => {
    const r = rule("edge");
    // A fixed 15-minute window would end at `edge`: ten attempts just before it…
    const edge = Math.ceil(Date.now() / 900_000) * 900_000;
    for (let i = 0; i < 10; i++) expect(await outcome(r, "x", edge - 10_000 + i)).toBe("ok");
    // …and the next ones just after it are still within the same 15 minutes: refused.
    const retry = await outcome(r, "x", edge + 1000);
    expect(retry).toBeGreaterThan(880);
    expect(retry).toBeLessThanOrEqual(890);
    expect(await outcome(r, "x", edge + 880_000)).not.toBe("ok");
    // Once the first attempt is 15 minutes old, its slot frees up (and only its slot).
    expect(await outcome(r, "x", edge - 10_000 + 900_000)).toBe("ok");
    expect(await outcome(r, "x", edge - 10_000 + 900_000)).not.toBe("ok");
  });

  it("keeps subjects and scopes apart", async () => {
    const r = rule("apart", 1);
    const now = Date.now();
    expect(await outcome(r, "a", now)).toBe("ok");
    expect(await outcome(r, "a", now)).not.toBe("ok");
    expect(await outcome(r, "b", now)).toBe("ok");
    expect(await outcome(rule("other", 1), "a", now)).toBe("ok");
  });

  it("gives exactly `limit` of 20 concurrent requests a slot", async () => {
    const r = rule("race", 5);
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 20 }, () => outcome(r, "x", now)));
    expect(results.filter((x) => x === "ok")).toHaveLength(5);
    const stored = await env.DB.prepare("SELECT SUM(count) AS n FROM rate_limits WHERE key = ?1")
      .bind(`${r.scope}:x`)
      .first<{ n: number }>();
    expect(stored!.n).toBe(5);
  });

  it("does not record refused requests, so hammering does not extend the block", async () => {
    const r = rule("hammer", 2, 60);
    const t = Date.now();
    await outcome(r, "x", t);
    await outcome(r, "x", t + 1);
    for (let i = 0; i < 50; i++) expect(await outcome(r, "x", t + 2 + i * 1000)).not.toBe("ok");
    expect(await outcome(r, "x", t + 60_001)).toBe("ok");
  });

  it("stops at the first refusing rule, so a refused attempt does not use up the wider allowances", async () => {
    const narrow = rule("narrow", 1);
    const wide = rule("wide", 3);
    const now = Date.now();
    await enforceRateLimits(
      db,
      [
        [narrow, "x"],
        [wide, "w"],
      ],
      now,
    );
    for (let i = 0; i < 5; i++)
      await expect(
        enforceRateLimits(
          db,
          [
            [narrow, "x"],
            [wide, "w"],
          ],
          now,
        ),
      ).rejects.toThrow(AppError);
    // Two of the wide rule's three slots are still free.
    expect(await outcome(wide, "w", now)).toBe("ok");
    expect(await outcome(wide, "w", now)).toBe("ok");
    expect(await outcome(wide, "w", now)).not.toBe("ok");
  });
});

describe("the rule table", () => {
  it("has one scope per rule and sane numbers", () => {
    const rules = Object.values(RATE_RULES);
    expect(new Set(rules.map((r) => r.scope)).size).toBe(rules.length);
    for (const r of rules) {
      expect(r.limit, r.scope).toBeGreaterThan(0);
      expect(r.windowSeconds, r.scope).toBeLessThanOrEqual(86_400); // housekeeping keeps a day
    }
  });

  it("lets an account take far more sign-in attempts than one address may make against it", () => {
    expect(RATE_RULES.signinAccount.limit).toBeGreaterThanOrEqual(10 * RATE_RULES.signinAddressAccount.limit);
    expect(RATE_RULES.signinAccount.windowSeconds).toBeLessThanOrEqual(RATE_RULES.signinAddressAccount.windowSeconds);
  });
});
