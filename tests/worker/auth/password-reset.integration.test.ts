// "Glemt passord?" and "Lag nytt passord" (docs/decisions/125-account-recovery.md): the same answer
// and the same work for known and unknown addresses, a single-use 60-minute link stored as a hash,
// older links dying on a new request or a password change, a link acting only for its own account,
// every session and socket ended, and the limits.
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { FORGOT_PASSWORD_ANSWER, LINK_REFUSALS } from "../../../domain/credentials";
import { SOCKET_CLOSE } from "../../../domain/chat";
import { RATE_RULES } from "../../../domain/rate-limits";
import { app } from "../../../worker/app";
import { countD1Into, emptyD1Usage } from "../../../worker/db/usage";
import type { Bindings } from "../../../worker/env";
import { sha256Hex } from "../../../worker/lib/crypto";
import { createConversation, createUser } from "../../factories";
import { mailsTo, PASSWORD, signedInAs, signIn, tokenIn, waitForMail } from "../support/accounts";
import { Client, errorOf, ORIGIN } from "../support/http";
import { openChat } from "../support/live";
import { countAttempts } from "../support/rate-limits";

/** Each test signs in with real password hashing (scrypt) a few times: generous on a busy machine. */
const SLOW = { timeout: 60_000 };

const NEW_PASSWORD = "nyttpassord456";
const RESET_PATH = "/auth/nytt-passord";

let addresses = 0;
/** A client address of its own, so the per-address limits of one test do not meet another's. */
function fromAddress(): RequestInit {
  addresses += 1;
  return { headers: { "CF-Connecting-IP": `203.0.113.${addresses}` } };
}

async function forgot(email: string, init: RequestInit = fromAddress()): Promise<Response> {
  return new Client().post("/api/auth/password/forgot", { email }, init);
}

/** Asks for a link and returns its token from the mail (sent after the answer). */
async function resetToken(email: string): Promise<string> {
  const before = (await mailsTo(email)).length;
  expect((await forgot(email)).status).toBe(200);
  const deadline = Date.now() + 5_000;
  while ((await mailsTo(email)).length === before) {
    if (Date.now() > deadline) throw new Error(`no reset mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return tokenIn((await mailsTo(email))[0]!, RESET_PATH);
}

function reset(token: string, password = NEW_PASSWORD, client = new Client()): Promise<Response> {
  return client.post("/api/auth/password/reset", { token, password, password_confirm: password }, fromAddress());
}

async function refusedWith(res: Response, message: string) {
  expect(res.status).toBe(400);
  expect(await errorOf(res)).toMatchObject({ code: "INVALID_CODE", message });
}

async function passwordWorks(email: string, password: string): Promise<boolean> {
  return (await new Client().post("/api/auth/signin", { email, password }, fromAddress())).status === 200;
}

describe("Glemt passord?", SLOW, () => {
  it("answers a known and an unknown address alike, with the same statements, and mails only the account", async () => {
    const user = await createUser({ password: PASSWORD });
    const unknown = `ingen-${crypto.randomUUID().slice(0, 8)}@test.no`;
    const ask = async (email: string) => {
      const ctx = createExecutionContext();
      // This request's own counter: the isolate's is shared with whatever else runs in the process.
      const usage = emptyD1Usage();
      const counted = countD1Into(usage, env as Bindings);
      const res = await app.fetch(
        new Request(`${ORIGIN}/api/auth/password/forgot`, {
          method: "POST",
          headers: { Origin: ORIGIN, "Content-Type": "application/json", "CF-Connecting-IP": "198.51.100.77" },
          body: JSON.stringify({ email }),
        }),
        counted,
        ctx,
      );
      // What was asked of D1 before the answer; the mail goes out after it.
      const work = { roundTrips: usage.roundTrips, statements: usage.statements };
      const answer = { status: res.status, body: await res.json(), cacheControl: res.headers.get("Cache-Control") };
      await waitOnExecutionContext(ctx);
      return { answer, work };
    };
    const known = await ask(user.email);
    const stranger = await ask(unknown);
    expect(known.answer).toEqual({
      status: 200,
      body: { ok: true, message: FORGOT_PASSWORD_ANSWER },
      cacheControl: known.answer.cacheControl,
    });
    expect(stranger.answer).toEqual(known.answer);
    expect(stranger.work).toEqual(known.work);
    expect(known.work.statements).toBeGreaterThan(0);
    expect((await mailsTo(user.email)).map((m) => m.subject)).toEqual(["Lag nytt passord hos Lekebytte"]);
    expect(await mailsTo(unknown)).toEqual([]);
    const rows = await env.DB.prepare("SELECT token_hash, expires_at, created_at FROM password_resets WHERE user_id = ?1")
      .bind(user.id)
      .all<{ token_hash: string; expires_at: string; created_at: string }>();
    expect(rows.results).toHaveLength(1);
    // Only a hash is stored, and the link lives 60 minutes.
    const token = tokenIn((await mailsTo(user.email))[0]!, RESET_PATH);
    expect(rows.results[0]!.token_hash).toBe(await sha256Hex(token));
    expect(JSON.stringify(rows.results)).not.toContain(token);
    // created_at is D1's clock and expires_at the Worker's: a millisecond apart at most.
    const minutes = (Date.parse(rows.results[0]!.expires_at) - Date.parse(rows.results[0]!.created_at)) / 60_000;
    expect(minutes).toBeCloseTo(60, 2);
  });

  it("refuses a missing or malformed address in Norwegian", async () => {
    const empty = await forgot("   ");
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).message).toBe("Skriv inn e-postadressen din.");
    const bad = await forgot("ikke-en-adresse");
    expect((await errorOf(bad)).message).toBe("Vennligst oppgi en gyldig e-postadresse");
  });

  it("limits per typed address with the same 429 for a known and an unknown one", async () => {
    const user = await createUser();
    const unknown = `ingen-${crypto.randomUUID().slice(0, 8)}@test.no`;
    for (const email of [user.email, unknown]) {
      for (let i = 0; i < RATE_RULES.passwordResetEmail.limit; i++) expect((await forgot(email)).status).toBe(200);
      const refused = await forgot(email);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect((await errorOf(refused)).message).toBe("For mange forsøk. Vent litt og prøv igjen.");
    }
  });

  it("limits per client address, an IPv6 address by its /64", async () => {
    const user = await createUser();
    await countAttempts(RATE_RULES.passwordResetAddress, "2001:db8:7:1::/64");
    const refused = await forgot(user.email, { headers: { "CF-Connecting-IP": "2001:db8:7:1:aaaa:bbbb:cccc:dddd" } });
    expect(refused.status).toBe(429);
    expect((await forgot(user.email, { headers: { "CF-Connecting-IP": "2001:db8:7:2::1" } })).status).toBe(200);
  });

  it("over the per-account limit answers the same but makes no link and sends no mail", async () => {
    const user = await createUser();
    await countAttempts(RATE_RULES.passwordResetAccount, user.id);
    const res = await forgot(user.email);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, message: FORGOT_PASSWORD_ANSWER });
    const links = await env.DB.prepare("SELECT COUNT(*) AS n FROM password_resets WHERE user_id = ?1").bind(user.id).first<{ n: number }>();
    expect(links!.n).toBe(0);
    expect(await mailsTo(user.email)).toEqual([]);
  });
});

describe("Lag nytt passord", SLOW, () => {
  it("sets the password, ends every session and socket, signs in this browser and mails the notice", async () => {
    const conv = await createConversation();
    const email = conv.buyer.email;
    await env.DB.prepare("UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE id = ?2) WHERE id = ?1")
      .bind(conv.buyer.id, (await createUser({ password: PASSWORD })).id)
      .run();
    const phone = await signIn(email, PASSWORD, fromAddress());
    const laptop = await signIn(email, PASSWORD, fromAddress());
    const phoneChat = await openChat(phone, conv.id);
    const laptopChat = await openChat(laptop, conv.id);

    const token = await resetToken(email);
    expect((await new Client().post("/api/auth/password/reset/check", { token }, fromAddress())).status).toBe(200);
    const browser = new Client();
    const res = await reset(token, NEW_PASSWORD, browser);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { email: string } }).user.email).toBe(email);

    expect(await phoneChat.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await laptopChat.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await signedInAs(phone)).toBeNull();
    expect(await signedInAs(laptop)).toBeNull();
    // Their refresh tokens are dead too.
    expect((await laptop.post("/api/auth/refresh")).status).toBe(401);
    expect(await signedInAs(browser)).toBe(email);
    expect(await passwordWorks(email, NEW_PASSWORD)).toBe(true);
    expect(await passwordWorks(email, PASSWORD)).toBe(false);
    const notice = await waitForMail(email, "Passordet ditt er endret");
    expect(notice.text_body).toContain("/auth/glemt-passord");
    expect(notice.text_body).toContain("Var det ikke deg?");
  });

  it("works once: a used link says so, also when it is only opened", async () => {
    const user = await createUser();
    const token = await resetToken(user.email);
    expect((await reset(token)).status).toBe(200);
    await refusedWith(await reset(token, "endaetpassord"), LINK_REFUSALS.used);
    await refusedWith(await new Client().post("/api/auth/password/reset/check", { token }, fromAddress()), LINK_REFUSALS.used);
    expect(await passwordWorks(user.email, NEW_PASSWORD)).toBe(true);
  });

  it("used twice at once, exactly one request wins", async () => {
    const user = await createUser();
    const token = await resetToken(user.email);
    const answers = await Promise.all([reset(token, "forstepassord"), reset(token, "andrepassord"), reset(token, "tredjepassord")]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    const sessions = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?1 AND revoked_at IS NULL")
      .bind(user.id)
      .first<{ n: number }>();
    expect(sessions!.n).toBe(1);
    const winner = ["forstepassord", "andrepassord", "tredjepassord"][answers.findIndex((r) => r.status === 200)]!;
    expect(await passwordWorks(user.email, winner)).toBe(true);
  });

  it("expires after 60 minutes", async () => {
    const user = await createUser({ password: PASSWORD });
    const token = await resetToken(user.email);
    await env.DB.prepare("UPDATE password_resets SET expires_at = ?2 WHERE token_hash = ?1")
      .bind(await sha256Hex(token), new Date(Date.now() - 1000).toISOString())
      .run();
    await refusedWith(await new Client().post("/api/auth/password/reset/check", { token }, fromAddress()), LINK_REFUSALS.expired);
    await refusedWith(await reset(token), LINK_REFUSALS.expired);
    expect(await passwordWorks(user.email, PASSWORD)).toBe(true);
  });

  it("a newer request makes the older link useless", async () => {
    const user = await createUser();
    const first = await resetToken(user.email);
    const second = await resetToken(user.email);
    await refusedWith(await reset(first), LINK_REFUSALS.replaced);
    expect((await reset(second)).status).toBe(200);
  });

  it("a password change on the profile makes an open link useless", async () => {
    const user = await createUser({ password: PASSWORD });
    const token = await resetToken(user.email);
    const client = await signIn(user.email, PASSWORD, fromAddress());
    const changed = await client.post(
      "/api/me/password",
      { current_password: PASSWORD, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD },
      fromAddress(),
    );
    expect(changed.status).toBe(204);
    await refusedWith(await reset(token, "tredjepassord"), LINK_REFUSALS.replaced);
    expect(await passwordWorks(user.email, NEW_PASSWORD)).toBe(true);
  });

  it("acts only for the account the link was made for, whoever uses it", async () => {
    const owner = await createUser({ password: PASSWORD });
    const other = await createUser({ password: PASSWORD });
    const othersBrowser = await signIn(other.email, PASSWORD, fromAddress());
    const token = await resetToken(owner.email);
    // Sent from the other account's signed-in browser, with the other's address in the body.
    const res = await othersBrowser.post(
      "/api/auth/password/reset",
      { token, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD, email: other.email, user_id: other.id },
      fromAddress(),
    );
    expect(res.status).toBe(200);
    // The other account's own sessions were not touched (only the browser's cookies now name the owner).
    const ended = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?1 AND revoked_at IS NOT NULL")
      .bind(other.id)
      .first<{ n: number }>();
    expect(ended!.n).toBe(0);
    expect(await signedInAs(othersBrowser)).toBe(owner.email);
    expect(await passwordWorks(owner.email, NEW_PASSWORD)).toBe(true);
    expect(await passwordWorks(other.email, PASSWORD)).toBe(true);
    expect(await passwordWorks(other.email, NEW_PASSWORD)).toBe(false);
  });

  it("refuses a forged token and tokens of other links (sign-up confirmation, e-mail change)", async () => {
    const user = await createUser({ password: PASSWORD, emailConfirmed: false });
    await refusedWith(await reset("A".repeat(43)), LINK_REFUSALS.invalid);
    await new Client().post("/api/auth/resend", { email: user.email }, fromAddress());
    const confirmation = (await mailsTo(user.email))[0]!.text_body.match(/callback\?code=(\S+)/)![1]!;
    await refusedWith(await reset(decodeURIComponent(confirmation)), LINK_REFUSALS.invalid);
    expect(await passwordWorks(user.email, NEW_PASSWORD)).toBe(false);
  });

  it("asks for the new password twice, by the sign-up rules", async () => {
    const user = await createUser();
    const token = await resetToken(user.email);
    const differ = await new Client().post(
      "/api/auth/password/reset",
      { token, password: NEW_PASSWORD, password_confirm: "noeannet" },
      fromAddress(),
    );
    expect(differ.status).toBe(400);
    expect((await errorOf(differ)).fields).toEqual({ password_confirm: "Passordene er ikke like." });
    const short = await new Client().post("/api/auth/password/reset", { token, password: "kort", password_confirm: "kort" }, fromAddress());
    expect((await errorOf(short)).fields?.password).toBe("Passordet må være minst 6 tegn");
    // Refused input spends nothing: the link still works.
    expect((await reset(token)).status).toBe(200);
  });
});
