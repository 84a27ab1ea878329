// Accounts: sign-up with e-mail confirmation, and sign-in: its cookies, its rate limits, and the role
// read from D1 on every request.
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RATE_RULES, type RateRule } from "../../../domain/rate-limits";
import { app } from "../../../worker/app";
import type { Bindings } from "../../../worker/env";
import { passwordHashParams, SCRYPT_PARAMS, TEST_SCRYPT_PARAMS } from "../../../worker/features/auth/password";
import { createUser } from "../../factories";
import { Client, errorOf, ORIGIN } from "../support/http";
import { countAttempts } from "../support/rate-limits";
import { codeOf, latestMailLink, PASSWORD, signedIn } from "../support/auth";

describe("the cost a new password is hashed at", () => {
  const LOCAL = { APP_ENV: "local", APP_ORIGIN: "http://localhost:8787" };
  it.each([
    ["local mode, low", { ...LOCAL, PASSWORD_HASH_COST: "low" }, TEST_SCRYPT_PARAMS],
    ["local mode, unset", LOCAL, SCRYPT_PARAMS],
    ["local mode, another word", { ...LOCAL, PASSWORD_HASH_COST: "LOW" }, SCRYPT_PARAMS],
    ["staging, low", { APP_ENV: "staging", APP_ORIGIN: "https://staging.lekebytte.example", PASSWORD_HASH_COST: "low" }, SCRYPT_PARAMS],
    ["production, low", { APP_ENV: "production", APP_ORIGIN: "https://lekebytte.example", PASSWORD_HASH_COST: "low" }, SCRYPT_PARAMS],
    [
      "production on a loopback origin, low",
      { APP_ENV: "production", APP_ORIGIN: "http://localhost:8787", PASSWORD_HASH_COST: "low" },
      SCRYPT_PARAMS,
    ],
    [
      '"local" on a real host, low',
      { APP_ENV: "local", APP_ORIGIN: "https://lekebytte.example", PASSWORD_HASH_COST: "low" },
      SCRYPT_PARAMS,
    ],
  ])("%s", (_, vars, params) => {
    expect(passwordHashParams(vars)).toEqual(params);
  });

  it('a sign-up in local mode with PASSWORD_HASH_COST "low" stores a hash at the test cost, and it signs in', async () => {
    const email = "billig.hash@test.no";
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`${ORIGIN}/api/auth/signup`, {
        method: "POST",
        headers: { Origin: ORIGIN, "Content-Type": "application/json", "CF-Connecting-IP": "198.51.100.91" },
        body: JSON.stringify({ display_name: "Kari", email, password: PASSWORD, postal_code: "0150" }),
      }),
      { ...(env as Bindings), PASSWORD_HASH_COST: "low" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(201);
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE email = ?1").bind(email).first<{ password_hash: string }>();
    const { N, r, p } = TEST_SCRYPT_PARAMS;
    expect(row!.password_hash.startsWith(`scrypt$${N}$${r}$${p}$`)).toBe(true);
    const client = new Client();
    await client.post("/api/auth/callback", { code: codeOf(await latestMailLink(email)) });
    expect((await client.post("/api/auth/signin", { email, password: PASSWORD })).status).toBe(200);
  });
});

describe("sign-up and confirmation", () => {
  it("creates an unconfirmed account, mails a one-time link and keeps the postal code", async () => {
    const client = new Client();
    const email = "Kari.Nordmann@Example.NO";
    const res = await client.post("/api/auth/signup", { display_name: " Kari ", email, password: PASSWORD, postal_code: "5003" });
    expect(res.status).toBe(201);
    const link = await latestMailLink("kari.nordmann@example.no");
    expect(link.startsWith(`${env.APP_ORIGIN}/auth/callback?code=`)).toBe(true);

    const profile = await env.DB.prepare(
      "SELECT p.display_name, p.postal_code, u.email_confirmed_at, u.password_hash FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.email = 'kari.nordmann@example.no'",
    ).first<{ password_hash: string }>();
    const { password_hash, ...rest } = profile!;
    expect(rest).toEqual({ display_name: "Kari", postal_code: "5003", email_confirmed_at: null });
    // The production cost (test users made by the factory are hashed cheaper; see testPasswordHash).
    const { N, r, p } = SCRYPT_PARAMS;
    expect(password_hash).toMatch(new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$[A-Za-z0-9+/=]{24}\\$[A-Za-z0-9+/=]{44}$`));

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
