// "Endre e-post" (docs/decisions/125-account-recovery.md): the password again, an address of another
// account refused (at the request and again at the confirmation, where the unique index decides a
// race), the address changed only by the new address's link, and the old address's stop link that
// cancels or undoes the change and ends every session.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CREDENTIAL_MESSAGES, LINK_REFUSALS } from "../../../domain/credentials";
import { SOCKET_CLOSE } from "../../../domain/chat";
import { createConversation, createUser } from "../../factories";
import { mailsTo, PASSWORD, signedInAs, signIn, tokenIn, waitForMail } from "../support/accounts";
import { Client, errorOf } from "../support/http";
import { openChat } from "../support/live";

/** Each test signs in with real password hashing (scrypt) a few times: generous on a busy machine. */
const SLOW = { timeout: 60_000 };

let addresses = 0;
function fromAddress(): RequestInit {
  addresses += 1;
  return { headers: { "CF-Connecting-IP": `192.0.2.${addresses}` } };
}

const freshAddress = () => `ny-${crypto.randomUUID().slice(0, 8)}@test.no`;

async function emailOf(userId: string): Promise<string> {
  return (await env.DB.prepare("SELECT email FROM users WHERE id = ?1").bind(userId).first<{ email: string }>())!.email;
}

async function ask(client: Client, email: string, password = PASSWORD): Promise<Response> {
  return client.post("/api/me/email", { email, password }, fromAddress());
}

/** A signed-in user who asked to move to a fresh address: the tokens of both mails. */
async function requested() {
  const user = await createUser({ password: PASSWORD });
  const client = await signIn(user.email, PASSWORD, fromAddress());
  const next = freshAddress();
  const res = await ask(client, next);
  expect(res.status).toBe(202);
  const confirm = tokenIn(await waitForMail(next, "Bekreft den nye e-postadressen"), "/auth/bekreft-epost");
  const notice = await waitForMail(user.email, "endres");
  expect(notice.text_body).toContain(next);
  return { user, client, next, confirm, stop: tokenIn(notice, "/auth/stopp-epostendring") };
}

const confirm = (token: string) => new Client().post("/api/auth/email/confirm", { token }, fromAddress());
const stop = (token: string) => new Client().post("/api/auth/email/stop", { token }, fromAddress());

describe("Endre e-post", SLOW, () => {
  it("changes the address only when the new address's link is opened", async () => {
    const { user, client, next, confirm: token } = await requested();
    expect(await emailOf(user.id)).toBe(user.email);
    const me = (await (await client.get("/api/me")).json()) as { email: string; pending_email: string | null };
    expect(me).toMatchObject({ email: user.email, pending_email: next });

    const res = await confirm(token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ email: next });
    expect(await emailOf(user.id)).toBe(next);
    // The open session goes on under the new address; sign-in takes the new one only.
    expect(await signedInAs(client)).toBe(next);
    expect((await new Client().post("/api/auth/signin", { email: next, password: PASSWORD }, fromAddress())).status).toBe(200);
    expect((await new Client().post("/api/auth/signin", { email: user.email, password: PASSWORD }, fromAddress())).status).toBe(400);
    const after = (await (await client.get("/api/me")).json()) as { pending_email: string | null };
    expect(after.pending_email).toBeNull();
    // The link works once.
    const again = await confirm(token);
    expect(again.status).toBe(400);
    expect((await errorOf(again)).message).toBe(LINK_REFUSALS.used);
  });

  it("asks for the password again; a wrong one changes and mails nothing", async () => {
    const user = await createUser({ password: PASSWORD });
    const client = await signIn(user.email, PASSWORD, fromAddress());
    const next = freshAddress();
    const res = await ask(client, next, "feilpassord");
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: "INVALID_CREDENTIALS", fields: { password: "Feil passord. Prøv igjen." } });
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM email_changes WHERE user_id = ?1").bind(user.id).first<{ n: number }>();
    expect(rows!.n).toBe(0);
    expect(await mailsTo(next)).toEqual([]);
  });

  it("refuses an address that belongs to another account, and the own address", async () => {
    const user = await createUser({ password: PASSWORD });
    const other = await createUser();
    const client = await signIn(user.email, PASSWORD, fromAddress());
    const taken = await ask(client, other.email.toUpperCase());
    expect(taken.status).toBe(409);
    expect(await errorOf(taken)).toMatchObject({ code: "EMAIL_TAKEN", message: CREDENTIAL_MESSAGES.emailTaken });
    expect(await mailsTo(other.email)).toEqual([]);
    const same = await ask(client, user.email);
    expect(same.status).toBe(400);
    expect((await errorOf(same)).message).toBe(CREDENTIAL_MESSAGES.sameEmail);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM email_changes WHERE user_id = ?1").bind(user.id).first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });

  it("refuses at the confirmation an address another account has taken meanwhile; the link stays unused", async () => {
    const { user, next, confirm: token } = await requested();
    const squatter = await createUser({ email: next });
    const res = await confirm(token);
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(CREDENTIAL_MESSAGES.emailTaken);
    expect(await emailOf(user.id)).toBe(user.email);
    expect(await emailOf(squatter.id)).toBe(next);
    const row = await env.DB.prepare("SELECT confirmed_at FROM email_changes WHERE user_id = ?1").bind(user.id).first();
    expect(row).toEqual({ confirmed_at: null });
  });

  it("two accounts confirming the same new address at once: exactly one gets it", async () => {
    const next = freshAddress();
    const tokens: string[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const user = await createUser({ password: PASSWORD });
      const client = await signIn(user.email, PASSWORD, fromAddress());
      expect((await ask(client, next)).status).toBe(202);
      tokens.push(tokenIn((await mailsTo(next))[0]!, "/auth/bekreft-epost"));
      ids.push(user.id);
    }
    const answers = await Promise.all(tokens.map((t) => confirm(t)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const owners = await env.DB.prepare("SELECT id FROM users WHERE email = ?1").bind(next).all<{ id: string }>();
    expect(owners.results).toHaveLength(1);
    expect(ids).toContain(owners.results[0]!.id);
  });

  it("a newer request replaces the older link", async () => {
    const { client, confirm: first } = await requested();
    const later = freshAddress();
    expect((await ask(client, later)).status).toBe(202);
    const res = await confirm(first);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(LINK_REFUSALS.replaced);
  });

  it("refuses a forged link and a stop token used as a confirmation", async () => {
    const { user, stop: stopToken } = await requested();
    expect((await errorOf(await confirm("B".repeat(43)))).message).toBe(LINK_REFUSALS.invalid);
    expect((await errorOf(await confirm(stopToken))).message).toBe(LINK_REFUSALS.invalid);
    expect(await emailOf(user.id)).toBe(user.email);
  });
});

describe("the old address's stop link", SLOW, () => {
  it("before the confirmation: the change is cancelled and every session and socket ends", async () => {
    const conv = await createConversation();
    await env.DB.prepare("UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE id = ?2) WHERE id = ?1")
      .bind(conv.buyer.id, (await createUser({ password: PASSWORD })).id)
      .run();
    const client = await signIn(conv.buyer.email, PASSWORD, fromAddress());
    const chat = await openChat(client, conv.id);
    const next = freshAddress();
    expect((await ask(client, next)).status).toBe(202);
    const confirmToken = tokenIn(await waitForMail(next, "Bekreft"), "/auth/bekreft-epost");
    const stopToken = tokenIn(await waitForMail(conv.buyer.email, "endres"), "/auth/stopp-epostendring");

    const res = await stop(stopToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ email: conv.buyer.email, reverted: false });
    expect(await chat.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await signedInAs(client)).toBeNull();
    const late = await confirm(confirmToken);
    expect(late.status).toBe(400);
    expect((await errorOf(late)).message).toBe(LINK_REFUSALS.replaced);
    expect(await emailOf(conv.buyer.id)).toBe(conv.buyer.email);
    // The stop link works once.
    expect((await errorOf(await stop(stopToken))).message).toBe(LINK_REFUSALS.used);
  });

  it("after the confirmation: the old address comes back and every session ends", async () => {
    const { user, client, next, confirm: token, stop: stopToken } = await requested();
    expect((await confirm(token)).status).toBe(200);
    expect(await emailOf(user.id)).toBe(next);
    const res = await stop(stopToken);
    expect(await res.json()).toEqual({ email: user.email, reverted: true });
    expect(await emailOf(user.id)).toBe(user.email);
    expect(await signedInAs(client)).toBeNull();
  });

  it("expires after 7 days", async () => {
    const { user, stop: stopToken } = await requested();
    await env.DB.prepare("UPDATE email_changes SET stop_expires_at = ?2 WHERE user_id = ?1")
      .bind(user.id, new Date(Date.now() - 1000).toISOString())
      .run();
    const res = await stop(stopToken);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(LINK_REFUSALS.expired);
  });
});
