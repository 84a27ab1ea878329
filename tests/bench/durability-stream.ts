// The durability bench's stream of writes: each kind at its rate (open loop), every write recorded
// with its outcome (acknowledged, refused, no answer), and a chat message or a webhook that got no
// answer kept to be sent again after the restart.
import { randomUUID } from "node:crypto";
import {
  type Answer,
  type Kind,
  type Outcome,
  EVENTS_PER_BATCH,
  RATES,
  type World,
  deliverWebhook,
  send,
  server,
} from "./durability-world";
import { shippedRequest } from "./durability-shipped";
import { sleep } from "./support";

export interface Write {
  kind: Kind;
  key: string; // listing title, message id, offer id, payment id, order id, analytics batch label
  outcome: Outcome;
  status?: number;
  /** What a refusal said (the first 120 characters). */
  reason?: string;
  /** When the answer came, as performance.now(). */
  answeredAt?: number;
  retry?: () => Promise<Outcome>;
}

async function post(
  w: World,
  pathname: string,
  body: unknown,
  userId: string | null,
  expect: number,
  address = "198.18.0.1",
  cookie: string | null = null,
): Promise<Answer> {
  return send(
    `${server.base}${pathname}`,
    {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: server.origin,
        "CF-Connecting-IP": address,
        ...(userId ? { Cookie: `lb_access=${w.tokens.get(userId)}` } : cookie ? { Cookie: cookie } : {}),
      },
      body: JSON.stringify(body),
    },
    expect,
  );
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

/** Every write sent, in order, with what became of it. */
export const writes: Write[] = [];
const counters: Record<Kind, number> = { listing: 0, message: 0, accept: 0, webhook: 0, release: 0, shipped: 0, analytics: 0 };

function startWrite(w: World, kind: Kind): Promise<void> {
  const n = counters[kind]++;
  let request: () => Promise<Answer>;
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
      request = () => post(w, "/api/listings", body, w.creators[n % w.creators.length], 201);
      break;
    }
    case "message": {
      key = randomUUID();
      const c = w.conversations[n % w.conversations.length];
      const from = Math.floor(n / w.conversations.length) % 2 === 0 ? c.buyerId : c.sellerId;
      const body = { id: key, content: `Melding ${n}` };
      request = () => post(w, `/api/conversations/${c.id}/messages`, body, from, 201);
      retryable = true;
      break;
    }
    case "accept": {
      const offer = w.offers[n];
      if (!offer) return Promise.resolve();
      key = offer.id;
      request = () => post(w, `/api/trade-offers/${offer.id}/accept`, {}, offer.recipientId, 200);
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
        const answer = await post(w, path, {}, sale.buyerId, 200);
        // Pressed again after a lost answer: the first press went through.
        if (answer.status === 409 && answer.reason?.includes("allerede utbetalt")) return { ...answer, outcome: "acked" };
        return answer;
      };
      retryable = true;
      break;
    }
    case "shipped": {
      const write = shippedRequest(w, n);
      if (!write) return Promise.resolve();
      key = write.key;
      request = write.request;
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
        return post(w, "/api/analytics/events", { sessionId: session.id, events }, null, 202, address, session.cookie);
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
export async function stream(w: World, seconds: number, during?: () => Promise<void>): Promise<void> {
  const started = performance.now();
  const pending: Promise<void>[] = [];
  const sent: Record<Kind, number> = { listing: 0, message: 0, accept: 0, webhook: 0, release: 0, shipped: 0, analytics: 0 };
  let side: Promise<void> | null = null;
  for (;;) {
    const elapsed = (performance.now() - started) / 1000;
    if (elapsed >= seconds) break;
    for (const kind of Object.keys(RATES) as Kind[]) {
      while (sent[kind] < Math.floor(elapsed * RATES[kind]) + 1) {
        pending.push(startWrite(w, kind));
        sent[kind]++;
      }
    }
    if (during && !side) side = during();
    await sleep(10);
  }
  await Promise.all(pending);
  if (side) await side;
}
