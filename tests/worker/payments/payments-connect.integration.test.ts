// Seller onboarding (docs/product.md "Profile", "Server calls"):
// "Koble til Stripe" creates one Express account and an onboarding link; a finished account can take
// charges, gets payouts, opens the Express dashboard, and turns payment on for the seller's listings.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { SellerPaymentStatus } from "../../../domain/payments";
import { createListing } from "../../factories";
import { allowConsoleError } from "../support/console-guard";
import { Client, errorOf } from "../support/http";
import { connectedSeller, deliver, oneDelivery, payableListing, sandboxUrl, signedIn } from "../support/payments";

async function accountId(userId: string): Promise<string | null> {
  const row = await env.DB.prepare("SELECT stripe_account_id FROM profiles WHERE user_id = ?1")
    .bind(userId)
    .first<{ stripe_account_id: string | null }>();
  return row!.stripe_account_id;
}

async function finishOnboarding(url: string): Promise<Response> {
  return fetch(sandboxUrl(url), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "first_name=Ola&last_name=Nordmann&account_number=12345678903",
    redirect: "manual",
  });
}

async function listingPayment(id: string) {
  return env.DB.prepare("SELECT payment_enabled, pricing_mode FROM listings WHERE id = ?1")
    .bind(id)
    .first<{ payment_enabled: number; pricing_mode: string }>();
}

describe("Koble til Stripe", () => {
  it("creates one Express account, links to onboarding, and after onboarding enables charges, payouts and the seller's listings", async () => {
    const { user, client } = await signedIn();
    const untouched = await createListing({ userId: user.id, price: 100 });
    const switchedOff = await createListing({ userId: user.id, price: 100, pricingMode: "marketplace", paymentEnabled: false });
    // A free listing has nothing to pay: connecting Stripe leaves it without payment (decision 089).
    const free = await createListing({ userId: user.id, isFree: true, price: null });

    const before = (await (await client.get("/api/payments/stripe/account")).json()) as SellerPaymentStatus;
    expect(before).toEqual({ connected: false, details_submitted: false, charges_enabled: false, payouts_enabled: false });

    const res = await client.post("/api/payments/stripe/account-link");
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(url).toContain("/connect/onboarding/");
    const acct = await accountId(user.id);
    expect(acct).toMatch(/^acct_/);
    // Not finished yet: connected, but no charges.
    expect(await (await client.get("/api/payments/stripe/account")).json()).toEqual({
      connected: true,
      details_submitted: false,
      charges_enabled: false,
      payouts_enabled: false,
    });

    // A second click reuses the account.
    expect((await client.post("/api/payments/stripe/account-link")).status).toBe(200);
    expect(await accountId(user.id)).toBe(acct);

    const done = await finishOnboarding(url);
    expect(done.headers.get("Location")).toBe(`${env.APP_ORIGIN}/profile?stripe=return`);
    const after = (await (await client.get("/api/payments/stripe/account")).json()) as SellerPaymentStatus;
    expect(after).toEqual({ connected: true, details_submitted: true, charges_enabled: true, payouts_enabled: true });

    expect(await listingPayment(untouched.id)).toEqual({ payment_enabled: 1, pricing_mode: "marketplace" });
    expect(await listingPayment(switchedOff.id)).toEqual({ payment_enabled: 0, pricing_mode: "marketplace" });
    expect(await listingPayment(free.id)).toEqual({ payment_enabled: 0, pricing_mode: "standard" });
  });

  it("two clicks at the same moment create one account", async () => {
    const { user, client } = await signedIn();
    const [a, b] = await Promise.all([client.post("/api/payments/stripe/account-link"), client.post("/api/payments/stripe/account-link")]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const acct = await accountId(user.id);
    const created = (await (await fetch(`${env.TEST_SANDBOX_URL}/__sandbox/requests?path=/v1/accounts`)).json()) as Array<{
      method: string;
      path: string;
      idempotencyKey: string;
    }>;
    const mine = created.filter(
      (r) => r.method === "POST" && r.path === "/v1/accounts" && r.idempotencyKey === `connect-account-${user.id}`,
    );
    // Every creation request carried the same idempotency key, so Stripe created one account.
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(new Set(mine.map((r) => r.idempotencyKey)).size).toBe(1);
    const res = await fetch(`${env.TEST_SANDBOX_URL}/v1/accounts/${acct}`, {
      headers: { Authorization: `Bearer ${env.STRIPE_SECRET_KEY}` },
    });
    expect(((await res.json()) as { metadata: { user_id: string } }).metadata.user_id).toBe(user.id);
  });

  it("opens the Express dashboard only for a finished account", async () => {
    const { client } = await signedIn();
    const none = await client.post("/api/payments/stripe/dashboard-link");
    expect(none.status).toBe(409);
    const { url } = (await (await client.post("/api/payments/stripe/account-link")).json()) as { url: string };
    const unfinished = await client.post("/api/payments/stripe/dashboard-link");
    expect(unfinished.status).toBe(409);
    expect((await errorOf(unfinished)).message).toBe("Fullfør registreringen hos Stripe først.");
    await finishOnboarding(url);
    const ok = await client.post("/api/payments/stripe/dashboard-link");
    expect(ok.status).toBe(200);
    const link = ((await ok.json()) as { url: string }).url;
    expect(link).toMatch(/\/express\/acct_/);
    expect((await fetch(sandboxUrl(link))).status).toBe(200);
  });

  it("account.updated from Stripe refreshes the seller's state", async () => {
    const { user, client } = await signedIn();
    const { url } = (await (await client.post("/api/payments/stripe/account-link")).json()) as { url: string };
    await finishOnboarding(url);
    const acct = (await accountId(user.id))!;
    expect((await deliver(await oneDelivery(acct, "account.updated"))).status).toBe(200);
    const row = await env.DB.prepare(
      "SELECT stripe_charges_enabled, stripe_payouts_enabled, stripe_details_submitted FROM profiles WHERE user_id = ?1",
    )
      .bind(user.id)
      .first();
    expect(row).toEqual({ stripe_charges_enabled: 1, stripe_payouts_enabled: 1, stripe_details_submitted: 1 });
  });

  it("answers 'Kunne ikke koble til Stripe. Prøv igjen.' when Stripe fails", async () => {
    const { client } = await signedIn();
    allowConsoleError("Stripe connect failed");
    const { app } = await import("../../../worker/app");
    const res = await app.request(
      "http://localhost/api/payments/stripe/account-link",
      { method: "POST", headers: { Origin: "http://localhost", Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } },
      { ...env, STRIPE_SECRET_KEY: "sk_wrong_key" },
    );
    expect(res.status).toBe(502);
    expect((await errorOf(res)).message).toBe("Kunne ikke koble til Stripe. Prøv igjen.");
  });

  it("requires a signed-in user", async () => {
    const anonymous = new Client();
    for (const [method, path] of [
      ["GET", "/api/payments/stripe/account"],
      ["POST", "/api/payments/stripe/account-link"],
      ["POST", "/api/payments/stripe/dashboard-link"],
    ]) {
      expect((await anonymous.request(path, { method })).status).toBe(401);
    }
  });
});

describe("the listing form's payment settings", () => {
  const form = (extra: Record<string, unknown> = {}) => ({
    title: "Trehest",
    category: "baby",
    age_range: "0-2 år",
    condition_rating: 4,
    price: "300",
    is_free: false,
    is_trade_offer: false,
    postal_code: "0150",
    ...extra,
  });

  async function withImage(userId: string): Promise<string> {
    const key = `${userId}/${crypto.randomUUID()}.jpg`;
    await env.IMAGES.put(key, new Uint8Array([0xff, 0xd8, 0xff, 1]));
    return key;
  }

  it("a connected seller's new listing takes payment in marketplace mode, or the mode the seller chose", async () => {
    const seller = await connectedSeller({ password: "hemmelig123" });
    const client = new Client();
    await client.post("/api/auth/signin", { email: seller.email, password: "hemmelig123" });
    const byDefault = (await (await client.post("/api/listings", form({ images: [await withImage(seller.id)] }))).json()) as { id: string };
    expect(await listingPayment(byDefault.id)).toEqual({ payment_enabled: 1, pricing_mode: "marketplace" });
    const vippsOnly = (await (
      await client.post("/api/listings", form({ images: [await withImage(seller.id)], pricing_mode: "vipps" }))
    ).json()) as { id: string };
    expect(await listingPayment(vippsOnly.id)).toEqual({ payment_enabled: 1, pricing_mode: "vipps" });

    const off = await client.request(`/api/listings/${byDefault.id}`, {
      method: "PUT",
      json: form({ images: [await withImage(seller.id)], payment_enabled: false }),
    });
    expect(off.status).toBe(200);
    expect(await listingPayment(byDefault.id)).toEqual({ payment_enabled: 0, pricing_mode: "marketplace" });
    const bad = await client.request(`/api/listings/${byDefault.id}`, {
      method: "PUT",
      json: form({ images: [await withImage(seller.id)], pricing_mode: "standard" }),
    });
    expect(bad.status).toBe(400);
  });

  it("a free listing gets no payment setting, on create or when it is made free", async () => {
    const seller = await connectedSeller({ password: "hemmelig123" });
    const client = new Client();
    await client.post("/api/auth/signin", { email: seller.email, password: "hemmelig123" });
    const free = (await (
      await client.post("/api/listings", form({ images: [await withImage(seller.id)], is_free: true, price: null, payment_enabled: true }))
    ).json()) as { id: string };
    expect(await listingPayment(free.id)).toEqual({ payment_enabled: 0, pricing_mode: "standard" });
    const paid = (await (await client.post("/api/listings", form({ images: [await withImage(seller.id)] }))).json()) as { id: string };
    expect(await listingPayment(paid.id)).toEqual({ payment_enabled: 1, pricing_mode: "marketplace" });
    const madeFree = await client.request(`/api/listings/${paid.id}`, {
      method: "PUT",
      json: form({ images: [await withImage(seller.id)], is_free: true, price: null }),
    });
    expect(madeFree.status).toBe(200);
    expect(await listingPayment(paid.id)).toEqual({ payment_enabled: 0, pricing_mode: "standard" });
  });

  it("a seller without a finished Stripe account cannot switch payment on", async () => {
    const { user, client } = await signedIn();
    const created = (await (
      await client.post("/api/listings", form({ images: [await withImage(user.id)], payment_enabled: true, pricing_mode: "stripe" }))
    ).json()) as { id: string };
    expect(await listingPayment(created.id)).toEqual({ payment_enabled: 0, pricing_mode: "standard" });
    await client.request(`/api/listings/${created.id}`, {
      method: "PUT",
      json: form({ images: [await withImage(user.id)], payment_enabled: true }),
    });
    expect(await listingPayment(created.id)).toEqual({ payment_enabled: 0, pricing_mode: "standard" });
  });
});

describe("what the listing views say about payment (decision 089)", () => {
  const shown = (body: { payment_enabled: boolean; pricing_mode: string }) => ({
    payment_enabled: body.payment_enabled,
    pricing_mode: body.pricing_mode,
  });

  it("a free listing stored with payment (enabled before this rule) shows none, on the page and on cards", async () => {
    const seller = await connectedSeller();
    const kosebamse = await payableListing(seller.id, { title: "Kosebamse, stor brun", isFree: true, price: null });
    const visitor = new Client();
    const page = (await (await visitor.get(`/api/listings/${kosebamse.id}`)).json()) as { payment_enabled: boolean; pricing_mode: string };
    expect(shown(page)).toEqual({ payment_enabled: false, pricing_mode: "standard" });
    const home = (await (await visitor.get("/api/home")).json()) as {
      free: { id: string; payment_enabled: boolean; pricing_mode: string }[];
    };
    const card = home.free.find((c) => c.id === kosebamse.id)!;
    expect(shown(card)).toEqual({ payment_enabled: false, pricing_mode: "standard" });
  });

  it("the page of a seller whose Stripe account cannot take charges says it cannot be paid in the app; a connected seller's can", async () => {
    const { user } = await signedIn();
    const notConnected = await payableListing(user.id, { price: 450 });
    const visitor = new Client();
    expect(shown((await (await visitor.get(`/api/listings/${notConnected.id}`)).json()) as never)).toEqual({
      payment_enabled: false,
      pricing_mode: "standard",
    });
    const seller = await connectedSeller();
    const payable = await payableListing(seller.id, { price: 450, pricingMode: "vipps" });
    expect(shown((await (await visitor.get(`/api/listings/${payable.id}`)).json()) as never)).toEqual({
      payment_enabled: true,
      pricing_mode: "vipps",
    });
  });
});
