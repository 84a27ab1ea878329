// The offline payment sandbox: one small HTTP server that speaks the parts of Stripe's and Vipps
// MobilePay's APIs Lekebytte uses, serves their hosted pages, and sends signed webhooks with retries.
// It runs as its own process (scripts/payment-sandbox/main.ts) and is never part of the Worker.
//
// Besides the provider APIs it answers a few sandbox-only paths under /__sandbox/ for tests and
// debugging: the webhook deliveries (with the signed requests), the API calls it received, the money
// it moved (transfers, refunds, Vipps captures, cancellations and refunds), and a switch that makes
// a connected account unable to receive transfers (as when Stripe needs more from the seller).
//
// The carriers (Bring's C2C parcels, bring-api.ts; Helthjem's, helthjem-api.ts) live here too: one
// process for every provider the Worker talks to. Their tester page is /frakt/tester (/bring/tester
// leads there); each carrier's sandbox-only paths, with {carrier} bring or helthjem, are
// /__sandbox/{carrier}/parcels (GET), /__sandbox/{carrier}/parcels/{number}/advance (POST {"step"})
// and /__sandbox/{carrier}/fail (POST {"times","status","key"?,"path"?}: the next API calls (with
// that Idempotency-Key, under that path) fail, for retry tests; DELETE [?key=|?path=] forgets the
// failures not yet taken).
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { BringSandbox } from "./bring-api";
import { testerPage } from "./carrier-pages";
import { carrierRoutes, type SandboxCarrier } from "./carrier-sandbox";
import { HelthjemSandbox } from "./helthjem-api";
import { html, json, readBody, type Reply, type SandboxRequest } from "./http";
import { messagePage, moneyPage } from "./pages";
import { money, StripeSandbox, type StripeState } from "./stripe-api";
import { VippsSandbox, type VippsState } from "./vipps-api";
import { VippsLoginSandbox } from "./vipps-login-api";
import { DEFAULT_RETRY, WebhookDispatcher, type RetryPolicy, type WebhookEndpoint } from "./webhooks";

export interface WebhookTarget {
  /** Receiver URL. Leave empty to keep deliveries signed but unsent (see /__sandbox/deliveries). */
  url: string;
  secret: string;
  /** Default true. */
  deliver?: boolean;
}

export interface SandboxConfig {
  port: number;
  host?: string;
  /** Base URL for links the browser follows (hosted pages); default http://localhost:<port>. */
  publicUrl?: string;
  stripe: { secretKey: string; webhook?: WebhookTarget };
  vipps: {
    clientId: string;
    clientSecret: string;
    subscriptionKey: string;
    msn: string;
    webhook?: WebhookTarget;
    /** Vipps Login's registered redirect URIs; without them any absolute http(s) URI is accepted. */
    loginRedirectUris?: string[];
  };
  /** The carrier (Bring's Booking, Pickup Point and Event Cast APIs); without it, no carrier. */
  bring?: { apiUid: string; apiKey: string; customerNumber: string; webhook?: WebhookTarget };
  /** The second carrier (Helthjem's token, service point and booking APIs); without it, no Helthjem. */
  helthjem?: { clientId: string; clientSecret: string; shopId: number; webhook?: WebhookTarget };
  retry?: Partial<RetryPolicy>;
  /** How long a Vipps payment waits for approval before it expires; default 10 minutes. */
  vippsPaymentLifetimeMs?: number;
  /** JSON file that keeps accounts and payments across restarts (npm start keeps it in its state dir). */
  stateFile?: string;
  log?: (line: string) => void;
}

export interface PaymentSandbox {
  url: string;
  port: number;
  stripe: StripeSandbox;
  vipps: VippsSandbox;
  /** The Vipps Login issuer (OpenID Connect) on the same port. */
  vippsLogin: VippsLoginSandbox;
  bring: BringSandbox | null;
  helthjem: HelthjemSandbox | null;
  dispatcher: WebhookDispatcher;
  close(): Promise<void>;
}

const VIPPS_EVENTS = ["created", "aborted", "expired", "cancelled", "captured", "refunded", "authorized", "terminated"].map(
  (e) => `epayments.payment.${e}.v1`,
);

export async function startPaymentSandbox(config: SandboxConfig): Promise<PaymentSandbox> {
  const log = config.log ?? ((line: string) => console.log(`[payment-sandbox] ${line}`));
  const host = config.host ?? "127.0.0.1";
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const publicUrl = (config.publicUrl ?? `http://localhost:${port}`).replace(/\/$/, "");
  const dispatcher = new WebhookDispatcher({ ...DEFAULT_RETRY, ...config.retry }, log);

  const endpoint = (provider: WebhookEndpoint["provider"], target: WebhookTarget | undefined, events: string[]): WebhookEndpoint[] =>
    target
      ? [{ id: `${provider}-configured`, provider, url: target.url, secret: target.secret, events, deliver: target.deliver ?? true }]
      : [];

  const stripe = new StripeSandbox({
    secretKey: config.stripe.secretKey,
    publicUrl,
    endpoints: endpoint("stripe", config.stripe.webhook, ["*"]),
    dispatcher,
  });
  const vipps = new VippsSandbox({
    ...config.vipps,
    publicUrl,
    dispatcher,
    hooks: endpoint("vipps", config.vipps.webhook, VIPPS_EVENTS),
    paymentLifetimeMs: config.vippsPaymentLifetimeMs ?? 10 * 60 * 1000,
  });

  const vippsLogin = new VippsLoginSandbox({
    clientId: config.vipps.clientId,
    clientSecret: config.vipps.clientSecret,
    apiUrl: `http://${host}:${port}`,
    publicUrl,
    redirectUris: config.vipps.loginRedirectUris,
  });

  // Event Cast sends what the subscription's event groups name; the Worker takes every code.
  const bring = config.bring
    ? new BringSandbox({
        apiUid: config.bring.apiUid,
        apiKey: config.bring.apiKey,
        customerNumber: config.bring.customerNumber,
        publicUrl,
        dispatcher,
        hooks: endpoint("bring", config.bring.webhook, ["*"]),
      })
    : null;
  const helthjem = config.helthjem
    ? new HelthjemSandbox({
        clientId: config.helthjem.clientId,
        clientSecret: config.helthjem.clientSecret,
        shopId: config.helthjem.shopId,
        dispatcher,
        hooks: endpoint("helthjem", config.helthjem.webhook, ["*"]),
      })
    : null;
  const carriers: SandboxCarrier[] = [bring, helthjem].filter((c): c is BringSandbox | HelthjemSandbox => c !== null);

  const persistence = persist(config.stateFile, stripe, vipps, carriers, log);

  server.on("request", (req, res) => {
    void (async () => {
      let reply: Reply;
      try {
        const body = await readBody(req);
        const request: SandboxRequest = {
          method: req.method ?? "GET",
          url: new URL(req.url ?? "/", publicUrl),
          headers: req.headers,
          body,
        };
        reply =
          stripe.handle(request) ??
          vipps.handle(request) ??
          vippsLogin.handle(request) ??
          carriers.reduce<Reply | null>((reply, carrier) => reply ?? carrier.handle(request), null) ??
          (carriers.length ? testerPage(carriers, request) : null) ??
          sandboxRoutes(request, stripe, vipps, vippsLogin, carriers, dispatcher);
      } catch (error) {
        log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        reply = json(500, { error: { type: "api_error", message: "The sandbox failed to handle the request." } });
      }
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
      if (req.method !== "GET") persistence.soon();
    })();
  });

  return {
    url: `http://${host}:${port}`,
    port,
    stripe,
    vipps,
    vippsLogin,
    bring,
    helthjem,
    dispatcher,
    close: async () => {
      persistence.now();
      stripe.close();
      vipps.close();
      dispatcher.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sandboxRoutes(
  req: SandboxRequest,
  stripe: StripeSandbox,
  vipps: VippsSandbox,
  vippsLogin: VippsLoginSandbox,
  carriers: SandboxCarrier[],
  dispatcher: WebhookDispatcher,
): Reply {
  const path = req.url.pathname;
  if (req.method === "GET" && path === "/__sandbox/health") return json(200, { ok: true });
  if (req.method === "GET" && path === "/__sandbox/deliveries") {
    const provider = req.url.searchParams.get("provider");
    const object = req.url.searchParams.get("object");
    const type = req.url.searchParams.get("type");
    return json(
      200,
      dispatcher.deliveries.filter(
        (d) => (!provider || d.provider === provider) && (!object || d.objectId === object) && (!type || d.eventType === type),
      ),
    );
  }
  if (req.method === "GET" && path === "/__sandbox/requests") {
    const prefix = req.url.searchParams.get("path") ?? "";
    return json(
      200,
      [...stripe.requests, ...vipps.requests, ...vippsLogin.requests, ...carriers.flatMap((c) => c.requests)].filter((r) =>
        r.path.startsWith(prefix),
      ),
    );
  }
  if (req.method === "GET" && path === "/__sandbox/money") return json(200, moneyMoved(stripe, vipps));
  const carrier = carriers.find((c) => path.startsWith(`/__sandbox/${c.carrier}/`));
  if (carrier) return carrierRoutes(req, carrier);
  let m: RegExpExecArray | null;
  if (req.method === "POST" && (m = /^\/__sandbox\/stripe\/accounts\/([^/]+)\/restrict$/.exec(path))) {
    const account = stripe.restrictAccount(m[1]);
    return account
      ? json(200, { id: account.id, charges_enabled: false, payouts_enabled: false })
      : json(404, { error: "no such account" });
  }
  if (req.method === "GET" && path === "/") {
    // The dashboard: every movement of money, newest first (no real money moves).
    const moved = moneyMoved(stripe, vipps);
    const rows = [
      ...moved.transfers.map((t) => ({
        at: t.created,
        kind: "Stripe-overføring til selger",
        what: `${t.destination} (${t.transfer_group ?? "-"})`,
        amount: money(t.amount, t.currency),
      })),
      ...moved.refunds.map((r) => ({
        at: r.created,
        kind: "Stripe-refusjon",
        what: r.payment_intent,
        amount: money(r.amount, r.currency),
      })),
      ...moved.vipps.map((v) => ({ at: v.at, kind: `Vipps ${v.name.toLowerCase()}`, what: v.reference, amount: money(v.amount, "nok") })),
    ].sort((a, b) => b.at - a.at);
    return html(200, moneyPage(rows));
  }
  if (path.startsWith("/v1/"))
    return json(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${path}).` } });
  return html(404, messagePage("Siden finnes ikke", "Sandkassen har ingen side her."));
}

/** What the sandbox has moved: Stripe transfers and refunds, and Vipps captures, cancellations and refunds. */
function moneyMoved(stripe: StripeSandbox, vipps: VippsSandbox) {
  return {
    transfers: [...stripe.transfers.values()].map((t) => ({
      id: t.id,
      amount: t.amount,
      currency: t.currency,
      destination: t.destination,
      transfer_group: t.transferGroup,
      source_transaction: t.sourceTransaction,
      metadata: t.metadata,
      created: t.created,
    })),
    refunds: [...stripe.refunds.values()].map((r) => ({
      id: r.id,
      amount: r.amount,
      currency: r.currency,
      payment_intent: r.paymentIntent,
      metadata: r.metadata,
      created: r.created,
    })),
    vipps: [...vipps.payments.values()].flatMap((p) =>
      p.events
        .filter((e) => e.name === "CAPTURED" || e.name === "CANCELLED" || e.name === "REFUNDED")
        .map((e) => ({ reference: p.reference, name: e.name, amount: e.amount.value, at: Math.floor(Date.parse(e.timestamp) / 1000) })),
    ),
  };
}

interface SavedState {
  stripe: StripeState;
  vipps: VippsState;
  /** Each carrier's parcels, by carrier ("bring", "helthjem"). */
  bring?: unknown;
  helthjem?: unknown;
}

/** Load the saved state, and save it shortly after changes (and on close). Without a file: nothing. */
function persist(
  file: string | undefined,
  stripe: StripeSandbox,
  vipps: VippsSandbox,
  carriers: SandboxCarrier[],
  log: (line: string) => void,
) {
  if (!file) return { soon: () => undefined, now: () => undefined };
  if (existsSync(file)) {
    try {
      const saved = JSON.parse(readFileSync(file, "utf8")) as SavedState;
      stripe.restore(saved.stripe);
      vipps.restore(saved.vipps);
      for (const carrier of carriers) carrier.restore(saved[carrier.carrier]);
    } catch (error) {
      log(`could not read ${file}; starting empty (${error instanceof Error ? error.message : error})`);
    }
  }
  let timer: NodeJS.Timeout | null = null;
  const now = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const saved: SavedState = {
      stripe: stripe.snapshot(),
      vipps: vipps.snapshot(),
      ...Object.fromEntries(carriers.map((c) => [c.carrier, c.snapshot()])),
    };
    writeFileSync(`${file}.tmp`, JSON.stringify(saved));
    renameSync(`${file}.tmp`, file);
  };
  return {
    now,
    soon: () => {
      timer ??= setTimeout(now, 200);
    },
  };
}
