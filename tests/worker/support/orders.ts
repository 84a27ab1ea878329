// Held-money test helpers (decision 105): a paid order through the sandbox and the real webhook, and
// what the sandbox says it moved for it.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { OrderView } from "../../../domain/order-views";
import { type createUser, signedInClient, type TestUser } from "../../factories";
import type { Client } from "./http";
import {
  approveVipps,
  checkout,
  connectedSeller,
  deliver,
  oneDelivery,
  payableListing,
  payByCard,
  paymentRow,
  SANDBOX,
  signedIn,
} from "./payments";

/** The order read every move starts with (worker/features/payments/order-rows.ts orderRow): where a race holds its loser. */
export const ORDER_READ = /FROM orders t\s+JOIN payments p ON p\.id = t\.payment_id\s+JOIN listings l/;

export interface PaidOrder {
  orderId: string;
  paymentId: string;
  ref: string;
  paymentIntent: string | null;
  listingId: string;
  conversationId: string;
  seller: TestUser;
  sellerClient: Client;
  buyer: TestUser;
  buyerClient: Client;
  stripeAccountId: string;
}

/** A seller with a connected account, a listing at `price` kr, a buyer who paid for it; the webhook delivered. */
export async function paidOrder(
  method: "card" | "vipps",
  price = 300,
  sellerOverrides: Parameters<typeof createUser>[0] = {},
): Promise<PaidOrder> {
  const seller = await connectedSeller({ displayName: "Siri Selger", ...sellerOverrides });
  const listing = await payableListing(seller.id, { price, title: "Lekekjøkken i tre" });
  const { user: buyer, client: buyerClient } = await signedIn({ displayName: "Kari Kjøper" });
  const held = await payAndHold(await checkout(buyerClient, listing.id, method), method);
  const payment = await paymentRow(held.paymentId);
  return {
    ...held,
    paymentIntent: (payment!.provider_payment_ref as string | null) ?? null,
    listingId: listing.id,
    seller,
    sellerClient: await signedInClient(seller.id),
    buyer,
    buyerClient,
    stripeAccountId: seller.profile.stripeAccountId!,
  };
}

/** A started checkout paid in the sandbox and its webhook delivered: the order whose money is now held. */
export async function payAndHold(
  started: { payment_id: string; url: string },
  method: "card" | "vipps",
): Promise<Pick<PaidOrder, "orderId" | "paymentId" | "ref" | "conversationId">> {
  const paid = method === "card" ? await payByCard(started.url) : await approveVipps(started.url);
  expect(paid.status).toBe(303);
  const ref = (await paymentRow(started.payment_id))!.provider_ref;
  const event = await oneDelivery(ref, method === "card" ? "checkout.session.completed" : "epayments.payment.authorized.v1");
  expect((await deliver(event)).status).toBe(200);
  const tx = await env.DB.prepare("SELECT id, conversation_id FROM orders WHERE payment_id = ?1")
    .bind(started.payment_id)
    .first<{ id: string; conversation_id: string }>();
  expect(tx).not.toBeNull();
  return { orderId: tx!.id, paymentId: started.payment_id, ref, conversationId: tx!.conversation_id };
}

export interface MoneyMoved {
  transfers: Array<{ id: string; amount: number; destination: string; transfer_group: string | null; metadata: Record<string, string> }>;
  refunds: Array<{ id: string; amount: number; payment_intent: string }>;
  vipps: Array<{ reference: string; name: "CAPTURED" | "CANCELLED" | "REFUNDED"; amount: number }>;
}

/** Everything the sandbox moved for this order: transfers in its group, refunds of its charge, Vipps modifications. */
export async function moneyFor(order: Pick<PaidOrder, "paymentId" | "paymentIntent" | "ref">): Promise<MoneyMoved> {
  const all = (await (await fetch(`${SANDBOX}/__sandbox/money`)).json()) as MoneyMoved;
  return {
    transfers: all.transfers.filter((t) => t.transfer_group === `order-${order.paymentId}`),
    refunds: all.refunds.filter((r) => r.payment_intent === order.paymentIntent),
    vipps: all.vipps.filter((v) => v.reference === order.ref),
  };
}

export async function orderView(client: Client, orderId: string): Promise<OrderView> {
  const res = await client.get(`/api/payments/orders/${orderId}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as OrderView;
}

/** The texts of the deal's chat as its buyer reads them (through the chat API). */
export async function chatTexts(client: Client, conversationId: string): Promise<string[]> {
  const res = await client.get(`/api/conversations/${conversationId}/messages`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: Array<{ content: string }> }).messages.map((m) => m.content);
}
