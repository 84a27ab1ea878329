// The sandbox's Stripe, driven by the official SDK (as the app drives it) and by a browser's forms:
// form encoding, Connect, Checkout, the hosted card form, refunds and transfers (its webhooks and its
// state across a restart: stripe-webhooks.test.ts).
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { parseForm } from "../../scripts/payment-sandbox/form";
import { form, KEYS } from "./helpers";
import { hooks, local, onboardedAccount, sb, sessionParams, stripe, withStripeSandbox } from "./stripe-setup";

withStripeSandbox();

describe("form encoding", () => {
  it("reads Stripe's bracket notation into nested objects and arrays", () => {
    expect(
      parseForm("line_items[0][price_data][currency]=nok&line_items[0][quantity]=1&metadata[a]=b&expand[]=x&expand[]=y&mode=payment"),
    ).toEqual({
      line_items: [{ price_data: { currency: "nok" }, quantity: "1" }],
      metadata: { a: "b" },
      expand: ["x", "y"],
      mode: "payment",
    });
  });

  it("receives what the SDK sends as the same structure", async () => {
    const params = sessionParams();
    await stripe.checkout.sessions.create(params);
    const logged = sb.stripe.requests.at(-1)!;
    expect(logged.params).toMatchObject({
      mode: "payment",
      line_items: [{ quantity: "1", price_data: { currency: "nok", unit_amount: "125000", product_data: { name: "Lekekjøkken" } } }],
      metadata: { payment_id: "p1" },
    });
  });
});

describe("Connect Express", () => {
  it("creates an account that can take charges only after onboarding, with the dashboard link after", async () => {
    const account = await stripe.accounts.create({
      type: "express",
      country: "NO",
      email: "ny@test.no",
      capabilities: { card_payments: { requested: true } },
    });
    expect(account).toMatchObject({
      object: "account",
      type: "express",
      country: "NO",
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
    });
    await expect(stripe.accounts.createLoginLink(account.id)).rejects.toMatchObject({ type: "StripeInvalidRequestError", statusCode: 400 });
    const finished = await onboardedAccount();
    expect(finished).toMatchObject({ charges_enabled: true, payouts_enabled: true, details_submitted: true });
    const login = await stripe.accounts.createLoginLink(finished.id);
    expect(login.object).toBe("login_link");
    const page = await fetch(local(login.url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Utbetalinger er aktivert.");
  });

  it("an account link is used once; a used link sends the browser to refresh_url", async () => {
    const account = await stripe.accounts.create({ type: "express" });
    const link = await stripe.accountLinks.create({
      account: account.id,
      type: "account_onboarding",
      refresh_url: "http://app.test/refresh",
      return_url: "http://app.test/return",
    });
    expect(link).toMatchObject({ object: "account_link" });
    expect(link.expires_at - link.created).toBe(300);
    await fetch(local(link.url), form({ first_name: "A", last_name: "B", account_number: "12345678903" }));
    const again = await fetch(local(link.url), { redirect: "manual" });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("http://app.test/refresh");
  });

  it("refuses missing and unknown parameters the way Stripe does", async () => {
    await expect(
      stripe.accountLinks.create({
        account: "acct_missing",
        type: "account_onboarding",
        refresh_url: "http://a.test",
        return_url: "http://a.test",
      }),
    ).rejects.toMatchObject({
      type: "StripeInvalidRequestError",
      code: "resource_missing",
      param: "account",
    });
    await expect(stripe.accountLinks.create({ type: "account_onboarding" } as Stripe.AccountLinkCreateParams)).rejects.toMatchObject({
      code: "parameter_missing",
      param: "account",
      message: "Missing required param: account.",
    });
    await expect(stripe.accounts.create({ type: "express", shoe_size: 42 } as unknown as Stripe.AccountCreateParams)).rejects.toMatchObject(
      { code: "parameter_unknown", param: "shoe_size" },
    );
  });
});

describe("Checkout Sessions", () => {
  it("creates, retrieves and expires a session; an expired one cannot be expired again", async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    expect(session).toMatchObject({
      object: "checkout.session",
      status: "open",
      payment_status: "unpaid",
      amount_total: 125000,
      currency: "nok",
      payment_intent: null,
    });
    expect(session.url).toContain(`/c/pay/${session.id}`);
    expect((await stripe.checkout.sessions.retrieve(session.id)).id).toBe(session.id);
    expect((await stripe.checkout.sessions.expire(session.id)).status).toBe("expired");
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({ type: "StripeInvalidRequestError" });
    await expect(stripe.checkout.sessions.retrieve("cs_test_nope")).rejects.toMatchObject({ statusCode: 404, code: "resource_missing" });
  });

  it("validates like Stripe: success_url, amounts, expires_at and the transfer destination", async () => {
    await expect(stripe.checkout.sessions.create({ ...sessionParams(), success_url: undefined })).rejects.toMatchObject({
      param: "success_url",
      code: "parameter_missing",
    });
    await expect(
      stripe.checkout.sessions.create({
        ...sessionParams(),
        line_items: [{ quantity: 1, price_data: { currency: "nok", unit_amount: 200, product_data: { name: "Klinkekule" } } }],
      }),
    ).rejects.toMatchObject({ code: "amount_too_small" });
    await expect(
      stripe.checkout.sessions.create({ ...sessionParams(), expires_at: Math.floor(Date.now() / 1000) + 60 }),
    ).rejects.toMatchObject({ param: "expires_at" });
    const unfinished = await stripe.accounts.create({ type: "express" });
    await expect(stripe.checkout.sessions.create(sessionParams(unfinished.id))).rejects.toMatchObject({
      code: "insufficient_capabilities_for_transfer",
      param: "payment_intent_data[transfer_data][destination]",
    });
  });

  it("replays an idempotent request and refuses the key with other parameters", async () => {
    const key = `idem-${Math.random()}`;
    const first = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: key });
    const second = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: key });
    expect(second.id).toBe(first.id);
    await expect(
      stripe.checkout.sessions.create({ ...sessionParams(), metadata: { payment_id: "other" } }, { idempotencyKey: key }),
    ).rejects.toMatchObject({
      type: "StripeIdempotencyError",
    });
  });

  it("refuses a wrong API key with Stripe's authentication error", async () => {
    const wrong = new Stripe("sk_wrong", { host: "127.0.0.1", port: sb.port, protocol: "http", maxNetworkRetries: 0 });
    await expect(wrong.checkout.sessions.retrieve("cs_test_x")).rejects.toMatchObject({
      type: "StripeAuthenticationError",
      statusCode: 401,
    });
  });
});

describe("the hosted Checkout page", () => {
  it("shows the amount, refuses a bad or declined card, and pays with the test card", async () => {
    const account = await onboardedAccount();
    const session = await stripe.checkout.sessions.create(sessionParams(account.id));
    const page = await fetch(local(session.url!));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/1\s250,00 kr/);
    expect(html).toContain("Lekekjøkken");

    const card = (number: string) => form({ email: "kari@test.no", card: number, expiry: "12 / 40", cvc: "123", name: "Kari" });
    const invalid = await fetch(local(session.url!), card("4242 4242 4242 4241"));
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain("Kortnummeret er ugyldig.");
    const declined = await fetch(local(session.url!), card("4000 0000 0000 0002"));
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain("Kortet ble avvist.");

    const paid = await fetch(local(session.url!), card("4242 4242 4242 4242"));
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`http://app.test/payment-success?session_id=${session.id}&payment_id=p1`);
    const after = await stripe.checkout.sessions.retrieve(session.id);
    expect(after).toMatchObject({ status: "complete", payment_status: "paid", customer_details: { email: "kari@test.no" } });
    expect(after.payment_intent).toMatch(/^pi_/);
    // The page is closed once paid.
    expect((await fetch(local(session.url!))).status).toBe(410);
  });
});

describe("refunds", () => {
  it("refunds a paid session's PaymentIntent once, reversing the transfer", async () => {
    const account = await onboardedAccount();
    const session = await stripe.checkout.sessions.create(sessionParams(account.id));
    await fetch(local(session.url!), form({ email: "k@test.no", card: "4242424242424242", expiry: "12/40", cvc: "123", name: "" }));
    const pi = (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;
    const refund = await stripe.refunds.create({ payment_intent: pi, reverse_transfer: true, refund_application_fee: true });
    expect(refund).toMatchObject({ object: "refund", amount: 125000, currency: "nok", status: "succeeded", payment_intent: pi });
    expect(refund.transfer_reversal).toMatch(/^trr_/);
    await expect(stripe.refunds.create({ payment_intent: pi })).rejects.toMatchObject({ code: "charge_already_refunded" });
    await expect(stripe.refunds.create({ payment_intent: "pi_unknown" })).rejects.toMatchObject({
      code: "resource_missing",
      param: "payment_intent",
    });
  });
});

describe("separate charges and transfers (held money, decision 105)", () => {
  async function paidOnPlatform(group: string): Promise<Stripe.PaymentIntent> {
    const session = await stripe.checkout.sessions.create({
      ...sessionParams(),
      payment_intent_data: { transfer_group: group, metadata: { payment_id: "p1" } },
    });
    await fetch(local(session.url!), form({ email: "k@test.no", card: "4242424242424242", expiry: "12/40", cvc: "123", name: "" }));
    const pi = (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;
    return stripe.paymentIntents.retrieve(pi);
  }

  it("charges on the platform, then transfers to the seller from that charge, once per idempotency key", async () => {
    const account = await onboardedAccount();
    const intent = await paidOnPlatform("order-t1");
    expect(intent).toMatchObject({ status: "succeeded", amount: 125000, transfer_group: "order-t1", transfer_data: null });
    expect(intent.latest_charge).toMatch(/^ch_/);
    const params = {
      amount: 120000,
      currency: "nok",
      destination: account.id,
      transfer_group: "order-t1",
      source_transaction: intent.latest_charge as string,
      metadata: { order_id: "t1" },
    };
    const transfer = await stripe.transfers.create(params, { idempotencyKey: "transfer-t1" });
    expect(transfer).toMatchObject({ object: "transfer", amount: 120000, destination: account.id, transfer_group: "order-t1" });
    const replay = await stripe.transfers.create(params, { idempotencyKey: "transfer-t1" });
    expect(replay.id).toBe(transfer.id);
    const listed = await stripe.transfers.list({ transfer_group: "order-t1" });
    expect(listed.data.map((t) => t.id)).toEqual([transfer.id]);
    // The charge has 50 kr left: more than that is refused.
    await expect(stripe.transfers.create({ ...params, amount: 5001 })).rejects.toMatchObject({ code: "balance_insufficient" });
    const money = (await (await fetch(`${sb.url}/__sandbox/money`)).json()) as { transfers: { id: string }[] };
    expect(money.transfers.filter((t) => t.id === transfer.id)).toHaveLength(1);
    // The Express dashboard and the sandbox's own page show it.
    expect(await (await fetch(`${sb.url}/`)).text()).toContain("Stripe-overføring til selger");
  });

  it("refuses a transfer to an account that cannot receive", async () => {
    const account = await onboardedAccount();
    const intent = await paidOnPlatform("order-t2");
    const restricted = await fetch(`${sb.url}/__sandbox/stripe/accounts/${account.id}/restrict`, { method: "POST" });
    expect(restricted.status).toBe(200);
    await expect(
      stripe.transfers.create({
        amount: 1000,
        currency: "nok",
        destination: account.id,
        source_transaction: intent.latest_charge as string,
      }),
    ).rejects.toMatchObject({ code: "insufficient_capabilities_for_transfer", param: "destination" });
  });

  it("sends transfer.created and charge.refunded signed as Stripe signs them", async () => {
    const account = await onboardedAccount();
    const intent = await paidOnPlatform("order-t3");
    const transfer = await stripe.transfers.create({
      amount: 100000,
      currency: "nok",
      destination: account.id,
      transfer_group: "order-t3",
      source_transaction: intent.latest_charge as string,
    });
    await stripe.refunds.create({ payment_intent: intent.id, amount: 25000 });
    await sb.dispatcher.idle();
    const events = hooks.received
      .map((r) => stripe.webhooks.constructEvent(r.body, r.headers["stripe-signature"] as string, KEYS.stripeWebhookSecret))
      .filter((e) => e.type === "transfer.created" || e.type === "charge.refunded");
    expect(events.find((e) => e.type === "transfer.created" && (e.data.object as Stripe.Transfer).id === transfer.id)).toBeDefined();
    const refunded = events.find((e) => e.type === "charge.refunded" && (e.data.object as Stripe.Charge).payment_intent === intent.id);
    expect(refunded?.data.object).toMatchObject({ amount_refunded: 25000, refunded: false, transfer_group: "order-t3" });
  });
});
