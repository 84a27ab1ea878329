// The sliding-window limiter (docs/decisions/010-rate-limits.md) on the real D1, with explicit
// clocks: a burst across a fixed window's edge gets no extra attempts, concurrent requests never
// share the last slot, and refused requests leave nothing behind.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import { BINDING_RATE_RULES, RATE_LIMITED_MESSAGE, RATE_RULES, type RateRule } from "../../domain/rate-limits";
import { AppError } from "../../worker/lib/errors";
import { enforceBindingLimit, enforceRateLimit, enforceRateLimits } from "../../worker/lib/rate-limit";
import { rateLimitRows, withinOneWindow } from "./support/rate-limits";

const db = env.DB;
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

/**
 * wrangler.toml's `[[ratelimits]]` entries, read strictly: each holds exactly a name, a namespace_id
 * and `simple = { limit = N, period = P }` on their own lines, so a form this reader does not know
 * fails here rather than being read wrongly.
 */
function tomlRateLimits(toml: string): { name: string; namespaceId: string; limit: number; period: number }[] {
  return toml
    .split(/^\[\[ratelimits\]\]\s*$/m)
    .slice(1)
    .map((block) => {
      const lines = (block.split(/^\[/m)[0] ?? "")
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l !== "" && !l.startsWith("#"));
      const name = lines.map((l) => /^name = "([A-Z_]+)"$/.exec(l)?.[1]).find(Boolean);
      const namespaceId = lines.map((l) => /^namespace_id = "(\d+)"$/.exec(l)?.[1]).find(Boolean);
      const simple = lines.map((l) => /^simple = \{ limit = (\d+), period = (\d+) \}$/.exec(l)).find(Boolean);
      expect(lines, block).toHaveLength(3);
      expect(name && namespaceId && simple, block).toBeTruthy();
      return { name: name!, namespaceId: namespaceId!, limit: Number(simple![1]), period: Number(simple![2]) };
    });
}

describe("the rule table", () => {
  it("has one scope per rule and sane numbers", () => {
    const rules = Object.values(RATE_RULES);
    expect(new Set(rules.map((r) => r.scope)).size).toBe(rules.length);
    for (const r of rules) {
      expect(r.limit, r.scope).toBeGreaterThan(0);
      if ("windowSeconds" in r)
        expect(r.windowSeconds, r.scope).toBeLessThanOrEqual(86_400); // housekeeping keeps a day
      else expect([10, 60], r.scope).toContain(r.periodSeconds); // all the binding accepts
    }
  });

  it("has a [[ratelimits]] entry in wrangler.toml with the same name, limit and period for each binding rule, and no other", () => {
    const declared = tomlRateLimits(wranglerToml);
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect(declared.map(({ name, limit, period }) => ({ name, limit, period })).sort(byName)).toEqual(
      BINDING_RATE_RULES.map((r) => ({ name: r.binding, limit: r.limit, period: r.periodSeconds })).sort(byName),
    );
    // A namespace is one counter space in the Cloudflare account: two rules must never share one.
    expect(new Set(declared.map((d) => d.namespaceId)).size).toBe(declared.length);
    expect(new Set(BINDING_RATE_RULES.map((r) => r.binding)).size).toBe(BINDING_RATE_RULES.length);
    for (const r of BINDING_RATE_RULES)
      expect(typeof (env as unknown as Record<string, RateLimit>)[r.binding]?.limit, r.binding).toBe("function");
  });

  it("keeps the high-volume rules on the binding and the long windows in D1", () => {
    expect(BINDING_RATE_RULES.map((r) => r.scope).sort()).toEqual(
      [RATE_RULES.analyticsAddress, RATE_RULES.favourite, RATE_RULES.searchAddress, RATE_RULES.upload].map((r) => r.scope).sort(),
    );
    for (const rule of [RATE_RULES.signinAddress, RATE_RULES.signupAddress, RATE_RULES.reportUser, RATE_RULES.analyticsSession])
      expect(rule, rule.scope).toHaveProperty("windowSeconds");
  });

  it("lets an account take far more sign-in attempts than one address may make against it", () => {
    expect(RATE_RULES.signinAccount.limit).toBeGreaterThanOrEqual(10 * RATE_RULES.signinAddressAccount.limit);
    expect(RATE_RULES.signinAccount.windowSeconds).toBeLessThanOrEqual(RATE_RULES.signinAddressAccount.windowSeconds);
  });
});

describe("enforceBindingLimit", () => {
  it("takes `limit` requests per subject in the period, then refuses with Retry-After = the period, writing nothing to D1", async () => {
    const rule = RATE_RULES.favourite;
    const [subject, other] = [crypto.randomUUID(), crypto.randomUUID()];
    const rows = await rateLimitRows();
    await withinOneWindow(rule, 5_000);
    for (let i = 0; i < rule.limit; i++) await enforceBindingLimit(env, rule, subject);
    const refused = await enforceBindingLimit(env, rule, subject).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "RATE_LIMITED", message: RATE_LIMITED_MESSAGE, headers: { "Retry-After": "60" } });
    // Another subject has its own count.
    await enforceBindingLimit(env, rule, other);
    expect(await rateLimitRows()).toBe(rows);
  });
});
