// Accounts as a browser meets them: real sign-ins (session and device cookies), the local outbox's
// mails and the links in them, waiting for a mail sent after the answer.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { Client } from "./http";

export const PASSWORD = "hemmelig123";

export interface OutboxMail {
  subject: string;
  text_body: string;
}

/** The mails to `email`, newest first. */
export async function mailsTo(email: string): Promise<OutboxMail[]> {
  const rows = await env.DB.prepare("SELECT subject, text_body FROM dev_outbox WHERE to_address = ?1 ORDER BY created_at DESC, rowid DESC")
    .bind(email)
    .all<OutboxMail>();
  return rows.results;
}

/** Waits for a mail to `email` whose subject has `subject` (mails "after the answer" land moments later). */
export async function waitForMail(email: string, subject: string, timeoutMs = 5_000): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailsTo(email)).find((m) => m.subject.includes(subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The token of the link to `path` in a mail (`…/path?token=…`). */
export function tokenIn(mail: OutboxMail, path: string): string {
  const match = mail.text_body.match(new RegExp(`https?://\\S+${path.replace(/\//g, "\\/")}\\?token=(\\S+)`));
  if (!match) throw new Error(`no ${path} link in "${mail.subject}"`);
  return decodeURIComponent(match[1]!);
}

/** Signs in through the real route, as a browser does (session, refresh and device cookies). */
export async function signIn(email: string, password = PASSWORD, init: RequestInit = {}): Promise<Client> {
  const client = new Client();
  const res = await client.post("/api/auth/signin", { email, password }, init);
  expect(res.status).toBe(200);
  return client;
}

/** Whether the client's session still works. */
export async function signedInAs(client: Client): Promise<string | null> {
  const res = await client.get("/api/auth/session");
  if (res.status !== 200) return null;
  const body = (await res.json()) as { user: { email: string } } | null;
  return body?.user.email ?? null;
}
