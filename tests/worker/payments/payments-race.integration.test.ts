// Two buyers at once (docs/decisions/034-two-buyers.md): exactly one paid order. A competitor whose
// checkout is still open is expired; one who has paid by card is refunded in full (the charge is
// Lekebytte's, decision 105); one who has approved in Vipps is released (the reservation is
// cancelled, nothing was captured). The competing events are delivered concurrently.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  approveVipps,
  checkout,
  connectedSeller,
  deliver,
  oneDelivery,
  outboxTo,
  payableListing,
  payByCard,
  paymentRow,
  saleCounts,
  sandboxRequests,
  signedIn,
  stripeGet,
} from "../support/payments";

interface Buyer {
  email: string;
  client: Awaited<ReturnType<typeof signedIn>>["client"];
  paymentId: string;
  ref: string;
}

async function buyerPays(listingId: string, method: "card" | "vipps", name: string): Promise<Buyer> {
  const { user, client } = await signedIn({ displayName: name });
  const { payment_id, url } = await checkout(client, listingId, method);
  const paid = method === "card" ? await payByCard(url) : await approveVipps(url);
  expect(paid.status).toBe(303);
  return { email: user.email, client, paymentId: payment_id, ref: (await paymentRow(payment_id))!.provider_ref };
}

function eventFor(buyer: Buyer, method: "card" | "vipps") {
  return oneDelivery(buyer.ref, method === "card" ? "checkout.session.completed" : "epayments.payment.authorized.v1");
}

describe("two buyers pay for the same listing at the same moment", () => {
  it.each([
    ["card", "card"],
    ["vipps", "vipps"],
    ["card", "vipps"],
  ] as const)("%s and %s: one completed order, the other's money given back", async (methodA, methodB) => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id, { price: 300, title: "Sparkesykkel" });
    const a = await buyerPays(listing.id, methodA, "Anna");
    const b = await buyerPays(listing.id, methodB, "Bjørn");
    const [eventA, eventB] = await Promise.all([eventFor(a, methodA), eventFor(b, methodB)]);

    const responses = await Promise.all([deliver(eventA), deliver(eventB)]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);

    expect(await saleCounts(listing.id)).toMatchObject({ orders: 1, completed: 1, messages: 1, last_seq: 1, listing_status: "sold" });
    const statuses = [(await paymentRow(a.paymentId))!.status, (await paymentRow(b.paymentId))!.status];
    const winner = statuses[0] === "completed" ? a : b;
    const loser = winner === a ? b : a;
    const loserMethod = loser === a ? methodA : methodB;
    expect(statuses.filter((s) => s === "completed")).toHaveLength(1);
    expect((await paymentRow(loser.paymentId))!.status).toBe(loserMethod === "card" ? "refunded" : "cancelled");

    // The loser's money at the provider.
    if (loserMethod === "card") {
      const session = await stripeGet<{ payment_intent: string }>(`/v1/checkout/sessions/${loser.ref}`);
      const refunds = (await sandboxRequests("/v1/refunds")).filter((r) => r.idempotencyKey === `refund-${loser.paymentId}`);
      expect(refunds).toHaveLength(1);
      // The charge is Lekebytte's own (decision 105): a plain refund, nothing to reverse at the seller.
      expect(refunds[0].params).toMatchObject({ payment_intent: session.payment_intent });
      expect(refunds[0].params).not.toHaveProperty("reverse_transfer");
    } else {
      const cancels = (await sandboxRequests(`/epayment/v1/payments/${loser.ref}/cancel`)).length;
      expect(cancels).toBe(1);
      expect(await sandboxRequests(`/epayment/v1/payments/${loser.ref}/capture`)).toHaveLength(0);
    }
    // The winner's money is held (decision 105): a Vipps reservation is not captured before release.
    const winnerMethod = winner === a ? methodA : methodB;
    if (winnerMethod === "vipps") expect(await sandboxRequests(`/epayment/v1/payments/${winner.ref}/capture`)).toHaveLength(0);

    expect(await outboxTo(seller.email)).toHaveLength(1);
    const loserMail = await outboxTo(loser.email);
    expect(loserMail).toHaveLength(1);
    expect(loserMail[0].subject).toBe("Kjøpet av «Sparkesykkel» ble ikke gjennomført");
    // The winner gets their receipt, and only that.
    expect((await outboxTo(winner.email)).map((m) => m.subject)).toEqual(["Kvittering for «Sparkesykkel»"]);
    // The loser's result page: an error (the e-mail explains), never "Betalingen ble avbrutt" (decision 089).
    const verify = await loser.client.post("/api/payments/verify", { session_id: loser.ref, payment_id: loser.paymentId });
    expect(await verify.json()).toMatchObject({ status: "failed" });
  });

  it("a competitor whose checkout is still open has it expired when the other buyer's payment completes", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id);
    const first = await signedIn();
    const second = await signedIn();
    const openOne = await checkout(first.client, listing.id, "card");
    const openVipps = await checkout(second.client, listing.id, "vipps");
    const winner = await buyerPays(listing.id, "card", "Vinner");

    expect((await deliver(await eventFor(winner, "card"))).status).toBe(200);
    expect((await paymentRow(winner.paymentId))!.status).toBe("completed");

    const openRow = (await paymentRow(openOne.payment_id))!;
    expect(openRow.status).toBe("expired");
    expect((await stripeGet<{ status: string }>(`/v1/checkout/sessions/${openRow.provider_ref}`)).status).toBe("expired");
    // The expired session can no longer be paid on the hosted page.
    expect((await payByCard(openOne.url)).status).toBe(410);

    const vippsRow = (await paymentRow(openVipps.payment_id))!;
    expect(vippsRow.status).toBe("expired");
    expect(await sandboxRequests(`/epayment/v1/payments/${vippsRow.provider_ref}/cancel`)).toHaveLength(1);
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 1, completed: 1, listing_status: "sold" });
  });

  it("the webhook and the buyer's verification at the same moment fulfil the payment once", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id);
    const { client } = await signedIn();
    const { payment_id, url } = await checkout(client, listing.id, "vipps");
    expect((await approveVipps(url)).status).toBe(303);
    const ref = (await paymentRow(payment_id))!.provider_ref;
    const event = await oneDelivery(ref, "epayments.payment.authorized.v1");

    const [hook, verify] = await Promise.all([deliver(event), client.post("/api/payments/verify", { session_id: ref, payment_id })]);
    expect(hook.status).toBe(200);
    expect(verify.status).toBe(200);
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 1, completed: 1, messages: 1, last_seq: 1, listing_status: "sold" });
    expect(await outboxTo(seller.email)).toHaveLength(1);
    // The reservation is held until release (decision 105): neither captured it.
    expect(await sandboxRequests(`/epayment/v1/payments/${ref}/capture`)).toHaveLength(0);
    const held = await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE payment_id = ?1 AND state = 'held'")
      .bind(payment_id)
      .first<{ n: number }>();
    expect(held!.n).toBe(1);
  });
});

describe("a payment for a listing that is no longer for sale when the money arrives is given back", () => {
  it.each([
    ["reserved by its owner", "UPDATE listings SET status = 'reserved' WHERE id = ?1", "reserved"],
    ["hidden by a moderator", "UPDATE listings SET is_hidden = 1 WHERE id = ?1", "active"],
    ["deleted by its owner", "UPDATE listings SET status = 'deleted' WHERE id = ?1", "deleted"],
  ])("%s", async (_name, change, statusAfter) => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id);
    const buyer = await buyerPays(listing.id, "card", "Kari");
    await env.DB.prepare(change).bind(listing.id).run();
    expect((await deliver(await eventFor(buyer, "card"))).status).toBe(200);
    expect((await paymentRow(buyer.paymentId))!.status).toBe("refunded");
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 0, completed: 0, messages: 0, listing_status: statusAfter });
    expect(await outboxTo(seller.email)).toHaveLength(0);
  });

  it("put back on sale by its owner after an earlier buyer's payment completed: a later payment is refunded", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id);
    // Both pay; the second buyer's event is delayed until after the owner re-activated the sold listing.
    const late = await buyerPays(listing.id, "card", "Sen");
    const first = await buyerPays(listing.id, "card", "Først");
    expect((await deliver(await eventFor(first, "card"))).status).toBe(200);
    expect((await paymentRow(late.paymentId))!.status).toBe("pending");
    await env.DB.prepare("UPDATE listings SET status = 'active' WHERE id = ?1").bind(listing.id).run();

    expect((await deliver(await eventFor(late, "card"))).status).toBe(200);
    expect((await paymentRow(late.paymentId))!.status).toBe("refunded");
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 1, completed: 1, listing_status: "active" });
  });
});
