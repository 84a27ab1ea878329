// Accounts: sessions with rotating refresh tokens (reuse, concurrent refreshes, the absolute
// lifetime), forged tokens, the session check and signing out.
import { env } from "cloudflare:workers";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../worker/env";
import { REFRESH_ABSOLUTE_TTL_SECONDS, REFRESH_REUSE_GRACE_SECONDS, REFRESH_TTL_SECONDS } from "../../../worker/features/auth/auth";
import { Client, errorOf } from "../support/http";
import { signedIn } from "../support/auth";

describe("tokens", () => {
  /** Rows of the user's session family that can still be rotated: the live chains. */
  async function liveChains(userId: string): Promise<number> {
    const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?1 AND rotated_at IS NULL AND revoked_at IS NULL")
      .bind(userId)
      .first<{ n: number }>();
    return row!.n;
  }

  /** Move this user's rotations `seconds` into the past (past the grace), leaving other tests' rows alone. */
  async function ageRotations(userId: string, seconds: number) {
    await env.DB.prepare("UPDATE sessions SET rotated_at = ?2 WHERE user_id = ?1 AND rotated_at IS NOT NULL")
      .bind(userId, new Date(Date.now() - seconds * 1000).toISOString())
      .run();
  }

  it("rotates the refresh token and revokes the family when an old one is reused after the grace", async () => {
    const { client, user } = await signedIn();
    const stolen = client.cookies.get("lb_refresh")!;
    expect((await client.post("/api/auth/refresh")).status).toBe(200);
    expect(client.cookies.get("lb_refresh")).not.toBe(stolen);

    await ageRotations(user.id, REFRESH_REUSE_GRACE_SECONDS + 1);
    const attacker = new Client();
    attacker.cookies.set("lb_refresh", stolen);
    const reuse = await attacker.post("/api/auth/refresh");
    expect(reuse.status).toBe(401);

    // The legitimate holder's current tokens die with the family.
    expect((await client.get("/api/auth/session")).status).toBe(401);
    expect((await client.post("/api/auth/refresh")).status).toBe(401);
    expect(await liveChains(user.id)).toBe(0);
  });

  it("gives 20 concurrent refreshes of one token the same successor: exactly one live chain", async () => {
    const { client, user } = await signedIn();
    const token = client.cookies.get("lb_refresh")!;
    const tabs = Array.from({ length: 20 }, () => {
      const tab = new Client();
      tab.cookies.set("lb_refresh", token);
      return tab;
    });
    const answers = await Promise.all(tabs.map((tab) => tab.post("/api/auth/refresh")));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const successors = new Set(tabs.map((tab) => tab.cookies.get("lb_refresh")));
    expect(successors.size).toBe(1);
    expect(successors.has(token)).toBe(false);
    expect(await liveChains(user.id)).toBe(1);
    for (const tab of tabs.slice(0, 3)) expect((await tab.get("/api/auth/session")).status).toBe(200);

    // The shared successor rotates once more like any token, still one chain.
    expect((await tabs[0].post("/api/auth/refresh")).status).toBe(200);
    expect(await liveChains(user.id)).toBe(1);
  });

  it("answers a replay within the grace with the successor already issued, never a second chain", async () => {
    const { client, user } = await signedIn();
    const old = client.cookies.get("lb_refresh")!;
    expect((await client.post("/api/auth/refresh")).status).toBe(200);
    const current = client.cookies.get("lb_refresh")!;

    const replay = new Client();
    replay.cookies.set("lb_refresh", old);
    expect((await replay.post("/api/auth/refresh")).status).toBe(200);
    expect(replay.cookies.get("lb_refresh")).toBe(current);
    expect(await liveChains(user.id)).toBe(1);

    // Once the successor has moved on, a late repeat within the grace is refused, but nothing is
    // revoked and the cookies the other tab set are left alone.
    expect((await client.post("/api/auth/refresh")).status).toBe(200);
    const late = new Client();
    late.cookies.set("lb_refresh", old);
    const stale = await late.post("/api/auth/refresh");
    expect(stale.status).toBe(401);
    expect(stale.headers.getSetCookie()).toEqual([]);
    expect((await client.get("/api/auth/session")).status).toBe(200);
    expect(await liveChains(user.id)).toBe(1);
  });

  it("ends a sign-in after its absolute lifetime, whatever the sliding expiry says", async () => {
    const { client, user } = await signedIn();
    const row = await env.DB.prepare("SELECT expires_at, family_expires_at, created_at FROM sessions WHERE user_id = ?1")
      .bind(user.id)
      .first<{ expires_at: string; family_expires_at: string; created_at: string }>();
    const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;
    expect(days(row!.created_at, row!.family_expires_at)).toBeCloseTo(REFRESH_ABSOLUTE_TTL_SECONDS / 86_400, 1);
    expect(days(row!.created_at, row!.expires_at)).toBeCloseTo(REFRESH_TTL_SECONDS / 86_400, 1);

    // Near the end of the sign-in, the successor (and its cookie) live only until that end.
    const soon = new Date(Date.now() + 3600_000).toISOString();
    await env.DB.prepare("UPDATE sessions SET family_expires_at = ?2 WHERE user_id = ?1").bind(user.id, soon).run();
    const refreshed = await client.post("/api/auth/refresh");
    expect(refreshed.status).toBe(200);
    const cookie = refreshed.headers.getSetCookie().find((c) => c.startsWith("lb_refresh="))!;
    expect(Number(/Max-Age=(\d+)/i.exec(cookie)![1])).toBeLessThanOrEqual(3600);
    const successor = await env.DB.prepare("SELECT expires_at, family_expires_at FROM sessions WHERE user_id = ?1 AND rotated_at IS NULL")
      .bind(user.id)
      .first<{ expires_at: string; family_expires_at: string }>();
    expect(successor).toEqual({ expires_at: soon, family_expires_at: soon });

    // Past the end: no refresh, and the access token stops working too.
    await env.DB.prepare("UPDATE sessions SET family_expires_at = ?2 WHERE user_id = ?1").bind(user.id, "2000-01-01T00:00:00.000Z").run();
    expect((await client.get("/api/auth/session")).status).toBe(401);
    expect((await client.post("/api/auth/refresh")).status).toBe(401);
  });

  async function craft(payload: Record<string, unknown>, secret: string, header: Record<string, unknown> = { alg: "HS256" }) {
    return new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(new TextEncoder().encode(secret));
  }

  it("rejects forged, tampered, expired and alg:none access tokens", async () => {
    const { client, user } = await signedIn();
    const real = client.cookies.get("lb_access")!;
    const family = JSON.parse(atob(real.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).sid as string;
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: user.id, sid: family, iss: "lekebytte", aud: "lekebytte-web", token_type: "access", iat: now, exp: now + 600 };
    const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    const tokens = {
      otherSecret: await craft(claims, "an-attacker-secret-that-is-long-enough-0123456789"),
      algNone: `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`,
      tampered: `${real.split(".")[0]}.${b64({ ...claims, sub: crypto.randomUUID() })}.${real.split(".")[2]}`,
      expired: await craft(
        { ...claims, exp: now - 10 },
        (env as Bindings).JWT_SECRET ?? "local-development-only-secret-not-for-production-use-0123456789",
      ),
      wrongType: await craft(
        { ...claims, token_type: "refresh" },
        (env as Bindings).JWT_SECRET ?? "local-development-only-secret-not-for-production-use-0123456789",
      ),
      garbage: "not-a-jwt",
    };
    for (const [name, token] of Object.entries(tokens)) {
      const res = await new Client().get("/api/auth/session", { headers: { Cookie: `lb_access=${token}` } });
      expect(res.status, name).toBe(401);
    }
    expect((await client.get("/api/auth/session")).status).toBe(200);
  });

  it("answers a visitor's session check with 200 and null, and only a stale session with 401", async () => {
    const visitor = await new Client().get("/api/auth/session");
    expect(visitor.status).toBe(200);
    expect(visitor.headers.get("Cache-Control")).toBe("no-store");
    expect(await visitor.json()).toBeNull();

    // The access cookie has expired (the browser dropped it) but the refresh cookie is still there:
    // the session can be refreshed, so the check says 401 and the web refreshes.
    const { client } = await signedIn();
    const returning = new Client();
    returning.cookies.set("lb_refresh", client.cookies.get("lb_refresh")!);
    const stale = await returning.get("/api/auth/session");
    expect(stale.status).toBe(401);
    expect(await errorOf(stale)).toMatchObject({ code: "UNAUTHENTICATED" });
    expect((await returning.post("/api/auth/refresh")).status).toBe(200);
    expect((await returning.get("/api/auth/session")).status).toBe(200);
  });

  it("signs out: the session and the refresh token stop working", async () => {
    const { client } = await signedIn();
    const refresh = client.cookies.get("lb_refresh")!;
    const access = client.cookies.get("lb_access")!;
    expect((await client.post("/api/auth/signout")).status).toBe(204);
    // Only the device cookie stays: it is no session (docs/decisions/084-device-cookies.md).
    expect([...client.cookies.keys()]).toEqual(["lb_device"]);
    const replay = new Client();
    replay.cookies.set("lb_access", access);
    replay.cookies.set("lb_refresh", refresh);
    expect((await replay.get("/api/auth/session")).status).toBe(401);
    expect((await replay.post("/api/auth/refresh")).status).toBe(401);
  });
});
