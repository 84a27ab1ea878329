// The parts of the Vipps MobilePay APIs that Lekebytte uses, shaped as their OpenAPI descriptions say
// (vippsas/vipps-epayment-api docs/epayment.v1.yml, vippsas/access-token-api, vippsas/webhooks-api):
// the access token (POST /accesstoken/get), ePayment v1 (create, get, events, capture, cancel,
// refund, the test environment's force-approve), webhook registration, and the landing page where a
// person enters a phone number and approves or cancels in "the app".
import { randomUUID } from "node:crypto";
import { header, html, json, problemJson, redirect, type Reply, type SandboxRequest } from "./http";
import { everySecond, token } from "./ids";
import { messagePage, vippsAppPage, vippsLandingPage } from "./pages";
import { money } from "./stripe-api";
import type { WebhookDispatcher, WebhookEndpoint } from "./webhooks";

const TOKEN_LIFETIME_S = 3600;
const REFERENCE_RE = /^[a-zA-Z0-9-]{8,50}$/;

type State = "CREATED" | "ABORTED" | "EXPIRED" | "AUTHORIZED" | "TERMINATED";
type EventName = "CREATED" | "ABORTED" | "EXPIRED" | "CANCELLED" | "CAPTURED" | "REFUNDED" | "AUTHORIZED" | "TERMINATED";

interface Amount {
  currency: string;
  value: number;
}

interface PaymentEvent {
  reference: string;
  pspReference: string;
  name: EventName;
  amount: Amount;
  timestamp: string;
  idempotencyKey: string | null;
  success: boolean;
}

export interface VippsPayment {
  reference: string;
  msn: string;
  pspReference: string;
  amount: Amount;
  state: State;
  authorized: number;
  cancelled: number;
  captured: number;
  refunded: number;
  paymentMethod: "WALLET" | "CARD";
  userFlow: string;
  returnUrl: string | null;
  description: string | null;
  metadata: Record<string, string> | null;
  createdAt: number;
  landingToken: string;
  phoneNumber: string | null;
  events: PaymentEvent[];
}

export interface VippsState {
  payments: VippsPayment[];
  hooks: WebhookEndpoint[];
}

export interface VippsSandboxOptions {
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
  msn: string;
  publicUrl: string;
  dispatcher: WebhookDispatcher;
  /** Hooks registered at start (as if registered through the Webhooks API). */
  hooks: WebhookEndpoint[];
  /** How long a payment waits for the user before it expires (ms). */
  paymentLifetimeMs: number;
}

class Problem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly extraDetails?: Array<{ name: string; reason: string }>,
  ) {
    super(detail);
  }
}

const PROBLEM_TYPE = "https://developer.vippsmobilepay.com/docs/APIs/epayment-api/api-guide/errors";

export class VippsSandbox {
  readonly payments = new Map<string, VippsPayment>();
  readonly hooks: WebhookEndpoint[];
  readonly requests: Array<{ method: string; path: string; idempotencyKey: string | null; at: string }> = [];
  private readonly tokens = new Map<string, number>();
  private readonly idempotency = new Map<string, { fingerprint: string; reply: Reply }>();
  /** Payments nobody approves expire, with their webhook. */
  readonly close = everySecond(() => this.expireDue());

  constructor(private readonly options: VippsSandboxOptions) {
    this.hooks = [...options.hooks];
  }

  /** Payments and hooks registered through the Webhooks API survive a restart. */
  snapshot(): VippsState {
    return { payments: [...this.payments.values()], hooks: this.hooks.filter((h) => !this.options.hooks.some((c) => c.id === h.id)) };
  }

  restore(state: VippsState): void {
    for (const p of state.payments) this.payments.set(p.reference, p);
    this.hooks.push(...state.hooks);
  }

  handle(req: SandboxRequest): Reply | null {
    const path = req.url.pathname;
    if (path === "/accesstoken/get") return this.accessToken(req);
    if (path.startsWith("/epayment/v1/") || path.startsWith("/webhooks/v1/")) return this.api(req);
    if (path === "/vipps/landing") return this.landing(req);
    if (path === "/vipps/app") return this.app(req);
    return null;
  }

  // ---------------------------------------------------------------- access token

  private accessToken(req: SandboxRequest): Reply {
    if (req.method !== "POST") return json(405, { error: "method_not_allowed" });
    if (header(req, "ocp-apim-subscription-key") !== this.options.subscriptionKey) return apimDenied();
    const clientId = header(req, "client_id");
    const clientSecret = header(req, "client_secret");
    if (clientId !== this.options.clientId) {
      return json(
        400,
        tokenError("unauthorized_client", `AADSTS700016: Application with identifier '${clientId ?? ""}' was not found.`, 700016),
      );
    }
    if (clientSecret !== this.options.clientSecret) {
      return json(401, tokenError("invalid_client", "AADSTS7000215: Invalid client secret provided.", 7000215));
    }
    const now = Math.floor(Date.now() / 1000);
    const accessToken = fakeJwt({ iss: "vipps-sandbox", sub: clientId, iat: now, exp: now + TOKEN_LIFETIME_S, jti: randomUUID() });
    this.tokens.set(accessToken, now + TOKEN_LIFETIME_S);
    return json(200, {
      token_type: "Bearer",
      expires_in: String(TOKEN_LIFETIME_S),
      ext_expires_in: "0",
      expires_on: String(now + TOKEN_LIFETIME_S),
      not_before: String(now),
      resource: "00000002-0000-0000-c000-000000000000",
      access_token: accessToken,
    });
  }

  // ---------------------------------------------------------------- ePayment and Webhooks APIs

  private api(req: SandboxRequest): Reply {
    const traceId = randomUUID();
    try {
      if (header(req, "ocp-apim-subscription-key") !== this.options.subscriptionKey) return apimDenied();
      const auth = header(req, "authorization") ?? "";
      const bearer = /^bearer\s+(.+)$/i.exec(auth)?.[1];
      const expires = bearer ? this.tokens.get(bearer) : undefined;
      if (!expires || expires < Date.now() / 1000)
        throw new Problem(401, "Unauthorized", "The access token is missing, invalid or expired.");
      const idempotencyKey = header(req, "idempotency-key") ?? null;
      this.requests.push({ method: req.method, path: req.url.pathname, idempotencyKey, at: new Date().toISOString() });

      const path = req.url.pathname;
      if (path.startsWith("/webhooks/v1/")) return this.webhooksApi(req, path);

      const msn = header(req, "merchant-serial-number");
      if (!msn)
        throw new Problem(400, "Bad Request", "The Merchant-Serial-Number header is required.", [
          { name: "Merchant-Serial-Number", reason: "Required" },
        ]);
      if (msn !== this.options.msn) throw new Problem(403, "Forbidden", `The sales unit ${msn} is not available for this API key.`);

      let m: RegExpExecArray | null;
      if (req.method === "POST" && path === "/epayment/v1/payments")
        return this.idempotent(req, idempotencyKey, "create", "", () => this.create(req, idempotencyKey));
      if (req.method === "GET" && (m = /^\/epayment\/v1\/payments\/([^/]+)$/.exec(path)))
        return json(200, this.paymentObject(this.payment(m[1])));
      if (req.method === "GET" && (m = /^\/epayment\/v1\/payments\/([^/]+)\/events$/.exec(path)))
        return json(200, this.payment(m[1]).events);
      if (req.method === "POST" && (m = /^\/epayment\/v1\/payments\/([^/]+)\/(capture|cancel|refund)$/.exec(path))) {
        const [, reference, action] = m;
        return this.idempotent(req, idempotencyKey, action, reference, () =>
          this.adjust(req, reference, action as "capture" | "cancel" | "refund", idempotencyKey),
        );
      }
      if (req.method === "POST" && (m = /^\/epayment\/v1\/test\/payments\/([^/]+)\/approve$/.exec(path))) {
        const payment = this.payment(m[1]);
        if (payment.state !== "CREATED")
          throw new Problem(400, "Bad Request", `Payment is in state ${payment.state} and cannot be approved.`);
        this.authorize(payment, "4791234567");
        return { status: 200, headers: {}, body: "" };
      }
      throw new Problem(404, "Not Found", `No route for ${req.method} ${path}.`);
    } catch (error) {
      if (error instanceof Problem) {
        return problemJson(error.status, {
          type: PROBLEM_TYPE,
          title: error.title,
          detail: error.message,
          instance: req.url.pathname,
          status: error.status,
          traceId,
          ...(error.extraDetails ? { extraDetails: error.extraDetails } : {}),
        });
      }
      throw error;
    }
  }

  private idempotent(req: SandboxRequest, key: string | null, op: string, reference: string, run: () => Reply): Reply {
    if (!key)
      throw new Problem(400, "Bad Request", "The Idempotency-Key header is required.", [{ name: "Idempotency-Key", reason: "Required" }]);
    if (key.length > 50)
      throw new Problem(400, "Bad Request", "The Idempotency-Key header is too long.", [
        { name: "Idempotency-Key", reason: "Max length is 50" },
      ]);
    const slot = `${op}:${reference}:${key}`;
    const fingerprint = req.body;
    const earlier = this.idempotency.get(slot);
    if (earlier) {
      if (earlier.fingerprint !== fingerprint)
        throw new Problem(409, "Conflict", "The Idempotency-Key was used before with a different request body.");
      return earlier.reply;
    }
    const reply = run();
    if (reply.status < 400) this.idempotency.set(slot, { fingerprint, reply });
    return reply;
  }

  private create(req: SandboxRequest, idempotencyKey: string | null): Reply {
    const body = parseJson(req.body);
    const errors: Array<{ name: string; reason: string }> = [];
    const amount = body.amount as Amount | undefined;
    if (!amount || typeof amount !== "object") errors.push({ name: "amount", reason: "Required" });
    else {
      if (!["NOK", "DKK", "EUR"].includes(amount.currency))
        errors.push({ name: "amount.currency", reason: "Must be one of NOK, DKK, EUR" });
      if (!Number.isInteger(amount.value) || amount.value < 100 || amount.value > 65_000_000) {
        errors.push({ name: "amount.value", reason: "Must be an integer between 100 and 65000000 (minor units)" });
      }
    }
    const methodType = (body.paymentMethod as { type?: string } | undefined)?.type;
    if (methodType !== "WALLET" && methodType !== "CARD") errors.push({ name: "paymentMethod.type", reason: "Must be WALLET or CARD" });
    const reference = body.reference;
    if (typeof reference !== "string" || !REFERENCE_RE.test(reference))
      errors.push({ name: "reference", reason: "Must match ^[a-zA-Z0-9-]{8,50}$" });
    const userFlow = body.userFlow;
    if (!["PUSH_MESSAGE", "NATIVE_REDIRECT", "WEB_REDIRECT", "QR"].includes(userFlow as string)) {
      errors.push({ name: "userFlow", reason: "Must be one of PUSH_MESSAGE, NATIVE_REDIRECT, WEB_REDIRECT, QR" });
    }
    const returnUrl = typeof body.returnUrl === "string" ? body.returnUrl : null;
    if ((userFlow === "WEB_REDIRECT" || userFlow === "NATIVE_REDIRECT") && !returnUrl)
      errors.push({ name: "returnUrl", reason: "Required when userFlow is WEB_REDIRECT" });
    // Vipps requires https; the sandbox also accepts http so a local app can be the return target.
    if (returnUrl && !/^https?:\/\/[^\s]+$/.test(returnUrl)) errors.push({ name: "returnUrl", reason: "Must be an absolute URL" });
    if (methodType === "CARD" && userFlow !== "WEB_REDIRECT")
      errors.push({ name: "paymentMethod.type", reason: "CARD requires userFlow WEB_REDIRECT" });
    const description = body.paymentDescription;
    if (description !== undefined && (typeof description !== "string" || description.length < 3 || description.length > 100)) {
      errors.push({ name: "paymentDescription", reason: "Length must be between 3 and 100" });
    }
    const metadata = body.metadata as Record<string, string> | null | undefined;
    if (metadata && (typeof metadata !== "object" || Object.keys(metadata).length > 5))
      errors.push({ name: "metadata", reason: "At most 5 key-value pairs" });
    if (errors.length > 0) throw new Problem(400, "Bad Request", "One or more validation errors occurred.", errors);
    if (this.payments.has(reference as string))
      throw new Problem(409, "Conflict", `A payment with reference '${reference}' already exists.`);

    const payment: VippsPayment = {
      reference: reference as string,
      msn: this.options.msn,
      pspReference: randomDigits(10),
      amount: { currency: amount!.currency, value: amount!.value },
      state: "CREATED",
      authorized: 0,
      cancelled: 0,
      captured: 0,
      refunded: 0,
      paymentMethod: methodType as "WALLET" | "CARD",
      userFlow: userFlow as string,
      returnUrl,
      description: typeof description === "string" ? description : null,
      metadata: metadata ?? null,
      createdAt: Date.now(),
      landingToken: token(24),
      phoneNumber: null,
      events: [],
    };
    this.payments.set(payment.reference, payment);
    this.record(payment, "CREATED", payment.amount.value, idempotencyKey);
    return json(201, { redirectUrl: this.landingUrl(payment), reference: payment.reference });
  }

  private adjust(req: SandboxRequest, reference: string, action: "capture" | "cancel" | "refund", idempotencyKey: string | null): Reply {
    const payment = this.payment(reference);
    if (action === "cancel") {
      if (payment.state === "CREATED") {
        payment.state = "TERMINATED";
        this.record(payment, "TERMINATED", payment.amount.value, idempotencyKey);
      } else if (payment.state === "AUTHORIZED") {
        const open = payment.authorized - payment.captured - payment.cancelled;
        if (open <= 0) throw new Problem(400, "Bad Request", "The payment has no remaining authorized amount to cancel.");
        payment.cancelled += open;
        if (payment.captured === 0) payment.state = "TERMINATED";
        this.record(payment, "CANCELLED", open, idempotencyKey);
      } else {
        throw new Problem(400, "Bad Request", `Payment is in state ${payment.state} and cannot be cancelled.`);
      }
      return json(200, this.modification(payment));
    }
    const body = parseJson(req.body);
    const amount = (body.modificationAmount ?? null) as Amount | null;
    if (!amount || !Number.isInteger(amount.value) || amount.value <= 0) {
      throw new Problem(400, "Bad Request", "One or more validation errors occurred.", [
        { name: "modificationAmount.value", reason: "Must be a positive integer" },
      ]);
    }
    if (amount.currency !== payment.amount.currency) {
      throw new Problem(400, "Bad Request", "One or more validation errors occurred.", [
        { name: "modificationAmount.currency", reason: `Must be ${payment.amount.currency}` },
      ]);
    }
    if (action === "capture") {
      if (payment.state !== "AUTHORIZED")
        throw new Problem(400, "Bad Request", `Payment is in state ${payment.state} and cannot be captured.`);
      const capturable = payment.authorized - payment.captured - payment.cancelled;
      if (amount.value > capturable)
        throw new Problem(400, "Bad Request", `Capture amount ${amount.value} exceeds the capturable amount ${capturable}.`);
      payment.captured += amount.value;
      this.record(payment, "CAPTURED", amount.value, idempotencyKey);
    } else {
      const refundable = payment.captured - payment.refunded;
      if (amount.value > refundable)
        throw new Problem(400, "Bad Request", `Refund amount ${amount.value} exceeds the refundable amount ${refundable}.`);
      payment.refunded += amount.value;
      this.record(payment, "REFUNDED", amount.value, idempotencyKey);
    }
    return json(200, this.modification(payment));
  }

  private webhooksApi(req: SandboxRequest, path: string): Reply {
    if (req.method === "GET" && path === "/webhooks/v1/webhooks") {
      return json(200, { webhooks: this.hooks.map((h) => ({ id: h.id, url: h.url, events: h.events })) });
    }
    if (req.method === "POST" && path === "/webhooks/v1/webhooks") {
      const body = parseJson(req.body);
      const errors: Array<{ name: string; reason: string }> = [];
      if (typeof body.url !== "string" || !/^https?:\/\//.test(body.url))
        errors.push({ name: "url", reason: "The property is required and must be a URL." });
      if (!Array.isArray(body.events) || body.events.length === 0 || body.events.some((e) => typeof e !== "string")) {
        errors.push({ name: "events", reason: "The property is required and cannot be null or empty." });
      }
      if (errors.length > 0) throw new Problem(400, "Bad Request", "One or more validation errors occurred.", errors);
      const hook: WebhookEndpoint = {
        id: randomUUID(),
        provider: "vipps",
        url: body.url as string,
        secret: token(48),
        events: body.events as string[],
        deliver: true,
      };
      this.hooks.push(hook);
      return json(201, { id: hook.id, secret: hook.secret });
    }
    const m = /^\/webhooks\/v1\/webhooks\/([^/]+)$/.exec(path);
    if (req.method === "DELETE" && m) {
      const i = this.hooks.findIndex((h) => h.id === m[1]);
      if (i < 0) throw new Problem(404, "Not Found", "Webhook not found.");
      this.hooks.splice(i, 1);
      return { status: 204, headers: {}, body: "" };
    }
    throw new Problem(404, "Not Found", `No route for ${req.method} ${path}.`);
  }

  private payment(reference: string): VippsPayment {
    const payment = this.payments.get(reference);
    if (!payment) throw new Problem(404, "Not Found", `Payment with reference '${reference}' was not found.`);
    return payment;
  }

  // ---------------------------------------------------------------- state changes and events

  authorize(payment: VippsPayment, phoneNumber: string): void {
    payment.phoneNumber = phoneNumber;
    payment.state = "AUTHORIZED";
    payment.authorized = payment.amount.value;
    this.record(payment, "AUTHORIZED", payment.amount.value, null);
  }

  abort(payment: VippsPayment): void {
    payment.state = "ABORTED";
    this.record(payment, "ABORTED", payment.amount.value, null);
  }

  private expireDue(): void {
    const now = Date.now();
    for (const payment of this.payments.values()) {
      if (payment.state === "CREATED" && now - payment.createdAt >= this.options.paymentLifetimeMs) {
        payment.state = "EXPIRED";
        this.record(payment, "EXPIRED", payment.amount.value, null);
      }
    }
  }

  private record(payment: VippsPayment, name: EventName, value: number, idempotencyKey: string | null): void {
    const pspReference = name === "CREATED" || name === "AUTHORIZED" ? payment.pspReference : randomDigits(10);
    const event: PaymentEvent = {
      reference: payment.reference,
      pspReference,
      name,
      amount: { currency: payment.amount.currency, value },
      timestamp: new Date().toISOString(),
      idempotencyKey,
      success: true,
    };
    payment.events.push(event);
    const type = `epayments.payment.${name.toLowerCase()}.v1`;
    const body = JSON.stringify({ msn: payment.msn, ...event });
    for (const hook of this.hooks) {
      if (hook.events.includes(type) || hook.events.includes("*")) this.options.dispatcher.send(hook, type, payment.reference, body);
    }
  }

  private aggregate(payment: VippsPayment) {
    const a = (value: number): Amount => ({ currency: payment.amount.currency, value });
    return {
      authorizedAmount: a(payment.authorized),
      cancelledAmount: a(payment.cancelled),
      capturedAmount: a(payment.captured),
      refundedAmount: a(payment.refunded),
    };
  }

  paymentObject(payment: VippsPayment): object {
    return {
      aggregate: this.aggregate(payment),
      amount: payment.amount,
      state: payment.state,
      paymentMethod: { type: payment.paymentMethod },
      profile: {},
      pspReference: payment.pspReference,
      redirectUrl: this.landingUrl(payment),
      reference: payment.reference,
      metadata: payment.metadata,
    };
  }

  private modification(payment: VippsPayment): object {
    return {
      amount: payment.amount,
      state: payment.state,
      aggregate: this.aggregate(payment),
      pspReference: payment.events.at(-1)?.pspReference ?? payment.pspReference,
      reference: payment.reference,
    };
  }

  private landingUrl(payment: VippsPayment): string {
    return `${this.options.publicUrl}/vipps/landing?token=${payment.landingToken}`;
  }

  // ---------------------------------------------------------------- landing page and "the app"

  private byToken(value: string | null): VippsPayment | undefined {
    if (!value) return undefined;
    return [...this.payments.values()].find((p) => p.landingToken === value);
  }

  /** The payment a landing-page request is about, or the page to show instead (unknown or no longer open). */
  private openPayment(req: SandboxRequest): { form: URLSearchParams; payment: VippsPayment } | Reply {
    const form = req.method === "POST" ? new URLSearchParams(req.body) : req.url.searchParams;
    const payment = this.byToken(form.get("token"));
    if (!payment) return html(404, messagePage("Fant ikke betalingen", "Lenken er ugyldig eller utløpt."));
    if (payment.state !== "CREATED") {
      const text = payment.state === "AUTHORIZED" ? "Betalingen er allerede godkjent." : "Betalingen er avbrutt eller utløpt.";
      return html(410, messagePage("Betalingen er ikke lenger aktiv", text, payment.returnUrl ?? undefined));
    }
    return { form, payment };
  }

  private landing(req: SandboxRequest): Reply {
    const open = this.openPayment(req);
    if ("status" in open) return open;
    const { form, payment } = open;
    const view = this.view(payment);
    if (req.method === "GET") return html(200, vippsLandingPage(view, ""));
    if (form.get("action") === "cancel") return this.cancelByUser(payment);
    const phone = (form.get("phone") ?? "").replace(/[\s-]/g, "").replace(/^(\+47|0047)/, "");
    if (!/^[49]\d{7}$/.test(phone))
      return html(400, vippsLandingPage(view, form.get("phone") ?? "", "Skriv inn et norsk mobilnummer med 8 siffer."));
    payment.phoneNumber = `47${phone}`;
    return redirect(`/vipps/app?token=${payment.landingToken}`);
  }

  private app(req: SandboxRequest): Reply {
    const open = this.openPayment(req);
    if ("status" in open) return open;
    const { form, payment } = open;
    if (!payment.phoneNumber) return redirect(`/vipps/landing?token=${payment.landingToken}`);
    if (req.method === "GET") return html(200, vippsAppPage(this.view(payment), payment.phoneNumber));
    if (form.get("action") === "approve") {
      this.authorize(payment, payment.phoneNumber);
      return redirect(payment.returnUrl ?? "/");
    }
    return this.cancelByUser(payment);
  }

  private cancelByUser(payment: VippsPayment): Reply {
    this.abort(payment);
    return redirect(payment.returnUrl ?? "/");
  }

  private view(payment: VippsPayment) {
    return {
      token: payment.landingToken,
      amount: money(payment.amount.value, payment.amount.currency),
      description: payment.description ?? "Betaling",
      merchant: "Lekebytte",
    };
  }
}

function parseJson(body: string): Record<string, unknown> {
  try {
    const value = JSON.parse(body || "{}") as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new Problem(400, "Bad Request", "The request body must be a JSON object.");
}

function apimDenied(): Reply {
  return json(401, {
    statusCode: 401,
    message: "Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.",
  });
}

function tokenError(error: string, description: string, code: number) {
  return {
    error,
    error_description: description,
    error_codes: [code],
    timestamp: `${new Date().toISOString().replace("T", " ").slice(0, 19)}Z`,
    trace_id: randomUUID(),
    correlation_id: randomUUID(),
  };
}

function fakeJwt(claims: object): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ typ: "JWT", alg: "RS256" })}.${part(claims)}.${token(32)}`;
}

function randomDigits(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += Math.floor(Math.random() * 10);
  return s;
}
