// Accounts: the profile, the data export and deleting the account (each asking for the password again,
// with limits on guesses), and request hygiene: oversized and cross-site bodies, and the local outbox
// only in local mode.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RATE_RULES } from "../../../domain/rate-limits";
import { app } from "../../../worker/app";
import { createListing } from "../../factories";
import { Client, errorOf, ORIGIN } from "../support/http";
import { PASSWORD, signedIn, signUpAndConfirm } from "../support/auth";

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
