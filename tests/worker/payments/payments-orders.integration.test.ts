// Trygg betaling (decision 105): a paid order's money is held until the buyer has the toy.
// Against the payment sandbox through the same clients as production: a card charge stays on the
// platform and one Transfer pays the seller at release; a Vipps reservation is captured only at
// release and cancelled on a refund. Every money check reads what the sandbox itself moved.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser, signedInClient } from "../../factories";
import { errorOf } from "../support/http";
import { chatTexts, moneyFor, orderView, paidOrder } from "../support/orders";
import { checkout, deliver, oneDelivery, outboxTo, paymentRow, SANDBOX, sandboxRequests, signedIn } from "../support/payments";
import { runOrderCron, actOnOrder } from "../../../worker/features/payments/orders";
import type { Bindings } from "../../../worker/env";
import type { OrderCase } from "../../../domain/order-views";
import { staleReads } from "../support/race";

const HOUR = 3_600_000;
const later = (hours: number) => new Date(Date.now() + hours * HOUR);

async function listingStatus(id: string): Promise<string> {
  return (await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(id).first<{ status: string }>())!.status;
}

async function moderator() {
  const user = await createUser({ role: "moderator", displayName: "Mona Moderator" });
  return { user, client: await signedInClient(user.id) };
}

describe("paid → held", () => {
  it("card: the charge stays on the platform in the order's transfer group; nothing reaches the seller at payment", async () => {
    const order = await paidOrder("card");
    const request = (await sandboxRequests("/v1/checkout/sessions")).find(
      (r) => (r.params?.metadata as { payment_id?: string })?.payment_id === order.paymentId,
    );
    expect(request!.params!.payment_intent_data).toMatchObject({ transfer_group: `order-${order.paymentId}` });
    expect(request!.params!.payment_intent_data).not.toHaveProperty("transfer_data");
    expect(await moneyFor(order)).toMatchObject({ transfers: [], refunds: [] });

    const buyerView = await orderView(order.buyerClient, order.orderId);
    expect(buyerView).toMatchObject({
      state: "held",
      role: "buyer",
      amount: 30_000,
      money_moved: false,
      actions: ["confirm_received", "report_problem"],
    });
    const sellerView = await orderView(order.sellerClient, order.orderId);
    expect(sellerView).toMatchObject({ state: "held", role: "seller", actions: ["mark_handed_over"] });
    // Not a party: the order does not exist.
    const { client: stranger } = await signedIn();
    expect((await stranger.get(`/api/payments/orders/${order.orderId}`)).status).toBe(404);
    expect((await stranger.post(`/api/payments/orders/${order.orderId}/received`)).status).toBe(404);
    expect((await order.buyerClient.get("/api/payments/orders/not-a-uuid")).status).toBe(404);
    // A review waits for the release.
    const review = await order.buyerClient.post("/api/reviews", { deal_kind: "sale", deal_id: order.orderId, rating: 5 });
    expect(review.status).toBe(409);
  });

  it("Vipps: the reservation is not captured at payment", async () => {
    const order = await paidOrder("vipps");
    expect(await sandboxRequests(`/epayment/v1/payments/${order.ref}/capture`)).toHaveLength(0);
    expect((await orderView(order.buyerClient, order.orderId)).state).toBe("held");
  });
});

describe("handover and release", () => {
  it("card: 'Overlevert til kjøper', then 'Jeg har fått varen' → one Transfer of the price to the seller's account", async () => {
    const order = await paidOrder("card");
    const handed = await order.sellerClient.post(`/api/payments/orders/${order.orderId}/handed-over`);
    expect(handed.status, await handed.clone().text()).toBe(200);
    const view = (await handed.json()) as { state: string; release_due_at: string };
    expect(view.state).toBe("handed_over");
    expect(Date.parse(view.release_due_at) - Date.now()).toBeGreaterThan(47.9 * HOUR);
    expect((await order.sellerClient.post(`/api/payments/orders/${order.orderId}/received`)).status).toBe(403);

    const received = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/received`);
    expect(received.status).toBe(200);
    expect(await received.json()).toMatchObject({ state: "released", money_moved: true, actions: [] });

    const moved = await moneyFor(order);
    expect(moved.refunds).toEqual([]);
    expect(moved.transfers).toEqual([
      expect.objectContaining({
        amount: 30_000,
        destination: order.stripeAccountId,
        metadata: expect.objectContaining({ order_id: order.orderId }),
      }),
    ]);
    // Asked again: the lifecycle's refusal, and nothing moves.
    const again = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/received`);
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe("Pengene er allerede utbetalt til selger.");
    expect((await moneyFor(order)).transfers).toHaveLength(1);

    // Both read it in the chat and by e-mail; the listing stays sold; reviews open now.
    const texts = await chatTexts(order.buyerClient, order.conversationId);
    expect(texts.some((t) => t.startsWith("Selgeren har markert varen som overlevert."))).toBe(true);
    expect(texts).toContain("Kjøperen har bekreftet at varen er mottatt. Utbetalt til selger.");
    expect((await outboxTo(order.buyer.email)).map((m) => m.subject)).toContain("«Lekekjøkken i tre»: utbetalt til selger");
    expect((await outboxTo(order.seller.email)).map((m) => m.subject)).toContain("«Lekekjøkken i tre»: utbetalt til selger");
    expect(await listingStatus(order.listingId)).toBe("sold");
    expect((await order.buyerClient.post("/api/reviews", { deal_kind: "sale", deal_id: order.orderId, rating: 5 })).status).toBe(201);
  });

  it("without an answer: the buyer is reminded 24 hours before, and the cron releases 48 hours after the handover", async () => {
    const order = await paidOrder("card");
    expect((await order.sellerClient.post(`/api/payments/orders/${order.orderId}/handed-over`)).status).toBe(200);
    await runOrderCron(env as Bindings, later(23));
    expect((await outboxTo(order.buyer.email)).filter((m) => m.subject === "Har du fått «Lekekjøkken i tre»?")).toHaveLength(0);
    await runOrderCron(env as Bindings, later(25));
    await runOrderCron(env as Bindings, later(26));
    expect((await outboxTo(order.buyer.email)).filter((m) => m.subject === "Har du fått «Lekekjøkken i tre»?")).toHaveLength(1);
    expect((await orderView(order.buyerClient, order.orderId)).state).toBe("handed_over");
    expect((await moneyFor(order)).transfers).toHaveLength(0);

    await runOrderCron(env as Bindings, later(48.5));
    await runOrderCron(env as Bindings, later(49));
    expect((await orderView(order.buyerClient, order.orderId)).state).toBe("released");
    expect((await moneyFor(order)).transfers).toHaveLength(1);
    expect(await chatTexts(order.buyerClient, order.conversationId)).toContain(
      "Kjøperen svarte ikke innen 48 timer etter overleveringen. Utbetalt til selger.",
    );
  });

  it("Vipps: the buyer confirms straight from held → captured once; the signed capture event acknowledges it", async () => {
    const order = await paidOrder("vipps");
    expect((await order.buyerClient.post(`/api/payments/orders/${order.orderId}/received`)).status).toBe(200);
    const captures = await sandboxRequests(`/epayment/v1/payments/${order.ref}/capture`);
    expect(captures.map((c) => c.idempotencyKey)).toEqual([`capture-${order.orderId}`]);
    expect((await moneyFor(order)).vipps).toEqual([expect.objectContaining({ name: "CAPTURED", amount: 30_000 })]);
    const event = await oneDelivery(order.ref, "epayments.payment.captured.v1");
    expect((await deliver(event)).status).toBe(200);
    expect((await orderView(order.sellerClient, order.orderId)).money_moved).toBe(true);
  });
});

describe("problems, moderators and refunds", () => {
  it("'Meld fra om et problem' keeps the money held and opens a case with both parties' chat; a partial refund moves each part once", async () => {
    const order = await paidOrder("card");
    expect(
      (await order.buyerClient.post(`/api/payments/orders/${order.orderId}/problem`, { reason: "damaged", text: "kort" })).status,
    ).toBe(400);
    const problem = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/problem`, {
      reason: "damaged",
      text: "Døren på kjøleskapet er knekt.",
    });
    expect(problem.status).toBe(200);
    expect(await problem.json()).toMatchObject({ state: "problem", actions: [] });
    const reply = await order.sellerClient.post(`/api/conversations/${order.conversationId}/messages`, {
      id: crypto.randomUUID(),
      content: "Den var hel da jeg sendte den.",
    });
    expect(reply.status).toBe(201);
    // Neither the cron nor a confirmation moves money now.
    await runOrderCron(env as Bindings, later(200));
    const confirm = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/received`);
    expect(confirm.status).toBe(409);
    expect(await moneyFor(order)).toMatchObject({ transfers: [], refunds: [] });

    const mod = await moderator();
    const cases = (await (await mod.client.get("/api/moderation/payment-cases")).json()) as Array<{
      order_id: string;
      problem_reason: string;
      problem_text: string;
      actions: string[];
      messages: Array<{ sender: string; content: string }>;
    }>;
    const mine = cases.find((c) => c.order_id === order.orderId)!;
    expect(mine).toMatchObject({
      problem_reason: "damaged",
      problem_text: "Døren på kjøleskapet er knekt.",
      actions: ["refund", "partial_refund", "release_by_moderator"],
    });
    expect(mine.messages).toContainEqual(expect.objectContaining({ sender: "seller", content: "Den var hel da jeg sendte den." }));
    expect(mine.messages.some((m) => m.sender === "system")).toBe(true);
    // Users may not decide; a moderator may not give back all of it as a "part".
    expect((await order.buyerClient.post(`/api/moderation/payment-cases/${order.orderId}/decision`, { action: "refund" })).status).toBe(
      403,
    );
    const tooMuch = await mod.client.post(`/api/moderation/payment-cases/${order.orderId}/decision`, {
      action: "partial_refund",
      refund_amount: 30_000,
    });
    expect(tooMuch.status).toBe(400);

    const decided = await mod.client.post(`/api/moderation/payment-cases/${order.orderId}/decision`, {
      action: "partial_refund",
      refund_amount: 10_000,
    });
    expect(decided.status, await decided.clone().text()).toBe(200);
    expect(await decided.json()).toMatchObject({ state: "partially_refunded", refund_amount: 10_000, money_moved: true });
    const moved = await moneyFor(order);
    expect(moved.refunds.map((r) => r.amount)).toEqual([10_000]);
    expect(moved.transfers.map((t) => t.amount)).toEqual([20_000]);
    expect(await listingStatus(order.listingId)).toBe("sold");
    expect(await chatTexts(order.buyerClient, order.conversationId)).toContain(
      "En moderator har avgjort saken: 100,00 kr er betalt tilbake til kjøperen, og 200,00 kr er utbetalt til selger.",
    );
  });

  it("Vipps: a full refund cancels the reservation (nothing captured), the listing is for sale again and can be bought", async () => {
    const order = await paidOrder("vipps");
    await order.buyerClient.post(`/api/payments/orders/${order.orderId}/problem`, {
      reason: "not_received",
      text: "Ingen pakke etter to uker.",
    });
    const mod = await moderator();
    const decided = await mod.client.post(`/api/moderation/payment-cases/${order.orderId}/decision`, { action: "refund" });
    expect(decided.status).toBe(200);
    expect(await decided.json()).toMatchObject({ state: "refunded", refund_amount: 30_000 });
    expect(await sandboxRequests(`/epayment/v1/payments/${order.ref}/capture`)).toHaveLength(0);
    expect((await moneyFor(order)).vipps).toEqual([expect.objectContaining({ name: "CANCELLED", amount: 30_000 })]);
    expect(await listingStatus(order.listingId)).toBe("active");
    expect((await paymentRow(order.paymentId))!.status).toBe("refunded");
    expect((await outboxTo(order.buyer.email)).map((m) => m.subject)).toContain("«Lekekjøkken i tre»: pengene er betalt tilbake");
    expect(await chatTexts(order.buyerClient, order.conversationId)).toContain(
      "En moderator har avgjort saken: Pengene er betalt tilbake til kjøperen.",
    );
    // A new buyer can start a checkout for it.
    const { client } = await signedIn();
    await checkout(client, order.listingId, "card");
    // A second decision finds it decided.
    const again = await mod.client.post(`/api/moderation/payment-cases/${order.orderId}/decision`, {
      action: "release_by_moderator",
    });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe("Pengene er allerede betalt tilbake til kjøperen.");
  });

  it("a moderator sees no order without a case (404), and decides nothing in a case of their own (403)", async () => {
    const order = await paidOrder("card");
    const mod = await moderator();
    expect((await mod.client.post(`/api/moderation/payment-cases/${order.orderId}/decision`, { action: "refund" })).status).toBe(404);
    expect((await mod.client.get(`/api/payments/orders/${order.orderId}`)).status).toBe(404);

    // A seller who is a moderator: the case of their own sale is not theirs to decide.
    const ownOrder = await paidOrder("card", 300, { role: "moderator" });
    await ownOrder.buyerClient.post(`/api/payments/orders/${ownOrder.orderId}/problem`, {
      reason: "other",
      text: "Noe er galt med leken.",
    });
    const res = await ownOrder.sellerClient.post(`/api/moderation/payment-cases/${ownOrder.orderId}/decision`, {
      action: "release_by_moderator",
    });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).message).toBe("Du kan ikke avgjøre en sak du selv er part i.");

    // Another moderator: a case with staff on one side waits for an admin (decision 085), and the
    // dashboard offers no buttons; the admin's has them and decides.
    const staffTarget = "Bare en administrator kan avgjøre en sak der kjøperen eller selgeren er moderator eller administrator.";
    const refused = await mod.client.post(`/api/moderation/payment-cases/${ownOrder.orderId}/decision`, { action: "refund" });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe(staffTarget);
    const caseFor = async (client: typeof mod.client) =>
      ((await (await client.get("/api/moderation/payment-cases")).json()) as OrderCase[]).find((c) => c.order_id === ownOrder.orderId)!;
    expect(await caseFor(mod.client)).toMatchObject({ actions: [], seller: { role: "moderator" }, buyer: { role: "user" } });
    expect((await caseFor(ownOrder.sellerClient)).actions).toEqual([]);
    const admin = await signedInClient((await createUser({ role: "admin" })).id);
    expect((await caseFor(admin)).actions).toEqual(["refund", "partial_refund", "release_by_moderator"]);
    const decided = await admin.post(`/api/moderation/payment-cases/${ownOrder.orderId}/decision`, { action: "refund" });
    expect(decided.status, await decided.clone().text()).toBe(200);
    expect((await moneyFor(ownOrder)).refunds).toHaveLength(1);
  });
});

describe("cancel without a handover", () => {
  it("is refused before 7 days, and refunds in full at once after", async () => {
    const order = await paidOrder("card");
    const early = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/cancel`);
    expect(early.status).toBe(409);
    expect((await errorOf(early)).message).toMatch(/^Du kan avbryte kjøpet hvis selgeren ikke har markert varen som overlevert innen /);
    const buyer = {
      id: order.buyer.id,
      email: order.buyer.email,
      displayName: null,
      role: "user",
      suspended: false,
      sessionFamily: "x",
      exp: 0,
    } as never;
    const view = await actOnOrder(env as Bindings, buyer, order.orderId, "cancel_no_handover", {}, later(7 * 24 + 1));
    expect(view).toMatchObject({ state: "cancelled", refund_amount: 30_000, money_moved: true });
    expect((await moneyFor(order)).refunds.map((r) => r.amount)).toEqual([30_000]);
    expect(await listingStatus(order.listingId)).toBe("active");
  });
});

/** The seller completes what Stripe asks on the sandbox's account-update page: the account can receive again. */
async function finishStripeAccount(accountId: string): Promise<void> {
  const stripeAuth = { Authorization: `Bearer ${env.STRIPE_SECRET_KEY}`, "Content-Type": "application/x-www-form-urlencoded" };
  const link = (await (
    await fetch(`${SANDBOX}/v1/account_links`, {
      method: "POST",
      headers: stripeAuth,
      body: new URLSearchParams({
        account: accountId,
        type: "account_update",
        refresh_url: "http://localhost/r",
        return_url: "http://localhost/ok",
      }).toString(),
    })
  ).json()) as { url: string };
  const done = await fetch(`${SANDBOX}${new URL(link.url).pathname}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "first_name=Siri&last_name=Selger&account_number=12345678903",
    redirect: "manual",
  });
  expect(done.status).toBe(303);
}

describe("a transfer the seller's account refuses", () => {
  it("opening the order finishes money left unmoved (as the cron would), once", async () => {
    const order = await paidOrder("card");
    await fetch(`${SANDBOX}/__sandbox/stripe/accounts/${order.stripeAccountId}/restrict`, { method: "POST" });
    expect((await order.buyerClient.post(`/api/payments/orders/${order.orderId}/received`)).status).toBe(200);
    expect((await moneyFor(order)).transfers).toHaveLength(0);
    await finishStripeAccount(order.stripeAccountId);
    expect(await orderView(order.sellerClient, order.orderId)).toMatchObject({
      state: "released",
      money_moved: true,
      payout_error: null,
    });
    expect(await orderView(order.buyerClient, order.orderId)).toMatchObject({ money_moved: true });
    expect((await moneyFor(order)).transfers.map((t) => t.amount)).toEqual([30_000]);
  });

  it("keeps the money held, tells the seller what to fix, and pays once the account can receive", async () => {
    const order = await paidOrder("card");
    expect((await fetch(`${SANDBOX}/__sandbox/stripe/accounts/${order.stripeAccountId}/restrict`, { method: "POST" })).status).toBe(200);
    const received = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/received`);
    expect(received.status).toBe(200);
    expect(await received.json()).toMatchObject({ state: "released", money_moved: false });
    expect((await moneyFor(order)).transfers).toHaveLength(0);
    const seller = await orderView(order.sellerClient, order.orderId);
    expect(seller.payout_error).toContain("Stripe-kontoen din kan ikke ta imot utbetalinger.");
    expect((await orderView(order.buyerClient, order.orderId)).payout_error).toBeNull();
    await runOrderCron(env as Bindings, later(1));
    expect(
      (await outboxTo(order.seller.email)).filter((m) => m.subject === "Vi kunne ikke utbetale pengene for «Lekekjøkken i tre»"),
    ).toHaveLength(1);

    // The seller finishes what Stripe asks (the sandbox's update link), and the next run pays once.
    await finishStripeAccount(order.stripeAccountId);
    // Two runs at once (an overlapping cron), both reading the order before either writes: the
    // same idempotency key, one Transfer.
    const race = staleReads(/FROM orders t\s+JOIN payments p ON p\.id = t\.payment_id\s+JOIN listings l/, 2);
    await Promise.all([runOrderCron(race.env, later(2)), runOrderCron(race.env, later(2))]);
    expect((await moneyFor(order)).transfers.map((t) => t.amount)).toEqual([30_000]);
    expect(await orderView(order.sellerClient, order.orderId)).toMatchObject({ money_moved: true, payout_error: null });
    // Every attempt (refused, raced, paid) carried the order's one key.
    const attempts = (await sandboxRequests("/v1/transfers")).filter(
      (r) => (r.params?.metadata as { order_id?: string } | undefined)?.order_id === order.orderId,
    );
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(new Set(attempts.map((r) => r.idempotencyKey))).toEqual(new Set([`transfer-${order.orderId}`]));
  });
});
