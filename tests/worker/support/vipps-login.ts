// Vipps Login test helpers: a browser (Client) starts a login at the Worker, "logs in" on the
// sandbox's login page as a person of the test's choosing (its form, as a browser posts it), and
// brings the code and state back to the Worker's callback, exactly as /auth/vipps does.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { sha256Hex } from "../../../worker/lib/crypto";
import type { IdTokenTamper } from "../../../scripts/payment-sandbox/vipps-login-tokens";
import { Client, visitorAddress } from "./http";

const SANDBOX = env.TEST_SANDBOX_URL;

/** Who logs in at Vipps: the sandbox's "Egen testperson" with these details. */
export interface VippsPerson {
  name: string;
  email: string;
  /** Eight digits (a Norwegian mobile number); Vipps gives it back as 47XXXXXXXX. */
  phone: string;
  emailVerified?: boolean;
}

let people = 0;

/** A person nobody has used in this test run: their own e-mail and phone number (so their own `sub`). */
export function newPerson(overrides: Partial<VippsPerson> = {}): VippsPerson {
  people += 1;
  const n = String(people).padStart(4, "0");
  return {
    name: `Vera Vipps ${n}`,
    email: `vera${n}-${crypto.randomUUID().slice(0, 6)}@vipps.test`,
    phone: `9${String(Date.now() % 1000).padStart(3, "0")}${n}`,
    ...overrides,
  };
}

/** The browser's own address, so address-keyed limits never carry from one test to the next. */
export function vippsBrowser(): Client {
  const client = new Client();
  const address = visitorAddress();
  const send = client.send;
  client.send = (request) => {
    request.headers.set("CF-Connecting-IP", address);
    return send(request);
  };
  return client;
}

/** POST /api/auth/vipps/start (or the profile's start): the authorize URL at the sandbox. */
export async function startVippsLogin(client: Client, path = "/api/auth/vipps/start", json: unknown = {}): Promise<URL> {
  const res = await client.post(path, json);
  expect(res.status, await res.clone().text()).toBe(200);
  const { url } = (await res.json()) as { url: string };
  return new URL(url);
}

export interface VippsRedirect {
  code: string | null;
  state: string;
  error: string | null;
}

/** Through the sandbox's authorize endpoint and login page: what Vipps sends the browser back with. */
export async function loginAtVipps(authorize: URL, person: VippsPerson | null): Promise<VippsRedirect> {
  const started = await fetch(`${SANDBOX}${authorize.pathname}${authorize.search}`, { redirect: "manual" });
  expect(started.status).toBe(302);
  const request = new URL(started.headers.get("location") ?? "").searchParams.get("request") ?? "";
  const form = new URLSearchParams({ request, action: person ? "approve" : "cancel", person: "custom" });
  if (person) {
    form.set("name", person.name);
    form.set("email", person.email);
    form.set("phone", person.phone);
    if (person.emailVerified !== false) form.set("email_verified", "true");
  }
  const done = await fetch(`${SANDBOX}/vipps/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form,
    redirect: "manual",
  });
  expect(done.status, await done.clone().text()).toBe(302);
  const back = new URL(done.headers.get("location") ?? "");
  expect(back.pathname).toBe("/auth/vipps");
  return { code: back.searchParams.get("code"), state: back.searchParams.get("state") ?? "", error: back.searchParams.get("error") };
}

/** The Worker's callback, as /auth/vipps posts what it found in its query. */
export function callback(client: Client, back: VippsRedirect): Promise<Response> {
  return client.post("/api/auth/vipps/callback", { state: back.state, ...(back.code ? { code: back.code } : { error: back.error }) });
}

/** Make the sandbox's token endpoint answer this code with a forged or altered ID token. */
export async function tamperIdToken(code: string, tamper: IdTokenTamper): Promise<void> {
  const res = await fetch(`${SANDBOX}/__sandbox/vipps-login/codes/${encodeURIComponent(code)}/id-token`, {
    method: "POST",
    body: JSON.stringify(tamper),
  });
  expect(res.status).toBe(200);
}

/** A whole login from /auth: start, Vipps, callback. */
export async function vippsLogin(client: Client, person: VippsPerson): Promise<Response> {
  return callback(client, await loginAtVipps(await startVippsLogin(client), person));
}

/** The started login's row, by the state in the authorize URL (to spoil its PKCE verifier). */
export async function stateHashOf(authorize: URL): Promise<string> {
  return sha256Hex(authorize.searchParams.get("state") ?? "");
}

/** What D1 holds about Vipps for an account. */
export async function vippsRows(userId: string) {
  const user = await env.DB.prepare("SELECT email, password_hash, phone, phone_verified_at, email_confirmed_at FROM users WHERE id = ?1")
    .bind(userId)
    .first<{
      email: string;
      password_hash: string;
      phone: string | null;
      phone_verified_at: string | null;
      email_confirmed_at: string | null;
    }>();
  const identities = (await env.DB.prepare("SELECT sub FROM vipps_identities WHERE user_id = ?1").bind(userId).all<{ sub: string }>())
    .results;
  return { user, identities };
}

export async function countRows(table: "users" | "vipps_identities" | "vipps_link_requests" | "sessions"): Promise<number> {
  return (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? 0;
}
