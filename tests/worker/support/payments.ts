// Payment test helpers: sellers with a real (sandbox) Stripe Express account, buyers with a session,
// paying on the sandbox's hosted pages like a browser, and handing the sandbox's signed webhooks to
// the Worker.
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { createListing, createUser, signedInClient, type ListingOverrides, type TestUser } from "../../factories";
import type { Client } from "./http";

export const SANDBOX = env.TEST_SANDBOX_URL;

const stripeAuth = { Authorization: `Bearer ${env.STRIPE_SECRET_KEY}`, "Content-Type": "application/x-www-form-urlencoded" };

/** A user with a session (minted, without the cost of a real sign-in). */
export async function signedIn(overrides: Parameters<typeof createUser>[0] = {}): Promise<{ user: TestUser; client: Client }> {
  const user = await createUser(overrides);
  return { user, client: await signedInClient(user.id) };
}

/** An Express account at the sandbox that finished onboarding (as a person would on its page). */
export async function onboardedStripeAccount(): Promise<string> {
  const created = await fetch(`${SANDBOX}/v1/accounts`, {
    method: "POST",
    headers: stripeAuth,
    body: "type=express&country=NO&capabilities[card_payments][requested]=true&capabilities[transfers][requested]=true",
  });
  const account = (await created.json()) as { id: string };
  const linkRes = await fetch(`${SANDBOX}/v1/account_links`, {
    method: "POST",
    headers: stripeAuth,
    body: new URLSearchParams({
      account: account.id,
      type: "account_onboarding",
      refresh_url: "http://localhost/r",
      return_url: "http://localhost/ok",
    }).toString(),
  });
  const link = (await linkRes.json()) as { url: string };
  const done = await fetch(sandboxUrl(link.url), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "first_name=Kari&last_name=Selger&account_number=12345678903",
    redirect: "manual",
  });
  expect(done.status).toBe(303);
  return account.id;
}

/** A seller whose Stripe account can take charges (the profile's cached state set as the app sets it). */
export async function connectedSeller(overrides: Parameters<typeof createUser>[0] = {}): Promise<TestUser> {
  const accountId = await onboardedStripeAccount();
  const seller = await createUser({ stripeAccountId: accountId, ...overrides });
  await env.DB.prepare(
    "UPDATE profiles SET stripe_charges_enabled = 1, stripe_payouts_enabled = 1, stripe_details_submitted = 1 WHERE user_id = ?1",
  )
    .bind(seller.id)
    .run();
  return seller;
}

/** A listing for sale with payment enabled (marketplace: card and Vipps). */
export async function payableListing(sellerId: string, overrides: ListingOverrides = {}) {
  return createListing({ userId: sellerId, price: 250, paymentEnabled: true, pricingMode: "marketplace", ...overrides });
}

/** Hosted pages come back with the sandbox's public host (localhost); the tests reach it on 127.0.0.1. */
export function sandboxUrl(url: string): string {
  const u = new URL(url);
  return `${SANDBOX}${u.pathname}${u.search}`;
}

export async function checkout(client: Client, listingId: string, method: "card" | "vipps"): Promise<{ payment_id: string; url: string }> {
  const res = await client.post("/api/payments/checkout", { listing_id: listingId, method });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { payment_id: string; url: string };
}

/** Pay on the sandbox's Checkout page with Stripe's test card; returns the success redirect. */
export async function payByCard(checkoutUrl: string, card = "4242 4242 4242 4242"): Promise<Response> {
  return fetch(sandboxUrl(checkoutUrl), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "kjoper@test.no", card, expiry: "12 / 40", cvc: "123", name: "Kari Kjøper" }).toString(),
    redirect: "manual",
  });
}

/** Approve on the Vipps landing page and "app": phone number, then Godkjenn. Returns the return-URL redirect. */
export async function approveVipps(redirectUrl: string, action: "approve" | "cancel" = "approve"): Promise<Response> {
  const token = new URL(redirectUrl).searchParams.get("token")!;
  const form = { "Content-Type": "application/x-www-form-urlencoded" };
  const landing = await fetch(`${SANDBOX}/vipps/landing`, {
    method: "POST",
    headers: form,
    body: `token=${token}&phone=91234567&action=next`,
    redirect: "manual",
  });
  expect(landing.status).toBe(303);
  return fetch(`${SANDBOX}/vipps/app`, { method: "POST", headers: form, body: `token=${token}&action=${action}`, redirect: "manual" });
}

export interface HeldDelivery {
  eventType: string;
  objectId: string;
  request: { url: string; headers: Record<string, string>; body: string };
}

/** The signed webhook requests the sandbox holds for an object (a Checkout Session id or Vipps reference). */
export async function deliveries(objectId: string, type?: string): Promise<HeldDelivery[]> {
  const q = new URLSearchParams({ object: objectId, ...(type ? { type } : {}) });
  return (await (await fetch(`${SANDBOX}/__sandbox/deliveries?${q}`)).json()) as HeldDelivery[];
}

export async function oneDelivery(objectId: string, type: string): Promise<HeldDelivery> {
  const found = await deliveries(objectId, type);
  expect(found, `${type} for ${objectId}`).toHaveLength(1);
  return found[0];
}

/** Send a held webhook to the Worker exactly as the sandbox signed it (or with changes). */
export function deliver(d: HeldDelivery, change: { body?: string; headers?: Record<string, string | null> } = {}): Promise<Response> {
  const headers = new Headers(d.request.headers);
  for (const [k, v] of Object.entries(change.headers ?? {})) {
    if (v === null) headers.delete(k);
    else headers.set(k, v);
  }
  return exports.default.fetch(new Request(d.request.url, { method: "POST", headers, body: change.body ?? d.request.body }));
}

/** API calls the sandbox received whose path starts with `prefix`. */
export interface SandboxRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params?: Record<string, unknown>;
}

export async function sandboxRequests(prefix: string): Promise<SandboxRequest[]> {
  return (await (await fetch(`${SANDBOX}/__sandbox/requests?path=${encodeURIComponent(prefix)}`)).json()) as SandboxRequest[];
}

export async function stripeGet<T>(path: string): Promise<T> {
  return (await (await fetch(`${SANDBOX}${path}`, { headers: { Authorization: `Bearer ${env.STRIPE_SECRET_KEY}` } })).json()) as T;
}

export async function paymentRow(id: string) {
  return env.DB.prepare("SELECT * FROM payments WHERE id = ?1")
    .bind(id)
    .first<Record<string, unknown> & { status: string; provider_ref: string }>();
}

/** Counts that must not move when a request is refused or replayed. */
export async function saleCounts(listingId: string) {
  const row = await env.DB.prepare(
    `SELECT (SELECT COUNT(*) FROM orders o JOIN payments p ON p.id = o.payment_id WHERE p.listing_id = ?1) AS orders,
            (SELECT COUNT(*) FROM payments WHERE listing_id = ?1 AND status = 'completed') AS completed,
            (SELECT COUNT(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.listing_id = ?1) AS messages,
            (SELECT COALESCE(MAX(last_seq), 0) FROM conversations WHERE listing_id = ?1) AS last_seq,
            (SELECT status FROM listings WHERE id = ?1) AS listing_status`,
  )
    .bind(listingId)
    .first<{ orders: number; completed: number; messages: number; last_seq: number; listing_status: string }>();
  return row!;
}

export async function outboxTo(email: string): Promise<Array<{ subject: string; text_body: string }>> {
  const { results } = await env.DB.prepare("SELECT subject, text_body FROM dev_outbox WHERE to_address = ?1 ORDER BY created_at")
    .bind(email)
    .all<{ subject: string; text_body: string }>();
  return results;
}
