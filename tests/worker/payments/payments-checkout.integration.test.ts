// Buying rules (docs/product.md "Validation"): who may start a checkout for which listing,
// that the price always comes from D1, and what the provider is asked for.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { suspensionMessage } from "../../../domain/moderation";
import { RATE_RULES } from "../../../domain/rate-limits";
import { createUser } from "../../factories";
import { allowConsoleError } from "../support/console-guard";
import { Client, errorOf } from "../support/http";
import { checkout, connectedSeller, payableListing, sandboxRequests, signedIn, stripeGet } from "../support/payments";
import { countAttempts } from "../support/rate-limits";
import { postWith } from "../support/race";
import type { Bindings } from "../../../worker/env";

const SUSPENDED_UNTIL = new Date(Date.now() + 7 * 86_400_000).toISOString();

async function paymentsFor(listingId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE listing_id = ?1").bind(listingId).first<{ n: number }>();
  return row!.n;
}

interface RuleCase {
  name: string;
  /** Build the situation; returns the listing id and the client that tries to buy. */
  arrange: () => Promise<{ listingId: string; client: Client; method?: "card" | "vipps" }>;
  status: number;
  message: string;
}

const RULES: RuleCase[] = [
  {
    name: "a visitor",
    arrange: async () => ({ listingId: (await payableListing((await connectedSeller()).id)).id, client: new Client() }),
    status: 401,
    message: "Du er ikke logget inn",
  },
  {
    name: "the seller's own listing",
    arrange: async () => {
      const { user, client } = await signedIn();
      const accountSeller = await connectedSeller();
      await env.DB.prepare(
        "UPDATE profiles SET stripe_account_id = (SELECT stripe_account_id FROM profiles WHERE user_id = ?2), stripe_charges_enabled = 1 WHERE user_id = ?1",
      )
        .bind(user.id, accountSeller.id)
        .run();
      return { listingId: (await payableListing(user.id)).id, client };
    },
    status: 403,
    message: "Du kan ikke kjøpe din egen annonse",
  },
  {
    name: "a free listing",
    arrange: async () => ({
      listingId: (await payableListing((await connectedSeller()).id, { isFree: true, price: null })).id,
      client: (await signedIn()).client,
    }),
    status: 400,
    message: "Gratis annonser kan ikke betales",
  },
  {
    name: "a sold listing",
    arrange: async () => ({
      listingId: (await payableListing((await connectedSeller()).id, { status: "sold" })).id,
      client: (await signedIn()).client,
    }),
    status: 409,
    message: "Annonsen er allerede solgt",
  },
  {
    name: "a reserved listing",
    arrange: async () => ({
      listingId: (await payableListing((await connectedSeller()).id, { status: "reserved" })).id,
      client: (await signedIn()).client,
    }),
    status: 409,
    message: "Annonsen er reservert",
  },
  {
    name: "a hidden listing",
    arrange: async () => ({
      listingId: (await payableListing((await connectedSeller()).id, { isHidden: true })).id,
      client: (await signedIn()).client,
    }),
    status: 404,
    message: "Kunne ikke hente annonse",
  },
  {
    name: "a deleted listing",
    arrange: async () => ({
      listingId: (await payableListing((await connectedSeller()).id, { status: "deleted" })).id,
      client: (await signedIn()).client,
    }),
    status: 404,
    message: "Kunne ikke hente annonse",
  },
  {
    name: "a listing that does not exist",
    arrange: async () => ({ listingId: crypto.randomUUID(), client: (await signedIn()).client }),
    status: 404,
    message: "Kunne ikke hente annonse",
  },
  {
    name: "a listing already paid for (re-activated by its owner)",
    arrange: async () => {
      const seller = await connectedSeller();
      const buyer = await createUser();
      const listing = await payableListing(seller.id);
      await env.DB.prepare(
        "INSERT INTO payments (id, listing_id, seller_id, buyer_id, provider, provider_ref, amount, status) VALUES (?1, ?2, ?3, ?4, 'stripe', ?5, 25000, 'completed')",
      )
        .bind(crypto.randomUUID(), listing.id, seller.id, buyer.id, `cs_test_${crypto.randomUUID()}`)
        .run();
      return { listingId: listing.id, client: (await signedIn()).client };
    },
    status: 409,
    message: "Annonsen er allerede solgt",
  },
  {
    name: "a listing with payment switched off",
    arrange: async () => ({
      listingId: (await payableListing((await connectedSeller()).id, { paymentEnabled: false })).id,
      client: (await signedIn()).client,
    }),
    status: 400,
    message: "Denne betalingsmåten tilbys ikke for annonsen",
  },
  {
    name: "Vipps on a card-only listing",
    arrange: async () => ({
      listingId: (await payableListing((await connectedSeller()).id, { pricingMode: "stripe" })).id,
      client: (await signedIn()).client,
      method: "vipps",
    }),
    status: 400,
    message: "Denne betalingsmåten tilbys ikke for annonsen",
  },
  {
    name: "card on a Vipps-only listing",
    arrange: async () => ({
      listingId: (await payableListing((await connectedSeller()).id, { pricingMode: "vipps" })).id,
      client: (await signedIn()).client,
    }),
    status: 400,
    message: "Denne betalingsmåten tilbys ikke for annonsen",
  },
  {
    name: "a seller without a Stripe account",
    arrange: async () => ({ listingId: (await payableListing((await createUser()).id)).id, client: (await signedIn()).client }),
    status: 409,
    message: "Selgeren kan ikke ta imot betaling i Lekebytte akkurat nå",
  },
  {
    // Moderation (decision 051): a suspended user may not buy; the message says until when and why.
    name: "a suspended buyer",
    arrange: async () => {
      const { user, client } = await signedIn();
      await env.DB.prepare(
        "INSERT INTO user_moderation_status (user_id, is_suspended, suspended_until, suspension_reason) VALUES (?1, 1, ?2, ?3)",
      )
        .bind(user.id, SUSPENDED_UNTIL, "Svindelforsøk")
        .run();
      return { listingId: (await payableListing((await connectedSeller()).id)).id, client };
    },
    status: 403,
    message: suspensionMessage(SUSPENDED_UNTIL, "Svindelforsøk"),
  },
  {
    name: "a price below the providers' minimum",
    arrange: async () => ({
      listingId: (await payableListing((await connectedSeller()).id, { price: 2 })).id,
      client: (await signedIn()).client,
    }),
    status: 400,
    message: "Beløpet er for lavt for betaling i Lekebytte (minst 3 kr)",
  },
];

describe("POST /api/payments/checkout: buying rules", () => {
  it.each(RULES)("refuses $name with $status and records nothing", async ({ arrange, status, message }) => {
    const { listingId, client, method } = await arrange();
    const before = await paymentsFor(listingId);
    const res = await client.post("/api/payments/checkout", { listing_id: listingId, method: method ?? "card" });
    expect(res.status).toBe(status);
    expect((await errorOf(res)).message).toBe(message);
    expect(await paymentsFor(listingId)).toBe(before);
  });

  it("refuses a body without a valid listing id or method", async () => {
    const { client } = await signedIn();
    const noId = await client.post("/api/payments/checkout", { method: "card" });
    expect(noId.status).toBe(400);
    expect((await errorOf(noId)).message).toBe("Ugyldig annonse");
    const badMethod = await client.post("/api/payments/checkout", { listing_id: crypto.randomUUID(), method: "cash" });
    expect(badMethod.status).toBe(400);
    expect((await errorOf(badMethod)).message).toBe("Velg en betalingsmåte");
  });
});

describe("POST /api/payments/checkout: a card payment", () => {
  it("prices from D1, ignores an amount in the body, and creates a NOK Checkout Session to the seller's account", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id, { price: 1250, title: "Lego Duplo brannstasjon" });
    const { user, client } = await signedIn();

    const res = await client.post("/api/payments/checkout", {
      listing_id: listing.id,
      method: "card",
      amount: 100,
      price: 1,
      currency: "usd",
    });
    expect(res.status).toBe(201);
    const { payment_id, url } = (await res.json()) as { payment_id: string; url: string };

    const payment = await env.DB.prepare("SELECT * FROM payments WHERE id = ?1").bind(payment_id).first<Record<string, unknown>>();
    expect(payment).toMatchObject({
      listing_id: listing.id,
      buyer_id: user.id,
      seller_id: seller.id,
      provider: "stripe",
      amount: 125000,
      currency: "NOK",
      status: "pending",
      platform_fee: 0,
    });
    const sessionId = payment!.provider_ref as string;
    expect(url).toContain(`/c/pay/${sessionId}`);

    const session = await stripeGet<Record<string, unknown>>(`/v1/checkout/sessions/${sessionId}`);
    expect(session).toMatchObject({
      amount_total: 125000,
      currency: "nok",
      status: "open",
      mode: "payment",
      client_reference_id: payment_id,
      locale: "nb",
    });
    expect(session.metadata).toMatchObject({ payment_id, listing_id: listing.id, buyer_id: user.id });
    expect(session.success_url).toBe(`${env.APP_ORIGIN}/payment-success?session_id={CHECKOUT_SESSION_ID}&payment_id=${payment_id}`);
    // Cancelling on Stripe's page is no error: back to the result page, which says so and leads to the listing.
    expect(session.cancel_url).toBe(`${env.APP_ORIGIN}/payment-success?cancelled=1&listing=${listing.seoSlug}`);
    const created = (await sandboxRequests("/v1/checkout/sessions")).filter((r) => r.idempotencyKey === `checkout-${payment_id}`);
    expect(created).toHaveLength(1);
  });

  it("charges on Lekebytte's account in the order's transfer group (money held, decision 105), with no fee taken at payment", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id);
    const { client } = await signedIn();
    const { payment_id } = await checkout(client, listing.id, "card");
    const [request] = (await sandboxRequests("/v1/checkout/sessions")).filter((r) => r.idempotencyKey === `checkout-${payment_id}`);
    const intentData = request.params!.payment_intent_data as {
      transfer_group?: string;
      transfer_data?: unknown;
      application_fee_amount?: string;
    };
    expect(intentData.transfer_group).toBe(`order-${payment_id}`);
    // Nothing goes to the seller with the charge: the release transfers it.
    expect(intentData.transfer_data).toBeUndefined();
    expect(intentData.application_fee_amount).toBeUndefined();
  });

  it("answers 502 with the spec's text when Stripe refuses, and marks the payment failed", async () => {
    // Stripe (the sandbox) refuses a key it does not know.
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id);
    const { client } = await signedIn();
    allowConsoleError("Could not start checkout");
    const wrongKey = { ...(env as Bindings), STRIPE_SECRET_KEY: "sk_test_not_the_sandbox_key" };
    const refused = await postWith(wrongKey, client, "/api/payments/checkout", { listing_id: listing.id, method: "card" });
    expect(refused.status).toBe(502);
    expect((await errorOf(refused)).message).toBe("Kunne ikke starte betalingsprosessen. Prøv igjen.");
    const failed = await env.DB.prepare("SELECT status FROM payments WHERE listing_id = ?1").bind(listing.id).first<{ status: string }>();
    expect(failed!.status).toBe("failed");
  });

  it("creates a Vipps ePayment for the D1 price with a return URL to /payment-success", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id, { price: 399 });
    const { client } = await signedIn();
    const { payment_id, url } = await checkout(client, listing.id, "vipps");
    const row = await env.DB.prepare("SELECT provider, provider_ref, amount FROM payments WHERE id = ?1")
      .bind(payment_id)
      .first<{ provider: string; provider_ref: string; amount: number }>();
    expect(row).toMatchObject({ provider: "vipps", provider_ref: `lb-${payment_id}`, amount: 39900 });
    expect(url).toContain("/vipps/landing?token=");
    const created = (await sandboxRequests("/epayment/v1/payments")).filter((r) => r.idempotencyKey === `create-${payment_id}`);
    expect(created).toHaveLength(1);
  });

  it("limits how many checkouts one buyer starts per hour", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id);
    const { user, client } = await signedIn();
    await countAttempts(RATE_RULES.paymentCheckout, user.id);
    const res = await client.post("/api/payments/checkout", { listing_id: listing.id, method: "card" });
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBeTruthy();
    expect(await paymentsFor(listing.id)).toBe(0);
  });
});
