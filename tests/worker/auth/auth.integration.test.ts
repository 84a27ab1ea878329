// Accounts: sign-up with e-mail confirmation, sign-in, sessions with rotating refresh tokens,
// forged tokens, rate limits, profile, export and deletion.
import { env } from "cloudflare:workers";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { RATE_RULES, type RateRule } from "../../../domain/rate-limits";
import { app } from "../../../worker/app";
import type { Bindings } from "../../../worker/env";
import { REFRESH_ABSOLUTE_TTL_SECONDS, REFRESH_REUSE_GRACE_SECONDS, REFRESH_TTL_SECONDS } from "../../../worker/features/auth/auth";
import { createListing, createUser } from "../../factories";
import { Client, errorOf, ORIGIN } from "../support/http";
import { countAttempts } from "../support/rate-limits";

const PASSWORD = "hemmelig123";

async function latestMailLink(email: string): Promise<string> {
  const row = await env.DB.prepare("SELECT text_body FROM dev_outbox WHERE to_address = ?1 ORDER BY created_at DESC LIMIT 1")
    .bind(email)
    .first<{ text_body: string }>();
  const match = row?.text_body.match(/https?:\/\/\S+\/auth\/callback\?code=\S+/);
  if (!match) throw new Error(`no confirmation mail for ${email}`);
  return match[0];
}

function codeOf(link: string): string {
  return new URL(link).searchParams.get("code")!;
}

async function signUpAndConfirm(email = `ny-${crypto.randomUUID().slice(0, 8)}@test.no`) {
  const client = new Client();
  const res = await client.post("/api/auth/signup", { display_name: "Kari", email, password: PASSWORD, postal_code: "0150" });
  expect(res.status).toBe(201);
  const confirmed = await client.post("/api/auth/callback", { code: codeOf(await latestMailLink(email)) });
  expect(confirmed.status).toBe(200);
  return { client, email };
}

async function signedIn(overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser({ password: PASSWORD, ...overrides });
  const client = new Client();
  const res = await client.post("/api/auth/signin", { email: user.email, password: PASSWORD });
  expect(res.status).toBe(200);
  return { client, user };
}

describe("sign-up and confirmation", () => {
  it("creates an unconfirmed account, mails a one-time link and keeps the postal code", async () => {
    const client = new Client();
    const email = "Kari.Nordmann@Example.NO";
    const res = await client.post("/api/auth/signup", { display_name: " Kari ", email, password: PASSWORD, postal_code: "5003" });
    expect(res.status).toBe(201);
    const link = await latestMailLink("kari.nordmann@example.no");
    expect(link.startsWith(`${env.APP_ORIGIN}/auth/callback?code=`)).toBe(true);

    const profile = await env.DB.prepare(
      "SELECT p.display_name, p.postal_code, u.email_confirmed_at FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.email = 'kari.nordmann@example.no'",
    ).first();
    expect(profile).toEqual({ display_name: "Kari", postal_code: "5003", email_confirmed_at: null });

    const early = await client.post("/api/auth/signin", { email, password: PASSWORD });
    expect(early.status).toBe(403);
    expect((await errorOf(early)).code).toBe("EMAIL_NOT_CONFIRMED");

    const ok = await client.post("/api/auth/callback", { code: codeOf(link) });
    expect(ok.status).toBe(200);
    const session = await client.get("/api/auth/session");
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe("kari.nordmann@example.no");
  });

  it("refuses a reused code and an expired code", async () => {
    const email = "gjenbruk@test.no";
    const client = new Client();
    await client.post("/api/auth/signup", { display_name: "Ola", email, password: PASSWORD });
    const code = codeOf(await latestMailLink(email));
    expect((await new Client().post("/api/auth/callback", { code })).status).toBe(200);
    const reused = await new Client().post("/api/auth/callback", { code });
    expect(reused.status).toBe(400);
    expect(await errorOf(reused)).toMatchObject({ code: "INVALID_CODE", message: "Lenken er ugyldig, allerede brukt eller utløpt." });

    await client.post("/api/auth/resend", { email: "utlopt@test.no" });
    await client.post("/api/auth/signup", { display_name: "Per", email: "utlopt@test.no", password: PASSWORD });
    const expiredCode = codeOf(await latestMailLink("utlopt@test.no"));
    // Only this account's code expires (tests share the file's database).
    await env.DB.prepare(
      "UPDATE email_codes SET expires_at = '2000-01-01T00:00:00.000Z' WHERE user_id = (SELECT id FROM users WHERE email = 'utlopt@test.no')",
    ).run();
    expect((await new Client().post("/api/auth/callback", { code: expiredCode })).status).toBe(400);
    expect((await new Client().post("/api/auth/callback", { code: "finnes-ikke" })).status).toBe(400);
  });

  it("answers a taken e-mail with the spec's message and changes nothing", async () => {
    const user = await createUser({ email: "tatt@test.no" });
    const res = await new Client().post("/api/auth/signup", { display_name: "X", email: "TATT@test.no", password: PASSWORD });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toMatchObject({
      code: "EMAIL_TAKEN",
      message: "Denne e-postadressen er allerede registrert. Prøv å logge inn i stedet.",
    });
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = 'tatt@test.no'").first<{ n: number }>();
    expect(count?.n).toBe(1);
    expect(await env.DB.prepare("SELECT display_name FROM profiles WHERE user_id = ?1").bind(user.id).first()).toEqual({
      display_name: user.profile.displayName,
    });
  });

  it.each([
    [{ email: "a@test.no", password: PASSWORD }, "display_name"],
    [{ display_name: "A", password: PASSWORD }, "email"],
    [{ display_name: "A", email: "a@test.no" }, "password"],
    [{ display_name: "A", email: "a@test.no", password: "12345" }, "password"],
    [{ display_name: "A", email: "ikke-en-epost", password: PASSWORD }, "email"],
    [{ display_name: "A", email: "a@test.no", password: PASSWORD, postal_code: "12345" }, "postal_code"],
  ])("rejects bad sign-up input %j with a Norwegian message on %s", async (body, field) => {
    const res = await new Client().post("/api/auth/signup", body);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe("VALIDATION");
    expect(error.fields?.[field]).toBeTruthy();
    expect(error.message).not.toMatch(/expected|invalid input|required/i);
    const email = String((body as { email?: string }).email ?? "");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?1").bind(email.toLowerCase()).first()).toEqual({ n: 0 });
  });

  it("resend always answers ok and mails only unconfirmed accounts", async () => {
    const client = new Client();
    await client.post("/api/auth/signup", { display_name: "Ida", email: "ida@test.no", password: PASSWORD });
    const confirmed = await createUser({ email: "bekreftet@test.no" });
    for (const email of ["ida@test.no", "ukjent@test.no", confirmed.email]) {
      const res = await client.post("/api/auth/resend", { email });
      expect(res.status).toBe(200);
    }
    const mails = await env.DB.prepare(
      "SELECT to_address, COUNT(*) AS n FROM dev_outbox WHERE to_address IN ('ida@test.no', 'ukjent@test.no', 'bekreftet@test.no') GROUP BY to_address",
    ).all();
    expect(mails.results).toEqual([{ to_address: "ida@test.no", n: 2 }]);
    const missing = await client.post("/api/auth/resend", { email: "" });
    expect(await errorOf(missing)).toMatchObject({ code: "VALIDATION", message: "Skriv inn e-postadressen din først." });
  });
});

describe("sign-in", () => {
  it("looks the same for an unknown e-mail and a wrong password", async () => {
    const user = await createUser({ password: PASSWORD });
    const wrong = await new Client().post("/api/auth/signin", { email: user.email, password: "feilpassord" });
    const unknown = await new Client().post("/api/auth/signin", { email: "ingen@test.no", password: "feilpassord" });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(await wrong.text()).toBe(await unknown.text());
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it("requires e-mail and password", async () => {
    const res = await new Client().post("/api/auth/signin", { email: "", password: "" });
    expect(await errorOf(res)).toMatchObject({ code: "VALIDATION", message: "Vennligst fyll ut e-post og passord." });
  });

  it("sets HttpOnly SameSite cookies and returns the session with its expiry", async () => {
    const user = await createUser({ password: PASSWORD, role: "moderator" });
    const res = await new Client().post("/api/auth/signin", { email: user.email, password: PASSWORD });
    const cookies = res.headers.getSetCookie();
    // The access and refresh cookies, the readable signed-in hint (tests/worker/auth/signed-in-hint.integration.test.ts)
    // and the device cookie (tests/worker/auth/signin-device.integration.test.ts).
    expect(cookies.map((c) => c.slice(0, c.indexOf("=")))).toEqual(["lb_access", "lb_refresh", "lb_signed_in", "lb_device"]);
    for (const c of cookies.slice(0, 2)) expect(c).toMatch(/HttpOnly/i), expect(c).toMatch(/SameSite=Lax/i);
    expect(cookies.find((c) => c.startsWith("lb_refresh="))).toMatch(/Path=\/api\/auth/);
    const body = (await res.json()) as { user: { role: string }; expires_at: number };
    expect(body.user.role).toBe("moderator");
    expect(body.expires_at - Date.now() / 1000).toBeGreaterThan(14 * 60);
  });

  it("rate limits one address guessing one account with 429, Retry-After and a Norwegian message", async () => {
    const client = new Client();
    const headers = { "CF-Connecting-IP": "198.51.100.7" };
    let last: Response | undefined;
    for (let i = 0; i < RATE_RULES.signinAddressAccount.limit + 1; i++) {
      last = await client.post("/api/auth/signin", { email: "mål@test.no", password: "x" }, { headers });
    }
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await errorOf(last!)).message).toBe("For mange forsøk. Vent litt og prøv igjen.");
  });

  /** Attempts already counted for a rule (as earlier requests would have left them), without paying scrypt for each. */
  async function counted(rule: RateRule, subject: string, count: number) {
    await countAttempts(rule, subject, count, 60_000);
  }

  it("does not let strangers guessing from ten addresses lock the owner out", async () => {
    const user = await createUser({ password: PASSWORD });
    const limit = RATE_RULES.signinAddressAccount.limit;
    // Nine addresses have each guessed up to their limit for this account (the old rule refused the
    // owner after 10 guesses per e-mail in all)…
    for (let a = 1; a <= 9; a++) {
      await counted(RATE_RULES.signinAddressAccount, `203.0.113.${a}|${user.email}`, limit);
      await counted(RATE_RULES.signinAddress, `203.0.113.${a}`, limit);
    }
    await counted(RATE_RULES.signinAccount, user.email, 9 * limit);
    // …and a tenth does it for real: refused after its own limit.
    const headers = { "CF-Connecting-IP": "203.0.113.10" };
    for (let i = 0; i < limit; i++) {
      expect((await new Client().post("/api/auth/signin", { email: user.email, password: "gjett" }, { headers })).status).toBe(400);
    }
    expect((await new Client().post("/api/auth/signin", { email: user.email, password: PASSWORD }, { headers })).status).toBe(429);
    // The owner, from their own address, still gets in.
    const owner = await new Client().post(
      "/api/auth/signin",
      { email: user.email, password: PASSWORD },
      { headers: { "CF-Connecting-IP": "192.0.2.44" } },
    );
    expect(owner.status).toBe(200);
  });

  it("stops an account being guessed from many addresses at the higher per-account limit", async () => {
    const user = await createUser({ password: PASSWORD });
    await counted(RATE_RULES.signinAccount, user.email, RATE_RULES.signinAccount.limit);
    const res = await new Client().post(
      "/api/auth/signin",
      { email: user.email, password: PASSWORD },
      { headers: { "CF-Connecting-IP": "192.0.2.45" } },
    );
    expect(res.status).toBe(429);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("reads the role from D1 on every request, so a demotion takes effect at once", async () => {
    const { client, user } = await signedIn({ role: "admin" });
    await env.DB.prepare("UPDATE profiles SET role = 'user' WHERE user_id = ?1").bind(user.id).run();
    const body = (await (await client.get("/api/auth/session")).json()) as { user: { role: string } };
    expect(body.user.role).toBe("user");
  });
});

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

describe("profile, export and deletion", () => {
  it("updates the profile with trimming and empty → null", async () => {
    const { client } = await signedIn({ displayName: "Gammel", postalCode: "0150" });
    const res = await client.patch("/api/me/profile", { display_name: "  Ny Navn  ", postal_code: "   " });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ display_name: "Ny Navn", postal_code: null });
    const bad = await client.patch("/api/me/profile", { display_name: "X", postal_code: "abcd" });
    expect(bad.status).toBe(400);
    expect(((await (await client.get("/api/me")).json()) as { display_name: string }).display_name).toBe("Ny Navn");
  });

  it("requires a session for /api/me", async () => {
    const res = await new Client().get("/api/me");
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code: "UNAUTHENTICATED", message: "Du er ikke logget inn" });
  });

  it("exports everything stored about the user as JSON, after the password again", async () => {
    const { client, user } = await signedIn();
    await createListing({ userId: user.id, title: "Min eksportleke" });
    // The old GET (no password) is gone.
    expect((await client.get("/api/me/export")).status).toBe(404);
    const res = await client.post("/api/me/export", { password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toMatch(/attachment/);
    const data = (await res.json()) as Record<string, unknown[]> & { profile: { email: string } };
    expect(data.profile.email).toBe(user.email);
    expect(data.listings).toHaveLength(1);
    expect(JSON.stringify(data)).not.toContain("token_hash");
    expect(JSON.stringify(data)).not.toContain("password_hash");
  });

  it.each([
    [{}, "Skriv inn passordet ditt for å bekrefte."],
    [{ password: "" }, "Skriv inn passordet ditt for å bekrefte."],
    [{ password: "feil-passord" }, "Feil passord. Prøv igjen."],
  ])("refuses the export with %j: 400 and %s", async (body, message) => {
    const { client } = await signedIn();
    const res = await client.post("/api/me/export", body);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatchObject({ message, fields: { password: message } });
    expect(res.headers.get("Content-Disposition")).toBeNull();
    // A wrong password is not a lost session.
    expect((await client.get("/api/auth/session")).status).toBe(200);
  });

  it("limits password guesses on the account's sensitive actions", async () => {
    const { client, user } = await signedIn();
    for (let i = 0; i < RATE_RULES.reauthAccount.limit; i++) {
      expect((await client.post("/api/me/export", { password: `gjett-${i}` })).status).toBe(400);
    }
    expect((await client.request("/api/me", { method: "DELETE", json: { password: PASSWORD } })).status).toBe(429);
    expect(await env.DB.prepare("SELECT deleted_at FROM users WHERE id = ?1").bind(user.id).first()).toEqual({ deleted_at: null });
  });

  it("deletes the account only with the password: no sign-in, sessions end, listings and photos gone", async () => {
    const { client, user } = await signedIn();
    const listing = await createListing({ userId: user.id, images: [`${user.id}/1.jpg`] });
    await env.IMAGES.put(`${user.id}/1.jpg`, new Uint8Array([1, 2, 3]));
    await env.DB.prepare("INSERT INTO newsletter_subscribers (id, email) VALUES (?1, ?2)").bind(crypto.randomUUID(), user.email).run();

    for (const body of [undefined, {}, { password: "feil-passord" }]) {
      const refused = await client.request("/api/me", { method: "DELETE", json: body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    expect(await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(listing.id).first()).toEqual({ status: "active" });
    expect(await env.IMAGES.head(`${user.id}/1.jpg`)).not.toBeNull();
    expect((await client.get("/api/auth/session")).status).toBe(200);

    const before = new Map(client.cookies);
    expect((await client.request("/api/me", { method: "DELETE", json: { password: PASSWORD } })).status).toBe(204);
    // The device cookie goes with the account.
    expect(client.cookies.size).toBe(0);
    const replay = new Client();
    replay.cookies = before;
    expect((await replay.get("/api/auth/session")).status).toBe(401);
    const again = await new Client().post("/api/auth/signin", { email: user.email, password: PASSWORD });
    expect(again.status).toBe(400);
    expect(await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(listing.id).first()).toEqual({ status: "deleted" });
    expect(await env.IMAGES.get(`${user.id}/1.jpg`)).toBeNull();
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM newsletter_subscribers WHERE email = ?1").bind(user.email).first()).toEqual({
      n: 0,
    });
    // The address is free again for a new account.
    const fresh = await new Client().post("/api/auth/signup", { display_name: "Ny", email: user.email, password: PASSWORD });
    expect(fresh.status).toBe(201);
  });
});

describe("request hygiene", () => {
  it("rejects a 10 MB body with 413 and changes nothing", async () => {
    const big = "x".repeat(10 * 1024 * 1024);
    const res = await new Client().request("/api/auth/signup", {
      method: "POST",
      body: JSON.stringify({ display_name: big, email: "stor@test.no", password: PASSWORD }),
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).message).toBe("Forespørselen er for stor.");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = 'stor@test.no'").first()).toEqual({ n: 0 });
  });

  it("rejects cross-site posts and non-JSON bodies", async () => {
    const cross = await new Client().post(
      "/api/auth/signup",
      { display_name: "A", email: "x@test.no", password: PASSWORD },
      {
        headers: { Origin: "https://evil.example" },
      },
    );
    expect(cross.status).toBe(403);
    const form = await new Client().request("/api/auth/signin", {
      method: "POST",
      body: "email=a&password=b",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    const malformed = await new Client().request("/api/auth/signin", {
      method: "POST",
      body: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
  });

  it("serves the local outbox only in local mode", async () => {
    await signUpAndConfirm("postkasse@test.no");
    const local = await app.fetch(new Request(`${ORIGIN}/dev/mail`), env);
    expect(local.status).toBe(200);
    expect(await local.text()).toContain("postkasse@test.no");
    const prod = await app.fetch(new Request(`${ORIGIN}/dev/mail`), {
      ...env,
      APP_ENV: "production",
      JWT_SECRET: "x".repeat(40),
      APP_ORIGIN: "https://lekebytte.example",
    });
    expect(prod.status).toBe(404);
  });
});
