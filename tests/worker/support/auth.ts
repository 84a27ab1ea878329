// Shared by the account tests (tests/worker/auth/): a new account signed up and confirmed through the
// mailed link, and a user signed in with a password.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { createUser } from "../../factories";
import { Client } from "./http";

export const PASSWORD = "hemmelig123";

export async function latestMailLink(email: string): Promise<string> {
  const row = await env.DB.prepare("SELECT text_body FROM dev_outbox WHERE to_address = ?1 ORDER BY created_at DESC LIMIT 1")
    .bind(email)
    .first<{ text_body: string }>();
  const match = row?.text_body.match(/https?:\/\/\S+\/auth\/callback\?code=\S+/);
  if (!match) throw new Error(`no confirmation mail for ${email}`);
  return match[0];
}

export function codeOf(link: string): string {
  return new URL(link).searchParams.get("code")!;
}

export async function signUpAndConfirm(email = `ny-${crypto.randomUUID().slice(0, 8)}@test.no`) {
  const client = new Client();
  const res = await client.post("/api/auth/signup", { display_name: "Kari", email, password: PASSWORD, postal_code: "0150" });
  expect(res.status).toBe(201);
  const confirmed = await client.post("/api/auth/callback", { code: codeOf(await latestMailLink(email)) });
  expect(confirmed.status).toBe(200);
  return { client, email };
}

export async function signedIn(overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser({ password: PASSWORD, ...overrides });
  const client = new Client();
  const res = await client.post("/api/auth/signin", { email: user.email, password: PASSWORD });
  expect(res.status).toBe(200);
  return { client, user };
}
