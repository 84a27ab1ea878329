// The durability bench's world: its settings and server, the bench rows it writes before the
// server starts (creators, conversations, pending trade offers, shops and their buyers), and the
// sales paid on the payment sandbox before the stream, with the webhooks the sandbox signed for
// them and delivered as the providers deliver them.
import { SANDBOX_KEYS } from "../../scripts/payment-sandbox/dev-keys.mjs";
import { stripeSignatureHeader, vippsSignatureHeaders } from "../../scripts/payment-sandbox/webhooks";
import { AppServer, BenchDb, freshState, mintAccessTokens, simpleListing } from "./support";

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 40);
export const server = AppServer.forBench("durability", 8864, 8867);
export const STATE = server.stateDir;
// The sandbox signs its webhooks and keeps them; the bench delivers them (see durability.bench.ts).
server.env.PAYMENT_SANDBOX_HOLD_WEBHOOKS = "1";

/** Writes per second of each kind. */
export const RATES = { listing: 1, message: 6, accept: 1, webhook: 1, release: 1, shipped: 0.5, analytics: 2 } as const;
export const EVENTS_PER_BATCH = 10;
/** Listings paid for before the stream, one webhook delivery each during it (more than the stream sends). */
const SALES = Math.ceil(RATES.webhook * SECONDS * 1.6);
/** Orders paid and fulfilled before the stream, one "Jeg har fått varen" each during it. */
const RELEASES = Math.ceil(RATES.release * SECONDS * 1.6);
/** Sent toys paid, booked and delivered before the stream, each released during it or right after (durability-shipped.ts). */
const SHIPPED = Math.ceil(RATES.shipped * SECONDS * 1.6);
export type Kind = keyof typeof RATES;

export interface World {
  creators: string[];
  conversations: { id: string; buyerId: string; sellerId: string }[];
  offers: { id: string; recipientId: string; offeredId: string; requestedId: string }[];
  tokens: Map<string, string>;
  /** An uploaded photo for each new listing, by listing number. */
  photos: string[];
  sellers: string[];
  sales: Sale[];
  /** Orders whose money is held when the stream starts (their webhook delivered before it). */
  releases: Sale[];
  /** Sent toys ("Sending"), delivered before the stream: released during it (durability-shipped.ts). */
  shipped: Sale[];
}

/** A listing for sale, its buyer, and (once paid on the sandbox) the webhook the provider signed. */
export interface Sale {
  listingId: string;
  title: string;
  sellerId: string;
  buyerId: string;
  method: "card" | "vipps";
  paymentId?: string;
  webhook?: { url: string; body: string };
  /** The order (releases and sent toys). */
  orderId?: string;
  /** Bought with "Sending" (to the buyer's mailbox): its parcel, once booked, and when its 48 hours after delivery end. */
  sent?: boolean;
  shipmentNumber?: string;
  releaseDueAt?: string;
}

export type Outcome = "acked" | "refused" | "no answer";
export type Answer = { outcome: Outcome; status?: number; reason?: string };

/** One write over HTTP: acknowledged with the expected status, refused with another (and what it said), or no answer. */
export async function send(url: string, init: RequestInit, expect: number): Promise<Answer> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
    const text = await res.text();
    return res.status === expect
      ? { outcome: "acked", status: res.status }
      : { outcome: "refused", status: res.status, reason: text.slice(0, 120) };
  } catch {
    return { outcome: "no answer" };
  }
}

export async function populate(): Promise<World> {
  freshState(STATE, { demoData: false });
  const db = new BenchDb(STATE);
  const creators = Array.from({ length: 100 }, () => db.user("bench-durable-seller").id);
  const conversations = Array.from({ length: 100 }, (_, i) => {
    const sellerId = db.user("bench-durable-chat").id;
    const buyerId = db.user("bench-durable-chat").id;
    const listing = simpleListing(sellerId, `Samtaleleke ${i}`);
    db.listing(listing);
    return { id: db.conversation(listing.id, buyerId, sellerId), buyerId, sellerId };
  });
  const accepts = Math.ceil(RATES.accept * SECONDS * 1.6);
  const offers = Array.from({ length: accepts }, (_, i) => {
    const fromId = db.user("bench-durable-trade").id;
    const toId = db.user("bench-durable-trade").id;
    const offered = simpleListing(fromId, `Byttebil ${i}`);
    const requested = simpleListing(toId, `Byttedukke ${i}`, { is_trade_offer: 1 });
    db.listing(offered);
    db.listing(requested);
    const conversationId = db.conversation(requested.id, fromId, toId);
    return {
      id: db.tradeOffer(conversationId, fromId, toId, offered.id, requested.id),
      recipientId: toId,
      offeredId: offered.id,
      requestedId: requested.id,
    };
  });
  // Shops of 8 listings each (a seller connects Stripe once), one buyer per sale; card and Vipps in turn.
  // The shops send too: each has the street address a parcel's sender needs.
  const sellers = Array.from({ length: Math.ceil((SALES + RELEASES + SHIPPED) / 8) }, () => db.user("bench-durable-shop").id);
  for (const id of sellers) db.sender(id);
  const sales = Array.from({ length: SALES + RELEASES + SHIPPED }, (_, i): Sale => {
    const sellerId = sellers[i % sellers.length];
    const sent = i >= SALES + RELEASES;
    const title = i < SALES ? `Salgsleke ${i}` : sent ? `Sendeleke ${i - SALES - RELEASES}` : `Utbetalingsleke ${i - SALES}`;
    const listing = simpleListing(sellerId, title, { price: 250, ...(sent ? { can_ship: 1, parcel_size: "small" } : {}) });
    db.listing(listing);
    return {
      listingId: listing.id,
      title: listing.title,
      sellerId,
      buyerId: db.user("bench-durable-buyer").id,
      method: i % 2 ? "vipps" : "card",
      ...(sent ? { sent } : {}),
    };
  });
  db.close();
  return {
    creators,
    conversations,
    offers,
    tokens: await mintAccessTokens(db.families),
    photos: [],
    sellers,
    sales: sales.slice(0, SALES),
    releases: sales.slice(SALES, SALES + RELEASES),
    shipped: sales.slice(SALES + RELEASES),
  };
}

/** "Sending" at checkout: Posten to the buyer's mailbox (a small parcel), the buyer's address. */
const MAILBOX = {
  carrier: "bring",
  delivery: "mailbox",
  pickup_point_id: null,
  recipient: { name: "Kari Kjøper", address_line: "Bryggen 2", postal_code: "5003", phone: "98765432" },
};

/** A hosted page's URL (the sandbox's public host is localhost) on the address the sandbox listens on. */
const sandboxUrl = (url: string) => {
  const u = new URL(url);
  return `${server.sandboxBase}${u.pathname}${u.search}`;
};

export async function api(w: World, method: string, pathname: string, userId: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.base}${pathname}`, {
    method,
    headers: {
      Origin: server.origin,
      Cookie: `lb_access=${w.tokens.get(userId)}`,
      ...(body ? { "Content-Type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${text}`);
  return JSON.parse(text);
}

async function form(url: string, fields: Record<string, string>): Promise<void> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  await res.arrayBuffer();
  if (res.status !== 303) throw new Error(`${url}: ${res.status}, expected 303`);
}

/**
 * Before the stream, as people would: each seller connects Stripe (onboarding on the sandbox's page),
 * each buyer starts a checkout and pays (test card, or Vipps approved in the sandbox's "app"); then
 * the webhook the sandbox signed for each payment is fetched from it.
 */
export async function prepareSales(w: World): Promise<void> {
  for (const sellerId of w.sellers) {
    const { url } = (await api(w, "POST", "/api/payments/stripe/account-link", sellerId)) as { url: string };
    await form(sandboxUrl(url), { first_name: "Siri", last_name: "Selger", account_number: "12345678903" });
    const status = (await api(w, "GET", "/api/payments/stripe/account", sellerId)) as { charges_enabled: boolean };
    if (!status.charges_enabled) throw new Error("a bench seller's Stripe account cannot take charges");
  }
  for (const sale of [...w.sales, ...w.releases, ...w.shipped]) {
    const { payment_id, url } = (await api(w, "POST", "/api/payments/checkout", sale.buyerId, {
      listing_id: sale.listingId,
      method: sale.method,
      ...(sale.sent ? { shipping: MAILBOX } : {}),
    })) as { payment_id: string; url: string };
    sale.paymentId = payment_id;
    if (sale.method === "card") {
      await form(sandboxUrl(url), {
        email: "kjoper@test.no",
        card: "4242 4242 4242 4242",
        expiry: "12 / 40",
        cvc: "123",
        name: "Kari Kjøper",
      });
    } else {
      const token = new URL(url).searchParams.get("token")!;
      await form(`${server.sandboxBase}/vipps/landing`, { token, phone: "91234567", action: "next" });
      await form(`${server.sandboxBase}/vipps/app`, { token, action: "approve" });
    }
  }
  const held = async (type: string) =>
    (await (await fetch(`${server.sandboxBase}/__sandbox/deliveries?type=${type}`)).json()) as { request: { url: string; body: string } }[];
  const byPayment = new Map<string, { url: string; body: string }>();
  for (const d of await held("checkout.session.completed")) {
    byPayment.set(
      (JSON.parse(d.request.body) as { data: { object: { metadata: { payment_id: string } } } }).data.object.metadata.payment_id,
      d.request,
    );
  }
  for (const d of await held("epayments.payment.authorized.v1")) {
    byPayment.set((JSON.parse(d.request.body) as { reference: string }).reference.replace(/^lb-/, ""), d.request);
  }
  for (const sale of [...w.sales, ...w.releases, ...w.shipped]) {
    sale.webhook = byPayment.get(sale.paymentId!);
    if (!sale.webhook) throw new Error(`the sandbox signed no webhook for payment ${sale.paymentId}`);
  }
  // The releases' and the sent toys' orders are fulfilled now: their money is held when the stream starts.
  for (const sale of [...w.releases, ...w.shipped]) {
    const delivered = await deliverWebhook(sale);
    if (delivered.outcome !== "acked") throw new Error(`the webhook of payment ${sale.paymentId} was not acknowledged`);
    const purchases = (await api(w, "GET", "/api/payments/purchases", sale.buyerId)) as { order_id: string; listing: { id: string } }[];
    sale.orderId = purchases.find((p) => p.listing.id === sale.listingId)?.order_id;
    if (!sale.orderId) throw new Error(`no order for payment ${sale.paymentId}`);
  }
}

/** One delivery attempt, signed anew as the providers sign every attempt. */
export async function deliverWebhook(sale: Sale): Promise<{ outcome: Outcome; status?: number; reason?: string; duplicate?: boolean }> {
  const { url, body } = sale.webhook!;
  const signature =
    sale.method === "card"
      ? { "Stripe-Signature": stripeSignatureHeader(body, SANDBOX_KEYS.STRIPE_WEBHOOK_SECRET) }
      : vippsSignatureHeaders(url, body, SANDBOX_KEYS.VIPPS_WEBHOOK_SECRET);
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=utf-8", ...signature },
      body,
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (res.status >= 200 && res.status < 300)
      return { outcome: "acked", status: res.status, duplicate: (JSON.parse(text) as { duplicate?: boolean }).duplicate };
    return { outcome: "refused", status: res.status, reason: text.slice(0, 120) };
  } catch {
    return { outcome: "no answer" };
  }
}
