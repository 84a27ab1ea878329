// Crash durability: a stream of writes over HTTP (new listings, chat messages, trade
// accepts, payment webhook deliveries, releases of held money, analytics batches) against `npm start`'s server (own port and
// state directory); halfway
// the server's process groups get SIGKILL, it is started again on the same state, and the stream
// goes on. Afterwards the local D1 (and the raw analytics objects in the local R2) are read and
// checked: every acknowledged write is there exactly once, and nothing is half-written (a listing
// without its search rows, a gap in a conversation's sequence, an accepted trade without its
// trade or reserved listings, a paid payment without its order, sold listing, sale message
// or seller mail, a raw analytics record stored twice).
//
// Chat messages are acknowledged from their ConversationRoom's own storage and mirrored to D1 by
// the room's alarm (docs/decisions/107-chat-acknowledged-by-its-room.md), so they are checked twice:
// in the room (its history over the API, before the server stops) and in D1 (after the mirror has
// caught up). Acknowledged messages D1 did not have yet at the kill are counted; they must reach D1
// after the restart, once.
//
//   npm run bench:durability   # BENCH_PORT (8864), BENCH_SANDBOX_PORT (8867, the payment sandbox),
//                              # BENCH_SECONDS (40: 20 s before the kill, 20 s from the kill on, 20 s
//                              # more), BENCH_OUT (results file)
//
// Chat messages carry their client id, so a send that got no answer (the kill) is sent again after
// the restart, as the web client does; they must all end up stored exactly once. Webhooks are
// delivered as the providers deliver them: every attempt signed anew (the payment sandbox's own
// signing code and keys), and any delivery not answered 2xx tried again after the restart; every
// acknowledged one is then delivered once more (providers deliver at least once). The events are the
// sandbox's own: before the stream, buyers start checkouts through the API and pay on the sandbox's
// pages (card and Vipps), and the sandbox, told to hold its webhooks (PAYMENT_SANDBOX_HOLD_WEBHOOKS),
// signs the checkout.session.completed and epayments.payment.authorized.v1 events without sending
// them. Releases (decision 105): more orders are paid and fulfilled before the stream; during it
// their buyers press "Jeg har fått varen" (the Transfer or the Vipps capture is made in the same
// request, so the kill lands in the middle of some); one that got no answer is pressed again after
// the restart, and every order is then opened once (which finishes money a crash left unmoved).
// Each released order must have exactly one Transfer (card) or capture (Vipps) at the sandbox,
// every other none. Listings, accepts and analytics batches are not retried: an unanswered one may or may not
// have been stored, but never twice and never in part.
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  AppServer,
  BenchDb,
  LoadSampler,
  ROOT,
  cores,
  d1File,
  ensureBuild,
  freshState,
  mintAccessTokens,
  simpleListing,
  sleep,
} from "./support";
import { jpegPhoto } from "../factories/images";
import { SYSTEM_USER_ID, type MessagePage } from "../../domain/chat";
import { SANDBOX_KEYS } from "../../scripts/payment-sandbox/dev-keys.mjs";
import { stripeSignatureHeader, vippsSignatureHeaders } from "../../scripts/payment-sandbox/webhooks";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 40);
const server = AppServer.forBench("durability", 8864, 8867);
const STATE = server.stateDir;
// The sandbox signs its webhooks and keeps them; this script delivers them (see above).
server.env.PAYMENT_SANDBOX_HOLD_WEBHOOKS = "1";

/** Writes per second of each kind. */
const RATES = { listing: 1, message: 6, accept: 1, webhook: 1, release: 1, analytics: 2 } as const;
const EVENTS_PER_BATCH = 10;
/** Listings paid for before the stream, one webhook delivery each during it (more than the stream sends). */
const SALES = Math.ceil(RATES.webhook * SECONDS * 1.6);
/** Orders paid and fulfilled before the stream, one "Jeg har fått varen" each during it. */
const RELEASES = Math.ceil(RATES.release * SECONDS * 1.6);
type Kind = keyof typeof RATES;

interface World {
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
}

/** A listing for sale, its buyer, and (once paid on the sandbox) the webhook the provider signed. */
interface Sale {
  listingId: string;
  title: string;
  sellerId: string;
  buyerId: string;
  method: "card" | "vipps";
  paymentId?: string;
  webhook?: { url: string; body: string };
  /** The order (releases only). */
  orderId?: string;
}

async function populate(): Promise<World> {
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
  const sellers = Array.from({ length: Math.ceil((SALES + RELEASES) / 8) }, () => db.user("bench-durable-shop").id);
  const sales = Array.from({ length: SALES + RELEASES }, (_, i): Sale => {
    const sellerId = sellers[i % sellers.length];
    const listing = simpleListing(sellerId, i < SALES ? `Salgsleke ${i}` : `Utbetalingsleke ${i - SALES}`, { price: 250 });
    db.listing(listing);
    return {
      listingId: listing.id,
      title: listing.title,
      sellerId,
      buyerId: db.user("bench-durable-buyer").id,
      method: i % 2 ? "vipps" : "card",
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
    releases: sales.slice(SALES),
  };
}

/** A hosted page's URL (the sandbox's public host is localhost) on the address the sandbox listens on. */
const sandboxUrl = (url: string) => {
  const u = new URL(url);
  return `${server.sandboxBase}${u.pathname}${u.search}`;
};

async function api(method: string, pathname: string, userId: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.base}${pathname}`, {
    method,
    headers: {
      Origin: server.origin,
      Cookie: `lb_access=${world!.tokens.get(userId)}`,
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
async function prepareSales(w: World): Promise<void> {
  for (const sellerId of w.sellers) {
    const { url } = (await api("POST", "/api/payments/stripe/account-link", sellerId)) as { url: string };
    await form(sandboxUrl(url), { first_name: "Siri", last_name: "Selger", account_number: "12345678903" });
    const status = (await api("GET", "/api/payments/stripe/account", sellerId)) as { charges_enabled: boolean };
    if (!status.charges_enabled) throw new Error("a bench seller's Stripe account cannot take charges");
  }
  for (const sale of [...w.sales, ...w.releases]) {
    const { payment_id, url } = (await api("POST", "/api/payments/checkout", sale.buyerId, {
      listing_id: sale.listingId,
      method: sale.method,
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
  for (const sale of [...w.sales, ...w.releases]) {
    sale.webhook = byPayment.get(sale.paymentId!);
    if (!sale.webhook) throw new Error(`the sandbox signed no webhook for payment ${sale.paymentId}`);
  }
  // The releases' orders are fulfilled now: their money is held when the stream starts.
  for (const sale of w.releases) {
    const delivered = await deliverWebhook(sale);
    if (delivered.outcome !== "acked") throw new Error(`the webhook of payment ${sale.paymentId} was not acknowledged`);
    const purchases = (await api("GET", "/api/payments/purchases", sale.buyerId)) as { order_id: string; listing: { id: string } }[];
    sale.orderId = purchases.find((p) => p.listing.id === sale.listingId)?.order_id;
    if (!sale.orderId) throw new Error(`no order for payment ${sale.paymentId}`);
  }
}

/** One delivery attempt, signed anew as the providers sign every attempt. */
async function deliverWebhook(sale: Sale): Promise<{ outcome: Outcome; status?: number; reason?: string; duplicate?: boolean }> {
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

// ---- the stream -----------------------------------------------------------------------------------

type Outcome = "acked" | "refused" | "no answer";

interface Write {
  kind: Kind;
  key: string; // listing title, message id, offer id, analytics batch label
  outcome: Outcome;
  status?: number;
  /** What a refusal said (the first 120 characters). */
  reason?: string;
  /** When the answer came, as performance.now(). */
  answeredAt?: number;
  retry?: () => Promise<Outcome>;
}

async function post(
  pathname: string,
  body: unknown,
  userId: string | null,
  expect: number,
  address = "198.18.0.1",
  cookie: string | null = null,
): Promise<{ outcome: Outcome; status?: number; reason?: string }> {
  try {
    const res = await fetch(`${server.base}${pathname}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: server.origin,
        "CF-Connecting-IP": address,
        ...(userId ? { Cookie: `lb_access=${world!.tokens.get(userId)}` } : cookie ? { Cookie: cookie } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    return res.status === expect
      ? { outcome: "acked", status: res.status }
      : { outcome: "refused", status: res.status, reason: text.slice(0, 120) };
  } catch {
    return { outcome: "no answer" };
  }
}

/** One analytics session per address, with the signed cookie /sessions sets (decision 038); retried after a failure. */
const analyticsSessions = new Map<string, Promise<{ id: string; cookie: string } | null>>();

function analyticsSession(address: string): Promise<{ id: string; cookie: string } | null> {
  if (!analyticsSessions.has(address)) {
    const id = randomUUID();
    const made = fetch(`${server.base}/api/analytics/sessions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.origin, "CF-Connecting-IP": address },
      body: JSON.stringify({
        sessionId: id,
        userAgent: "bench",
        referrer: null,
        entryPage: "/",
        deviceType: "desktop",
        browser: "Chrome",
        os: "Linux",
      }),
      signal: AbortSignal.timeout(60_000),
    })
      .then((res) => res.headers.getSetCookie().find((line) => line.startsWith("lb_analytics=")))
      .then((line) => (line ? { id, cookie: line.split(";")[0] } : null))
      .catch(() => null);
    analyticsSessions.set(address, made);
    void made.then((session) => {
      if (!session) analyticsSessions.delete(address);
    });
  }
  return analyticsSessions.get(address)!;
}

let world: World | null = null;
let killedAt: number | null = null;
/** Acknowledged messages that were in their room but not in D1 yet when the server was killed. */
const roomOnlyAtKill = new Set<string>();
/** Message ids per conversation as the rooms serve them (their history), read before the clean stop. */
let roomHistories: Map<string, string[]> | null = null;
/** Seconds the mirror needed after the stream to have every acknowledged message in D1. */
let mirrorCatchUpSeconds: number | null = null;
const writes: Write[] = [];
const counters: Record<Kind, number> = { listing: 0, message: 0, accept: 0, webhook: 0, release: 0, analytics: 0 };

function startWrite(kind: Kind): Promise<void> {
  const n = counters[kind]++;
  const w = world!;
  let request: () => Promise<{ outcome: Outcome; status?: number; reason?: string }>;
  let key: string;
  let retryable = false;
  switch (kind) {
    case "listing": {
      key = `Varig leke nr ${n}`;
      const body = {
        title: key,
        description: "Skrevet under krasjtesten.",
        category: "lego",
        age_range: "3-5 år",
        condition_rating: 4,
        price: 150,
        postal_code: "0150",
        images: [w.photos[n]],
      };
      request = () => post("/api/listings", body, w.creators[n % w.creators.length], 201);
      break;
    }
    case "message": {
      key = randomUUID();
      const c = w.conversations[n % w.conversations.length];
      const from = Math.floor(n / w.conversations.length) % 2 === 0 ? c.buyerId : c.sellerId;
      const body = { id: key, content: `Melding ${n}` };
      request = () => post(`/api/conversations/${c.id}/messages`, body, from, 201);
      retryable = true;
      break;
    }
    case "accept": {
      const offer = w.offers[n];
      if (!offer) return Promise.resolve();
      key = offer.id;
      request = () => post(`/api/trade-offers/${offer.id}/accept`, {}, offer.recipientId, 200);
      break;
    }
    case "webhook": {
      const sale = w.sales[n];
      if (!sale) return Promise.resolve();
      key = sale.paymentId!;
      request = () => deliverWebhook(sale);
      retryable = true;
      break;
    }
    case "release": {
      const sale = w.releases[n];
      if (!sale) return Promise.resolve();
      key = sale.orderId!;
      const path = `/api/payments/orders/${sale.orderId}/received`;
      request = async () => {
        const answer = await post(path, {}, sale.buyerId, 200);
        // Pressed again after a lost answer: the first press went through.
        if (answer.status === 409 && answer.reason?.includes("allerede utbetalt")) return { ...answer, outcome: "acked" };
        return answer;
      };
      retryable = true;
      break;
    }
    case "analytics": {
      key = `varig-${n}`;
      const label = key;
      const address = `198.18.1.${(n % 200) + 1}`;
      request = async () => {
        const session = await analyticsSession(address);
        if (!session) return { outcome: "no answer" };
        const events = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => ({
          eventType: "page_view",
          eventCategory: "navigation",
          eventAction: "view",
          eventLabel: `${label}-${i}`,
          eventValue: null,
          metadata: {
            sessionId: session.id,
            timestamp: new Date().toISOString(),
            page: "/",
            userAgent: "bench",
            referrer: null,
            pageUrl: `${server.origin}/`,
          },
        }));
        return post("/api/analytics/events", { sessionId: session.id, events }, null, 202, address, session.cookie);
      };
      break;
    }
  }
  const write: Write = { kind, key, outcome: "no answer" };
  writes.push(write);
  return request().then(({ outcome, status, reason }) => {
    write.outcome = outcome;
    write.status = status;
    write.reason = reason;
    write.answeredAt = performance.now();
    // A chat client sends again what got no answer; a provider delivers again what was not answered 2xx.
    if (retryable && (outcome === "no answer" || (kind === "webhook" && outcome === "refused")))
      write.retry = async () => (await request()).outcome;
  });
}

/** Each kind at its rate for `seconds` (open loop); resolves when every request has answered or failed. */
async function stream(seconds: number, during?: () => Promise<void>): Promise<void> {
  const started = performance.now();
  const pending: Promise<void>[] = [];
  const sent: Record<Kind, number> = { listing: 0, message: 0, accept: 0, webhook: 0, release: 0, analytics: 0 };
  let side: Promise<void> | null = null;
  for (;;) {
    const elapsed = (performance.now() - started) / 1000;
    if (elapsed >= seconds) break;
    for (const kind of Object.keys(RATES) as Kind[]) {
      while (sent[kind] < Math.floor(elapsed * RATES[kind]) + 1) {
        pending.push(startWrite(kind));
        sent[kind]++;
      }
    }
    if (during && !side) side = during();
    await sleep(10);
  }
  await Promise.all(pending);
  if (side) await side;
}

// ---- the checks -----------------------------------------------------------------------------------

interface Row {
  kind: string;
  sent: number;
  acked: number;
  noAnswer: number;
  refused: number;
  storedOfAcked: number;
  storedOfUnanswered: number;
  missing: number;
  doubled: number;
  halfWritten: number;
  notes: string[];
}

function rowFor(kind: Kind, label: string, count: (key: string) => number): Row {
  const of = writes.filter((w) => w.kind === kind);
  const row: Row = {
    kind: label,
    sent: of.length,
    acked: 0,
    noAnswer: 0,
    refused: 0,
    storedOfAcked: 0,
    storedOfUnanswered: 0,
    missing: 0,
    doubled: 0,
    halfWritten: 0,
    notes: [],
  };
  const refusedStatuses: Record<string, number> = {};
  for (const w of of) {
    const n = count(w.key);
    if (n > 1) row.doubled++;
    if (w.outcome === "acked") {
      row.acked++;
      if (n >= 1) row.storedOfAcked++;
      else row.missing++;
    } else if (w.outcome === "no answer") {
      row.noAnswer++;
      if (n >= 1) row.storedOfUnanswered++;
    } else {
      row.refused++;
      refusedStatuses[w.status ?? 0] = (refusedStatuses[w.status ?? 0] ?? 0) + 1;
    }
  }
  if (row.refused) {
    const first = of.find((w) => w.outcome === "refused");
    row.notes.push(
      `refused: ${Object.entries(refusedStatuses)
        .map(([s, k]) => `${k}× ${s}`)
        .join(", ")} (first: ${first?.reason})`,
    );
  }
  const lost = of.filter((w) => w.outcome === "acked" && count(w.key) === 0 && w.answeredAt !== undefined);
  if (lost.length && killedAt !== null) {
    const before = lost.filter((w) => w.answeredAt! < killedAt!);
    const ages = before.map((w) => (killedAt! - w.answeredAt!) / 1000);
    row.notes.push(
      `${before.length} of the ${lost.length} missing were acknowledged before the kill` +
        (ages.length ? `, ${Math.min(...ages).toFixed(1)}–${Math.max(...ages).toFixed(1)} s before it` : ""),
    );
  }
  return row;
}

/** Every file the local R2 keeps object bodies in (miniflare: `<state>/v3/r2/<bucket>/blobs/<id>`). */
function r2Blobs(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const full = path.join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (path.basename(d) === "blobs") out.push(full);
    }
  };
  walk(dir);
  return out;
}

function check(): Row[] {
  const db = new DatabaseSync(d1File(STATE), { readOnly: true });
  const all = <T>(sql: string, ...args: (string | number)[]) => db.prepare(sql).all(...args) as T[];
  const one = <T>(sql: string, ...args: (string | number)[]) => db.prepare(sql).get(...args) as T;

  // Listings: by their unique title; each with its search row and both full-text rows.
  const titles = new Map<string, number>();
  for (const r of all<{ title: string; n: number }>(
    "SELECT title, COUNT(*) AS n FROM listings WHERE title LIKE 'Varig leke nr %' GROUP BY title",
  ))
    titles.set(r.title, r.n);
  const listings = rowFor("listing", "new listing (POST /api/listings)", (k) => titles.get(k) ?? 0);
  listings.halfWritten = one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM listings l LEFT JOIN listing_search_map s ON s.listing_id = l.id
     WHERE l.title LIKE 'Varig leke nr %' AND (s.rid IS NULL OR NOT EXISTS (SELECT 1 FROM listings_fts f WHERE f.rowid = s.rid)
       OR NOT EXISTS (SELECT 1 FROM listings_fts_trigram t WHERE t.rowid = s.rid))`,
  ).n;

  // Messages: by client id; each conversation's sequence 1..last_seq without gaps or doubles.
  const messageIds = new Map<string, number>();
  for (const r of all<{ id: string }>("SELECT id FROM messages")) messageIds.set(r.id, (messageIds.get(r.id) ?? 0) + 1);
  const messages = rowFor("message", "chat message (POST …/messages, resent once back)", (k) => messageIds.get(k) ?? 0);
  messages.halfWritten = one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM conversations c
     WHERE c.last_seq <> (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id)
        OR c.last_seq <> COALESCE((SELECT MAX(seq) FROM messages m WHERE m.conversation_id = c.id), 0)`,
  ).n;
  const resent = writes.filter((w) => w.kind === "message" && w.retry).length;
  if (resent) messages.notes.push(`${resent} resent after the restart`);
  const ackedMessages = writes.filter((w) => w.kind === "message" && w.outcome === "acked");
  const lateOnes = ackedMessages.filter((w) => roomOnlyAtKill.has(w.key));
  messages.notes.push(
    `${roomOnlyAtKill.size} acknowledged messages were in their room but not yet in D1 at the kill; ` +
      `${lateOnes.filter((w) => messageIds.get(w.key) === 1).length} of them reached D1 after the restart, once` +
      (mirrorCatchUpSeconds === null
        ? "; the mirror had not caught up when the wait ended"
        : `; D1 had every acknowledged message ${mirrorCatchUpSeconds.toFixed(1)} s after the stream`),
  );

  // The same messages in their rooms (the source the chat reads), and each room's history equal to D1's.
  const inRooms = new Map<string, number>();
  for (const ids of roomHistories?.values() ?? []) for (const id of ids) inRooms.set(id, (inRooms.get(id) ?? 0) + 1);
  const rooms = rowFor("message", "chat message in its room (history from the ConversationRoom)", (k) => inRooms.get(k) ?? 0);
  rooms.halfWritten = [...(roomHistories ?? new Map<string, string[]>())].filter(([conversationId, ids]) => {
    const inD1 = all<{ id: string }>("SELECT id FROM messages WHERE conversation_id = ?1 ORDER BY seq", conversationId).map((r) => r.id);
    return inD1.join() !== ids.join();
  }).length;
  if (rooms.halfWritten)
    rooms.notes.push(`${rooms.halfWritten} conversations whose room history differs from D1's (half-written: the mirror)`);

  // Trade accepts: accepted ⇔ one pending trade and both listings reserved; else no trade, both active.
  const accepted = new Map<string, number>();
  for (const r of all<{ id: string }>("SELECT id FROM trade_offers WHERE status = 'accepted'")) accepted.set(r.id, 1);
  const accepts = rowFor("accept", "trade accept (POST /api/trade-offers/:id/accept)", (k) => accepted.get(k) ?? 0);
  accepts.halfWritten = one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM trade_offers o
     WHERE (o.status = 'accepted' AND (
              (SELECT COUNT(*) FROM trades t WHERE t.trade_offer_id = o.id) <> 1
           OR (SELECT COUNT(*) FROM listings l WHERE l.id IN (o.offered_listing_id, o.requested_listing_id) AND l.status = 'reserved') <> 2))
        OR (o.status = 'pending' AND (
              EXISTS (SELECT 1 FROM trades t WHERE t.trade_offer_id = o.id)
           OR (SELECT COUNT(*) FROM listings l WHERE l.id IN (o.offered_listing_id, o.requested_listing_id) AND l.status = 'active') <> 2))`,
  ).n;
  const withoutNotice = one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM trade_offers o WHERE o.status = 'accepted'
       AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = o.conversation_id AND m.sender_id <> o.from_user_id AND m.sender_id <> o.to_user_id AND m.created_at >= o.updated_at)`,
  ).n;
  if (withoutNotice) accepts.notes.push(`${withoutNotice} accepted without the chat's system message (posted after the batch)`);

  // Webhooks: by payment. Its effect: the payment completed, one order, the listing sold, one
  // sale message from the system in the buyer–seller conversation, one sale mail to the seller, the
  // money held (decision 105: nothing moved before release), the event recorded; a listing never paid twice.
  const sales = new Map(world!.sales.map((s) => [s.paymentId!, s]));
  const effects = new Map<
    string,
    {
      completed: number;
      orders: number;
      sold: number;
      messages: number;
      mails: number;
      held: number;
      events: number;
      paidForListing: number;
    }
  >();
  for (const [paymentId, sale] of sales) {
    effects.set(
      paymentId,
      one(
        `SELECT (SELECT COUNT(*) FROM payments WHERE id = ?1 AND status = 'completed') AS completed,
                (SELECT COUNT(*) FROM orders WHERE payment_id = ?1) AS orders,
                (SELECT COUNT(*) FROM listings WHERE id = ?2 AND status = 'sold') AS sold,
                (SELECT COUNT(*) FROM messages m JOIN orders t ON t.conversation_id = m.conversation_id
                  WHERE t.payment_id = ?1 AND m.sender_id = ?3) AS messages,
                (SELECT COUNT(*) FROM dev_outbox o JOIN users u ON u.email = o.to_address WHERE u.id = ?4 AND o.subject = ?5) AS mails,
                (SELECT COUNT(*) FROM orders WHERE payment_id = ?1 AND state = 'held' AND money_moved_at IS NULL) AS held,
                (SELECT COUNT(*) FROM webhook_events WHERE type IN ('checkout.session.completed', 'epayments.payment.authorized.v1')
                  AND id IN ('stripe:' || ?6, 'vipps:lb-' || ?1 || ':AUTHORIZED:' || ?7)) AS events,
                (SELECT COUNT(*) FROM payments WHERE listing_id = ?2 AND status = 'completed') AS paidForListing`,
        paymentId,
        sale.listingId,
        SYSTEM_USER_ID,
        sale.sellerId,
        `Du har solgt «${sale.title}»`,
        sale.method === "card" ? (JSON.parse(sale.webhook!.body) as { id: string }).id : "",
        sale.method === "vipps" ? (JSON.parse(sale.webhook!.body) as { pspReference: string }).pspReference : "",
      ),
    );
  }
  const webhooks = rowFor("webhook", "payment webhook (Stripe and Vipps, signed; not 2xx: delivered again once back)", (k) => {
    const e = effects.get(k)!;
    return Math.max(e.orders, e.messages, e.mails, e.paidForListing);
  });
  const partial = [...effects.values()].filter((e) => {
    const parts = [e.completed, e.orders, e.sold, e.messages, e.mails, e.held, e.events];
    return parts.some((n) => n > 0) && parts.some((n) => n !== 1);
  });
  webhooks.halfWritten = partial.length;
  if (partial.length) webhooks.notes.push(`half-written: ${JSON.stringify(partial.slice(0, 3))}`);
  const resentHooks = writes.filter((w) => w.kind === "webhook" && w.retry).length;
  if (resentHooks) webhooks.notes.push(`${resentHooks} delivered again after the restart`);
  if (duplicates.sent) {
    webhooks.notes.push(
      `every acknowledged webhook delivered once more afterwards: ${duplicates.sent} deliveries, ${duplicates.acked} answered 2xx, ${duplicates.flagged} of them as a duplicate`,
    );
  }
  // Releases: released once, and then exactly one Transfer or capture at the sandbox; an order
  // still held has none; a released order's money acknowledged (money_moved_at).
  const releaseState = new Map<string, { released: number; moved: number }>();
  for (const sale of world!.releases) {
    releaseState.set(
      sale.orderId!,
      one<{ released: number; moved: number }>(
        "SELECT (state = 'released') AS released, (money_moved_at IS NOT NULL) AS moved FROM orders WHERE id = ?1",
        sale.orderId!,
      ),
    );
  }
  const releases = rowFor("release", "release of held money (POST /api/payments/orders/:id/received: Transfer or capture)", (k) =>
    Math.max(releaseState.get(k)?.released ?? 0, moneyMoves.get(k) ?? 0),
  );
  const unevenReleases = [...releaseState].filter(([k, r]) =>
    r.released ? (moneyMoves.get(k) ?? 0) !== 1 || !r.moved : (moneyMoves.get(k) ?? 0) !== 0,
  );
  releases.halfWritten = unevenReleases.length;
  if (unevenReleases.length)
    releases.notes.push(
      `money not moved exactly once: ${JSON.stringify(unevenReleases.slice(0, 3).map(([k, r]) => ({ k, ...r, moves: moneyMoves.get(k) ?? 0 })))}`,
    );
  const resentReleases = writes.filter((w) => w.kind === "release" && w.retry).length;
  if (resentReleases) releases.notes.push(`${resentReleases} pressed again after the restart`);
  db.close();

  // Analytics: every event of a batch by its label, in the raw NDJSON objects of the local R2.
  const labels = analyticsLabels();
  const analyticsCount = (k: string) => Math.max(...Array.from({ length: EVENTS_PER_BATCH }, (_, i) => labels.get(`${k}-${i}`) ?? 0));
  for (const w of writes) if (w.kind === "analytics" && analyticsCount(w.key) === 0) lostAnalytics.add(w.key);
  const analytics = rowFor("analytics", `analytics batch of ${EVENTS_PER_BATCH} events (POST /api/analytics/events)`, (k) => {
    const counts = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => labels.get(`${k}-${i}`) ?? 0);
    const present = counts.filter((n) => n > 0).length;
    if (present > 0 && present < EVENTS_PER_BATCH) partialBatches++;
    return present === 0 ? 0 : Math.max(...counts);
  });
  analytics.halfWritten = partialBatches;
  return [listings, messages, rooms, accepts, webhooks, releases, analytics];
}
/** Transfers (card) and captures (Vipps) the sandbox made for each release's order, by order id. */
const moneyMoves = new Map<string, number>();
let partialBatches = 0;
const duplicates = { sent: 0, acked: 0, flagged: 0 };
const lostAnalytics = new Set<string>();
/** Analytics batches acknowledged before the kill whose events were not in the local R2 yet when it came. */
const notInR2AtKill = new Set<string>();

/** Count of each bench event label in the raw analytics objects of the local R2 (read from its files). */
function analyticsLabels(): Map<string, number> {
  const labels = new Map<string, number>();
  for (const file of r2Blobs(path.join(STATE, "v3/r2"))) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        const record = JSON.parse(line) as { kind?: string; eventLabel?: string };
        if (record.kind === "event" && record.eventLabel?.startsWith("varig-"))
          labels.set(record.eventLabel, (labels.get(record.eventLabel) ?? 0) + 1);
      } catch {
        // not an analytics object, or one being written
      }
    }
  }
  return labels;
}

// ---- the rooms and their D1 mirror ------------------------------------------------------------------

/** Acknowledged message ids the D1 file does not have (read while the server runs or is down). */
function ackedNotInD1(): string[] {
  const db = new DatabaseSync(d1File(STATE), { readOnly: true });
  try {
    const inD1 = new Set((db.prepare("SELECT id FROM messages").all() as { id: string }[]).map((r) => r.id));
    return writes.filter((w) => w.kind === "message" && w.outcome === "acked" && !inD1.has(w.key)).map((w) => w.key);
  } finally {
    db.close();
  }
}

/** Seconds until D1 has every acknowledged message (the rooms' alarms mirror them), or null after `limit` s. */
async function mirrorCaughtUp(limit: number): Promise<number | null> {
  const started = performance.now();
  while ((performance.now() - started) / 1000 < limit) {
    if (ackedNotInD1().length === 0) return (performance.now() - started) / 1000;
    await sleep(500);
  }
  return null;
}

/** Every bench conversation's history as its room serves it (GET …/messages, page by page), as the buyer. */
async function readRoomHistories(): Promise<Map<string, string[]>> {
  const histories = new Map<string, string[]>();
  for (const c of world!.conversations) {
    const ids: string[] = [];
    let before: number | undefined;
    for (;;) {
      const query = before === undefined ? "" : `?before=${before}`;
      const res = await fetch(`${server.base}/api/conversations/${c.id}/messages${query}`, {
        headers: { Origin: server.origin, Cookie: `lb_access=${world!.tokens.get(c.buyerId)}` },
        signal: AbortSignal.timeout(60_000),
      });
      if (res.status !== 200) throw new Error(`history of ${c.id}: ${res.status} ${await res.text()}`);
      const page = (await res.json()) as MessagePage;
      ids.unshift(...page.messages.map((m) => m.id));
      if (!page.has_more || page.messages.length === 0) break;
      before = page.messages[0].seq;
    }
    histories.set(c.id, ids);
  }
  return histories;
}

// ---- run ------------------------------------------------------------------------------------------

async function main() {
  ensureBuild();
  console.log(
    `Writing the bench users, conversations and ${Math.ceil(RATES.accept * SECONDS * 1.6)} pending trade offers into ${path.relative(ROOT, STATE)} …`,
  );
  world = await populate();
  process.on("SIGINT", () => process.exit(130));
  server.start();
  await server.waitUntilReady();
  // The photos the new listings will carry (a listing needs one), uploaded by their sellers first.
  const photo = jpegPhoto(320, 240);
  for (let n = 0; n < RATES.listing * SECONDS * 1.6; n++) {
    const res = await fetch(`${server.base}/api/images`, {
      method: "POST",
      headers: {
        "Content-Type": "image/jpeg",
        Origin: server.origin,
        Cookie: `lb_access=${world.tokens.get(world.creators[n % world.creators.length])}`,
      },
      body: photo,
    });
    if (res.status !== 201) throw new Error(`photo upload: ${res.status} ${await res.text()}`);
    world.photos.push(((await res.json()) as { key: string }).key);
  }
  console.log(
    `Connecting ${world.sellers.length} sellers to Stripe and paying for ${world.sales.length + world.releases.length} listings on the sandbox (card and Vipps; ${world.releases.length} of them fulfilled now, to be released) …`,
  );
  await prepareSales(world);
  const load = new LoadSampler();
  load.start();
  const rates = (Object.entries(RATES) as [Kind, number][]).map(([k, r]) => `${k} ${r}/s`).join(", ");
  console.log(`Writing for ${SECONDS / 2} s (${rates}), then SIGKILL …`);
  await stream(SECONDS / 2);

  let downSeconds = 0;
  const killedWrites = writes.length;
  // The stream goes on while the server is down and coming back (those writes get no answer).
  await stream(SECONDS / 2, async () => {
    // What the analytics consumer has stored at this moment: an acknowledged batch not in R2 yet is
    // still in the local Queue (or in the consumer's hands).
    const stored = analyticsLabels();
    killedAt = performance.now();
    await server.kill();
    for (const id of ackedNotInD1()) roomOnlyAtKill.add(id);
    for (const w of writes) if (w.kind === "analytics" && w.outcome === "acked" && !stored.has(`${w.key}-0`)) notInR2AtKill.add(w.key);
    console.log("SIGKILL sent to the server's process groups; starting it again on the same state …");
    server.start();
    await server.waitUntilReady();
    downSeconds = (performance.now() - killedAt!) / 1000;
    console.log(`Back after ${downSeconds.toFixed(1)} s; writing for another ${SECONDS / 2} s`);
  });
  await stream(SECONDS / 2);

  // Messages that got no answer are sent again with the same id, as the chat client does; webhooks
  // not answered 2xx are delivered again, as the providers do.
  for (const w of writes.filter((x) => x.retry)) {
    for (let attempt = 0; attempt < 5 && w.outcome !== "acked"; attempt++) w.outcome = await w.retry!();
  }
  // Providers deliver at least once: every acknowledged webhook once more must change nothing.
  for (const w of writes.filter((x) => x.kind === "webhook" && x.outcome === "acked")) {
    const again = await deliverWebhook(world.sales.find((s) => s.paymentId === w.key)!);
    duplicates.sent++;
    if (again.outcome === "acked") duplicates.acked++;
    if (again.duplicate) duplicates.flagged++;
  }
  // Every release's order opened once by its buyer (which finishes money a crash left unmoved, as
  // the cron would), then what the sandbox moved for each.
  for (const sale of world.releases) {
    await api("GET", `/api/payments/orders/${sale.orderId}`, sale.buyerId).catch((error: unknown) => console.warn(String(error)));
  }
  const moved = (await (await fetch(`${server.sandboxBase}/__sandbox/money`)).json()) as {
    transfers: { transfer_group: string | null }[];
    vipps: { reference: string; name: string }[];
  };
  for (const sale of world.releases) {
    moneyMoves.set(
      sale.orderId!,
      moved.transfers.filter((t) => t.transfer_group === `order-${sale.paymentId}`).length +
        moved.vipps.filter((v) => v.reference === `lb-${sale.paymentId}` && v.name === "CAPTURED").length,
    );
  }
  // Let the analytics queue hand its last batches to the consumer (up to 5 s per batch locally).
  let last = -1;
  let stable = 0;
  for (let i = 0; i < 40 && stable < 2; i++) {
    const res = await fetch(`${server.base}/api/dev/analytics/summary`).then((r) => r.json() as Promise<{ records: number }>);
    stable = res.records === last ? stable + 1 : 0;
    last = res.records;
    await sleep(6_000);
  }
  mirrorCatchUpSeconds = await mirrorCaughtUp(60);
  roomHistories = await readRoomHistories();
  await server.stop();
  const loadAvg = load.stop();

  const rows = check();
  const table = [
    "| write | sent | acknowledged | no answer (kill) | refused | acknowledged and stored | acknowledged, missing | unanswered but stored | stored twice | half-written |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.kind} | ${r.sent} | ${r.acked} | ${r.noAnswer} | ${r.refused} | ${r.storedOfAcked} | ${r.missing} | ${r.storedOfUnanswered} | ${r.doubled} | ${r.halfWritten} |`,
    ),
  ].join("\n");
  const notes = rows.flatMap((r) => r.notes.map((n) => `- ${r.kind}: ${n}`)).join("\n");
  // The local Queue (miniflare's queue broker) keeps messages in memory (not in its storage) until
  // its consumer has taken and finished a batch, so a SIGKILL of the local server drops what it
  // held; Cloudflare Queues keep a message once send() has resolved. Such losses are told apart,
  // not hidden: a lost batch that was already in R2 at the kill, or acknowledged after the restart,
  // fails the run.
  const lostInQueue = writes.filter(
    (w) => w.kind === "analytics" && w.outcome === "acked" && lostAnalytics.has(w.key) && notInR2AtKill.has(w.key),
  );
  const behind = writes.filter((w) => notInR2AtKill.has(w.key)).map((w) => (killedAt! - w.answeredAt!) / 1000);
  const failed = rows.some(
    (r) => (r.kind.startsWith("analytics") ? r.missing - lostInQueue.length : r.missing) > 0 || r.doubled > 0 || r.halfWritten > 0,
  );
  const when = `${new Date().toISOString().slice(0, 16)}Z`;
  const header =
    `Writes (${rates}) for ${SECONDS / 2} s, SIGKILL, ${SECONDS / 2} s while it restarts (back after ${downSeconds.toFixed(1)} s), ${SECONDS / 2} s more; ` +
    `${writes.length - killedWrites} writes sent from the kill on; ${when}, ` +
    `command: \`npm run bench:durability\`. Machine: ${cores()} cores, 1-minute load average ${loadAvg.min.toFixed(1)}–${loadAvg.max.toFixed(1)}.`;
  const verdict = [
    failed
      ? "NOT durable: see the rows with missing, doubled or half-written writes."
      : "Every acknowledged write in D1 is stored exactly once; nothing is half-written.",
    notInR2AtKill.size
      ? `Analytics: at the kill, ${notInR2AtKill.size} acknowledged batches were not in R2 yet (acknowledged ${Math.min(...behind).toFixed(1)}–${Math.max(...behind).toFixed(1)} s before it: ` +
        `the queue's 5 s batch window plus the consumer's backlog on this machine); ${lostInQueue.length} of them are lost, ` +
        "because miniflare's queue broker keeps messages in memory, not in storage; every batch already in R2 and every batch acknowledged after the restart is stored. " +
        "Cloudflare Queues keep a message once send() has resolved."
      : "",
  ]
    .filter(Boolean)
    .join(" ");
  console.log(`\n${header}\n\n${table}\n\n${notes}\n\n${verdict}`);
  const out = process.env.BENCH_OUT ?? path.join(ROOT, "tests/bench/results/durability.md");
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `# Crash durability\n\n${header}\n\n${table}\n\n${notes}\n\n${verdict}\n`);
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  server.signal("SIGTERM");
  process.exit(1);
});
