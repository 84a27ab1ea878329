// Webhooks as the providers send them: signed exactly as each provider signs, delivered one at a
// time per endpoint, and retried with exponential backoff until the receiver answers 2xx.
//
// Stripe (Stripe-Signature): `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`,
// signed anew for every attempt.
// Vipps MobilePay (Webhooks API "Request authentication"): x-ms-date (RFC 1123), x-ms-content-sha256
// (base64 SHA-256 of the body) and
//   Authorization: HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=<base64 HMAC>
// over "POST\n<path and query>\n<x-ms-date>;<host>;<content hash>" with the hook's secret.
// The carriers (Bring's Event Cast, decision 147; Helthjem's tracking, decision 154): X-Lekebytte-Signature
// `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, each with its own secret, signed
// anew for every attempt like Stripe's.
import { createHash, createHmac, randomUUID } from "node:crypto";

export function stripeSignatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/** The header the carrier's webhooks carry (worker/features/carriers/carrier-signature.ts verifies it). */
export const CARRIER_SIGNATURE_HEADER = "X-Lekebytte-Signature";

export function carrierSignatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

export interface VippsSignedHeaders {
  "x-ms-date": string;
  "x-ms-content-sha256": string;
  authorization: string;
}

export function vippsSignatureHeaders(url: string, body: string, secret: string, date: Date = new Date()): VippsSignedHeaders {
  const target = new URL(url);
  const contentHash = createHash("sha256").update(body, "utf8").digest("base64");
  const msDate = date.toUTCString();
  const signed = `POST\n${target.pathname}${target.search}\n${msDate};${target.host};${contentHash}`;
  const signature = createHmac("sha256", secret).update(signed, "utf8").digest("base64");
  return {
    "x-ms-date": msDate,
    "x-ms-content-sha256": contentHash,
    authorization: `HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=${signature}`,
  };
}

export type WebhookProvider = "stripe" | "vipps" | "bring" | "helthjem";

export interface WebhookEndpoint {
  id: string;
  provider: WebhookProvider;
  /** Where to POST. Without a url, or with deliver false, deliveries are signed and kept (for tests). */
  url: string;
  secret: string;
  /** Event types to send; "*" for all. */
  events: string[];
  deliver: boolean;
}

export interface DeliveryAttempt {
  at: string;
  status?: number;
  error?: string;
}

export interface Delivery {
  id: string;
  provider: WebhookProvider;
  endpointId: string;
  eventType: string;
  /** The object the event is about (Checkout Session id, account id, Vipps reference, consignment number). */
  objectId: string;
  createdAt: string;
  state: "queued" | "delivered" | "failed" | "held";
  attempts: DeliveryAttempt[];
  /** The request as last signed (for held deliveries: the one a test may send itself). */
  request: { method: "POST"; url: string; headers: Record<string, string>; body: string };
}

export interface RetryPolicy {
  /** Delay before the second attempt; doubles for every further attempt. */
  baseMs: number;
  maxAttempts: number;
  /** Per-attempt timeout. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 1000, maxAttempts: 8, timeoutMs: 10_000 };

/** Delivers each endpoint's events in order, one at a time, retrying the head until it succeeds or gives up. */
export class WebhookDispatcher {
  readonly deliveries: Delivery[] = [];
  private readonly queues = new Map<string, Delivery[]>();
  private readonly running = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly retry: RetryPolicy,
    private readonly log: (line: string) => void,
  ) {}

  send(endpoint: WebhookEndpoint, eventType: string, objectId: string, body: string): Delivery {
    const delivery: Delivery = {
      id: randomUUID(),
      provider: endpoint.provider,
      endpointId: endpoint.id,
      eventType,
      objectId,
      createdAt: new Date().toISOString(),
      state: endpoint.deliver && endpoint.url ? "queued" : "held",
      attempts: [],
      request: { method: "POST", url: endpoint.url, headers: sign(endpoint, body), body },
    };
    this.deliveries.push(delivery);
    if (delivery.state === "queued") {
      const queue = this.queues.get(endpoint.id) ?? [];
      queue.push(delivery);
      this.queues.set(endpoint.id, queue);
      void this.pump(endpoint);
    }
    return delivery;
  }

  /** Resolves when no delivery is queued any more (tests). */
  async idle(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.deliveries.some((d) => d.state === "queued")) {
      if (Date.now() > deadline) throw new Error("webhook deliveries still queued");
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private async pump(endpoint: WebhookEndpoint): Promise<void> {
    if (this.running.has(endpoint.id)) return;
    this.running.add(endpoint.id);
    try {
      const queue = this.queues.get(endpoint.id) ?? [];
      while (queue.length > 0 && !this.closed) {
        const head = queue[0];
        const ok = await this.attempt(endpoint, head);
        if (ok || head.attempts.length >= this.retry.maxAttempts) {
          head.state = ok ? "delivered" : "failed";
          if (!ok) this.log(`webhook ${head.eventType} → ${endpoint.url}: gave up after ${head.attempts.length} attempts`);
          queue.shift();
          continue;
        }
        const delay = this.retry.baseMs * 2 ** (head.attempts.length - 1);
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            this.timers.delete(t);
            resolve();
          }, delay);
          t.unref();
          this.timers.add(t);
        });
      }
    } finally {
      this.running.delete(endpoint.id);
    }
  }

  private async attempt(endpoint: WebhookEndpoint, delivery: Delivery): Promise<boolean> {
    // Every provider signs every attempt anew (a fresh timestamp / date).
    delivery.request.headers = sign(endpoint, delivery.request.body);
    const attempt: DeliveryAttempt = { at: new Date().toISOString() };
    delivery.attempts.push(attempt);
    try {
      const res = await fetch(endpoint.url, {
        method: "POST",
        headers: delivery.request.headers,
        body: delivery.request.body,
        signal: AbortSignal.timeout(this.retry.timeoutMs),
        redirect: "manual",
      });
      await res.arrayBuffer().catch(() => undefined);
      attempt.status = res.status;
      if (res.status >= 200 && res.status < 300) return true;
      this.log(`webhook ${delivery.eventType} → ${endpoint.url}: HTTP ${res.status} (attempt ${delivery.attempts.length})`);
      return false;
    } catch (error) {
      attempt.error = error instanceof Error ? error.message : String(error);
      this.log(`webhook ${delivery.eventType} → ${endpoint.url}: ${attempt.error} (attempt ${delivery.attempts.length})`);
      return false;
    }
  }
}

function sign(endpoint: WebhookEndpoint, body: string): Record<string, string> {
  const base = { "Content-Type": "application/json; charset=utf-8", "User-Agent": userAgent(endpoint.provider) };
  if (endpoint.provider === "stripe") return { ...base, "Stripe-Signature": stripeSignatureHeader(body, endpoint.secret) };
  if (endpoint.provider === "bring" || endpoint.provider === "helthjem")
    return { ...base, [CARRIER_SIGNATURE_HEADER]: carrierSignatureHeader(body, endpoint.secret) };
  return { ...base, ...vippsSignatureHeaders(endpoint.url || "http://held.invalid/", body, endpoint.secret) };
}

function userAgent(provider: WebhookProvider): string {
  if (provider === "bring") return "Bring Event Cast sandbox";
  if (provider === "helthjem") return "Helthjem tracking sandbox";
  return provider === "stripe" ? "Stripe/1.0 (+https://stripe.com/docs/webhooks) sandbox" : "Vipps MobilePay webhooks sandbox";
}
