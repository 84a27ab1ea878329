// Held money at the same moment (decision 105): the buyer's confirmation, the buyer's
// problem, the cron's automatic release, a moderator's refund and the seller's account deletion,
// sent together through the Worker, each reading the order before any of them writes (a barrier in
// front of D1). Exactly one outcome, and the money moved once: checked against what the sandbox
// itself recorded (transfers, refunds, Vipps captures and cancellations).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser, signedInClient } from "../../factories";
import type { Bindings } from "../../../worker/env";
import { runOrderCron } from "../../../worker/features/payments/orders";
import { moneyFor, ORDER_READ, orderView, paidOrder, type PaidOrder } from "../support/orders";
import { postWith, staleReads } from "../support/race";

const PASSWORD = "Passord-for-sletting-1";
const HOUR = 3_600_000;

async function state(order: PaidOrder): Promise<string> {
  return (await env.DB.prepare("SELECT state FROM orders WHERE id = ?1").bind(order.orderId).first<{ state: string }>())!.state;
}

/** The money the sandbox moved, as counts per kind: what "moved once" is checked against. */
async function movements(order: PaidOrder, method: "card" | "vipps") {
  const moved = await moneyFor(order);
  if (method === "card") return { payouts: moved.transfers.length, refunds: moved.refunds.length };
  return {
    payouts: moved.vipps.filter((v) => v.name === "CAPTURED").length,
    refunds: moved.vipps.filter((v) => v.name === "CANCELLED" || v.name === "REFUNDED").length,
  };
}

describe.each(["card", "vipps"] as const)("%s: every move at once", (method) => {
  it("after the handover: confirm, problem, automatic release and the seller's deletion → one outcome, money moved once", async () => {
    const order = await paidOrder(method, 300, { password: PASSWORD });
    expect((await order.sellerClient.post(`/api/payments/orders/${order.orderId}/handed-over`)).status).toBe(200);

    // Three moves read the order first and are held until all three have read it.
    const race = staleReads(ORDER_READ, 3);
    const [confirm, problem, , deletion] = await Promise.all([
      postWith(race.env, order.buyerClient, `/api/payments/orders/${order.orderId}/received`),
      postWith(race.env, order.buyerClient, `/api/payments/orders/${order.orderId}/problem`, {
        reason: "not_received",
        text: "Pakken har ikke kommet fram.",
      }),
      runOrderCron(race.env, new Date(Date.now() + 49 * HOUR)),
      order.sellerClient.request("/api/me", { method: "DELETE", json: { password: PASSWORD } }),
    ]);
    expect(deletion.status).toBe(204);
    const statuses = [confirm.status, problem.status].sort();
    const outcome = await state(order);
    // The deletion always completes; it refunds only an order still open when its batch runs.
    expect(["released", "problem", "refunded"]).toContain(outcome);
    // At most one of the two requests changed the order; the other (or both) got the lifecycle's refusal.
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(1);
    for (const s of statuses) expect([200, 409]).toContain(s);

    // Once the deletion's refund and a release are retried, nothing moves twice.
    await runOrderCron(env as Bindings, new Date(Date.now() + 50 * HOUR));
    await runOrderCron(env as Bindings, new Date(Date.now() + 51 * HOUR));
    const moved = await movements(order, method);
    if (outcome === "released") expect(moved).toEqual({ payouts: 1, refunds: 0 });
    else if (outcome === "refunded") expect(moved).toEqual({ payouts: 0, refunds: 1 });
    else expect(moved).toEqual({ payouts: 0, refunds: 0 });
  });

  it("a case: refund, partial refund and release by two moderators, the buyer's confirmation and the seller's deletion → one outcome", async () => {
    const order = await paidOrder(method, 300, { password: PASSWORD });
    expect(
      (
        await order.buyerClient.post(`/api/payments/orders/${order.orderId}/problem`, {
          reason: "not_as_described",
          text: "Det mangler tre deler.",
        })
      ).status,
    ).toBe(200);
    const [a, b] = await Promise.all([createUser({ role: "moderator" }), createUser({ role: "admin" })]);
    const [modA, modB] = await Promise.all([signedInClient(a.id), signedInClient(b.id)]);
    const path = `/api/moderation/payment-cases/${order.orderId}/decision`;

    const race = staleReads(ORDER_READ, 4);
    const responses = await Promise.all([
      postWith(race.env, modA, path, { action: "refund" }),
      postWith(race.env, modB, path, { action: "release_by_moderator" }),
      postWith(race.env, modA, path, { action: "partial_refund", refund_amount: 10_000 }),
      postWith(race.env, order.buyerClient, `/api/payments/orders/${order.orderId}/received`),
      order.sellerClient.request("/api/me", { method: "DELETE", json: { password: PASSWORD } }),
    ]);
    const decisions = responses.slice(0, 3).map((r) => r.status);
    expect(responses[3].status).toBe(409);
    expect(responses[4].status).toBe(204);
    expect(decisions.filter((s) => s === 200).length).toBeLessThanOrEqual(1);
    for (const s of decisions) expect([200, 409]).toContain(s);

    await runOrderCron(env as Bindings, new Date(Date.now() + HOUR));
    await runOrderCron(env as Bindings, new Date(Date.now() + 2 * HOUR));
    const outcome = await state(order);
    const moved = await movements(order, method);
    const expected = {
      released: { payouts: 1, refunds: 0 },
      refunded: { payouts: 0, refunds: 1 },
      partially_refunded: { payouts: 1, refunds: 1 },
    }[outcome];
    expect(expected, `outcome ${outcome}`).toBeDefined();
    expect(moved).toEqual(expected);
  });

  it("the same button twice at once: one change, one movement", async () => {
    const order = await paidOrder(method);
    const race = staleReads(ORDER_READ, 2);
    const responses = await Promise.all([
      postWith(race.env, order.buyerClient, `/api/payments/orders/${order.orderId}/received`),
      postWith(race.env, order.buyerClient, `/api/payments/orders/${order.orderId}/received`),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await orderView(order.buyerClient, order.orderId)).state).toBe("released");
    expect(await movements(order, method)).toEqual({ payouts: 1, refunds: 0 });
  });
});
