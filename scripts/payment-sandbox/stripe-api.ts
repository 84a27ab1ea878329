// The parts of Stripe's REST API (v1, form-encoded) that Lekebytte uses, with Stripe's object shapes
// and error envelope, taken from Stripe's OpenAPI description (stripe/openapi: spec3 and fixtures3):
// Connect Express accounts, account links, login links, Checkout Sessions (create, retrieve,
// expire), PaymentIntents (retrieve), refunds, and transfers to connected accounts (separate charges
// and transfers: a `transfer_group` per order, `source_transaction` tying a transfer to its charge). Plus the hosted pages a person uses: Checkout's card form, Connect onboarding
// and the Express dashboard.
import { createHash } from "node:crypto";
import { FormError, parseForm, pick, pickMap, pickString, type FormObject, type FormValue } from "./form";
import { header, html, json, redirect, type Reply, type SandboxRequest } from "./http";
import { everySecond, stripeId, token, unixNow } from "./ids";
import { checkoutPage, dashboardPage, messagePage, onboardingPage, type CheckoutForm } from "./pages";
import type { WebhookDispatcher, WebhookEndpoint } from "./webhooks";

export const STRIPE_API_VERSION = "2026-10-28.endive";

/** Stripe's minimum charge in NOK is kr 3.00. */
const MIN_AMOUNT_NOK = 300;
const SESSION_MIN_LIFETIME_S = 30 * 60;
const SESSION_MAX_LIFETIME_S = 24 * 60 * 60;
const ACCOUNT_LINK_LIFETIME_S = 300;

export interface StripeAccount {
  id: string;
  created: number;
  type: "express" | "standard" | "custom";
  country: string;
  email: string | null;
  metadata: Record<string, string>;
  businessType: string | null;
  requestedCapabilities: string[];
  detailsSubmitted: boolean;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  individual: { first_name: string; last_name: string } | null;
  externalAccountLast4: string | null;
}

interface LineItem {
  name: string;
  unitAmount: number;
  quantity: number;
  currency: string;
}

export interface CheckoutSession {
  id: string;
  created: number;
  expiresAt: number;
  status: "open" | "complete" | "expired";
  paymentStatus: "unpaid" | "paid";
  currency: string;
  amountTotal: number;
  lineItems: LineItem[];
  successUrl: string;
  cancelUrl: string | null;
  clientReferenceId: string | null;
  customerEmail: string | null;
  customerDetails: { email: string; name: string | null } | null;
  metadata: Record<string, string>;
  locale: string | null;
  paymentIntent: string | null;
  destination: string | null;
  applicationFeeAmount: number | null;
  paymentIntentMetadata: Record<string, string>;
  paymentIntentDescription: string | null;
  transferGroup: string | null;
}

export interface PaymentIntent {
  id: string;
  chargeId: string;
  sessionId: string;
  amount: number;
  currency: string;
  created: number;
  destination: string | null;
  applicationFeeAmount: number;
  amountRefunded: number;
  transferGroup: string | null;
}

export interface StripeTransfer {
  id: string;
  amount: number;
  currency: string;
  created: number;
  destination: string;
  transferGroup: string | null;
  sourceTransaction: string | null;
  metadata: Record<string, string>;
  description: string | null;
}

export interface StripeRefund {
  id: string;
  amount: number;
  currency: string;
  created: number;
  paymentIntent: string;
  chargeId: string;
  reason: string | null;
  metadata: Record<string, string>;
  transferReversal: string | null;
  refundedApplicationFee: boolean;
}

interface AccountLink {
  id: string;
  account: string;
  type: string;
  refreshUrl: string;
  returnUrl: string;
  created: number;
  expiresAt: number;
  used: boolean;
}

export interface StripeState {
  accounts: StripeAccount[];
  sessions: CheckoutSession[];
  paymentIntents: PaymentIntent[];
  refunds: StripeRefund[];
  /** Absent in state files written before transfers existed. */
  transfers?: StripeTransfer[];
  links: AccountLink[];
  loginTokens: Array<[string, string]>;
}

interface IdempotentResult {
  fingerprint: string;
  reply: Reply;
}

export interface StripeSandboxOptions {
  secretKey: string;
  /** Base URL the browser uses for hosted pages (http://localhost:PORT). */
  publicUrl: string;
  endpoints: WebhookEndpoint[];
  dispatcher: WebhookDispatcher;
}

class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: "invalid_request_error" | "api_error" | "card_error" | "idempotency_error",
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

const missing = (param: string) =>
  new StripeError(400, "invalid_request_error", `Missing required param: ${param}.`, "parameter_missing", param);
const unknownParam = (param: string) =>
  new StripeError(400, "invalid_request_error", `Received unknown parameter: ${param}`, "parameter_unknown", param);

export class StripeSandbox {
  readonly accounts = new Map<string, StripeAccount>();
  readonly sessions = new Map<string, CheckoutSession>();
  readonly paymentIntents = new Map<string, PaymentIntent>();
  readonly refunds = new Map<string, StripeRefund>();
  readonly transfers = new Map<string, StripeTransfer>();
  /** Every API call (method, path, idempotency key), for tests that check what the app asked for. */
  readonly requests: Array<{ method: string; path: string; idempotencyKey: string | null; params: FormObject; at: string }> = [];
  private readonly links = new Map<string, AccountLink>();
  private readonly loginTokens = new Map<string, string>();
  private readonly idempotency = new Map<string, IdempotentResult>();
  /** Open sessions past expires_at expire as Stripe expires them, with a checkout.session.expired event. */
  readonly close = everySecond(() => this.expireDue());

  constructor(private readonly options: StripeSandboxOptions) {}

  /** Everything a restart must keep (accounts, sessions, payments, refunds, open links). */
  snapshot(): StripeState {
    return {
      accounts: [...this.accounts.values()],
      sessions: [...this.sessions.values()],
      paymentIntents: [...this.paymentIntents.values()],
      refunds: [...this.refunds.values()],
      transfers: [...this.transfers.values()],
      links: [...this.links.values()],
      loginTokens: [...this.loginTokens.entries()],
    };
  }

  restore(state: StripeState): void {
    for (const a of state.accounts) this.accounts.set(a.id, a);
    for (const s of state.sessions) this.sessions.set(s.id, s);
    for (const p of state.paymentIntents) this.paymentIntents.set(p.id, p);
    for (const r of state.refunds) this.refunds.set(r.id, r);
    for (const t of state.transfers ?? []) this.transfers.set(t.id, t);
    for (const l of state.links) this.links.set(l.id, l);
    for (const [t, a] of state.loginTokens) this.loginTokens.set(t, a);
  }

  /** Routes of the API (/v1/…) and of the hosted pages; null when the path is not Stripe's. */
  handle(req: SandboxRequest): Reply | null {
    const path = req.url.pathname;
    if (path.startsWith("/v1/")) return this.api(req);
    let m: RegExpExecArray | null;
    if ((m = /^\/c\/pay\/([A-Za-z0-9_]+)$/.exec(path))) return this.checkoutPage(req, m[1]);
    if ((m = /^\/connect\/onboarding\/([A-Za-z0-9_-]+)$/.exec(path))) return this.onboardingPage(req, m[1]);
    if ((m = /^\/express\/(acct_[A-Za-z0-9]+)\/([A-Za-z0-9_-]+)$/.exec(path))) return this.dashboardPage(m[1], m[2]);
    return null;
  }

  // ---------------------------------------------------------------- API

  private api(req: SandboxRequest): Reply {
    const requestId = stripeId("req", 14);
    const baseHeaders = { "Request-Id": requestId, "Stripe-Version": header(req, "stripe-version") ?? STRIPE_API_VERSION };
    try {
      this.authenticate(req);
      let params: FormObject = {};
      if (req.method === "POST") params = parseForm(req.body);
      else if (req.url.search) params = parseForm(req.url.search.slice(1));
      const idempotencyKey = req.method === "POST" ? (header(req, "idempotency-key") ?? null) : null;
      this.requests.push({ method: req.method, path: req.url.pathname, idempotencyKey, params, at: new Date().toISOString() });

      if (idempotencyKey) {
        const fingerprint = createHash("sha256").update(`${req.method} ${req.url.pathname}\n${req.body}`).digest("hex");
        const earlier = this.idempotency.get(idempotencyKey);
        if (earlier) {
          if (earlier.fingerprint !== fingerprint) {
            throw new StripeError(
              400,
              "idempotency_error",
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            );
          }
          return { ...earlier.reply, headers: { ...earlier.reply.headers, ...baseHeaders, "Idempotent-Replayed": "true" } };
        }
        const reply = this.route(req.method, req.url.pathname, params);
        const withHeaders = { ...reply, headers: { ...reply.headers, ...baseHeaders, "Idempotency-Key": idempotencyKey } };
        // Stripe saves the result once the endpoint ran; requests that fail validation are not saved.
        if (reply.status < 400) this.idempotency.set(idempotencyKey, { fingerprint, reply: withHeaders });
        return withHeaders;
      }
      const reply = this.route(req.method, req.url.pathname, params);
      return { ...reply, headers: { ...reply.headers, ...baseHeaders } };
    } catch (error) {
      if (error instanceof FormError)
        return errorReply(new StripeError(400, "invalid_request_error", error.message, "parameter_invalid", error.param), baseHeaders);
      if (error instanceof StripeError) return errorReply(error, baseHeaders);
      throw error;
    }
  }

  private authenticate(req: SandboxRequest): void {
    const auth = header(req, "authorization") ?? "";
    let key = "";
    if (/^Bearer /i.test(auth)) key = auth.slice(7).trim();
    else if (/^Basic /i.test(auth)) key = Buffer.from(auth.slice(6), "base64").toString("utf8").split(":")[0];
    if (!key) {
      throw new StripeError(
        401,
        "invalid_request_error",
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    }
    if (key !== this.options.secretKey) {
      throw new StripeError(
        401,
        "invalid_request_error",
        `Invalid API Key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`,
      );
    }
  }

  private route(method: string, path: string, params: FormObject): Reply {
    let m: RegExpExecArray | null;
    if (method === "POST" && path === "/v1/accounts") return json(200, this.createAccount(params));
    if (method === "GET" && (m = /^\/v1\/accounts\/([^/]+)$/.exec(path)))
      return json(200, accountObject(this.account(m[1], "account", 404)));
    if (method === "POST" && path === "/v1/account_links") return json(200, this.createAccountLink(params));
    if (method === "POST" && (m = /^\/v1\/accounts\/([^/]+)\/login_links$/.exec(path)))
      return json(200, this.createLoginLink(m[1], params));
    if (method === "POST" && path === "/v1/checkout/sessions") return json(200, this.sessionObject(this.createSession(params)));
    if (method === "GET" && (m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)))
      return json(200, this.sessionObject(this.session(m[1])));
    if (method === "POST" && (m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path)))
      return json(200, this.sessionObject(this.expireSession(m[1])));
    if (method === "GET" && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) return json(200, this.intentObject(this.intent(m[1])));
    if (method === "POST" && path === "/v1/transfers") return json(200, transferObject(this.createTransfer(params)));
    if (method === "GET" && (m = /^\/v1\/transfers\/([^/]+)$/.exec(path))) {
      const transfer = this.transfers.get(m[1]);
      if (!transfer) throw new StripeError(404, "invalid_request_error", `No such transfer: '${m[1]}'`, "resource_missing", "id");
      return json(200, transferObject(transfer));
    }
    if (method === "GET" && path === "/v1/transfers") {
      const group = pickString(params, "transfer_group");
      const data = [...this.transfers.values()].filter((t) => !group || t.transferGroup === group).map(transferObject);
      return json(200, { object: "list", data, has_more: false, url: "/v1/transfers" });
    }
    if (method === "POST" && path === "/v1/refunds") return json(200, refundObject(this.createRefund(params)));
    if (method === "GET" && (m = /^\/v1\/refunds\/([^/]+)$/.exec(path))) {
      const refund = this.refunds.get(m[1]);
      if (!refund) throw new StripeError(404, "invalid_request_error", `No such refund: '${m[1]}'`, "resource_missing", "id");
      return json(200, refundObject(refund));
    }
    throw new StripeError(
      404,
      "invalid_request_error",
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    );
  }

  private account(id: string, param: string, status = 400): StripeAccount {
    const account = this.accounts.get(id);
    if (!account) throw new StripeError(status, "invalid_request_error", `No such account: '${id}'`, "resource_missing", param);
    return account;
  }

  private createAccount(params: FormObject): object {
    allowOnly(params, [
      "type",
      "country",
      "email",
      "capabilities",
      "business_type",
      "metadata",
      "business_profile",
      "controller",
      "settings",
      "default_currency",
      "expand",
    ]);
    const type = pickString(params, "type") ?? "express";
    if (!["express", "standard", "custom"].includes(type)) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "Invalid type: must be one of custom, express, or standard",
        "parameter_invalid_empty",
        "type",
      );
    }
    const country = (pickString(params, "country") ?? "NO").toUpperCase();
    if (!/^[A-Z]{2}$/.test(country))
      throw new StripeError(
        400,
        "invalid_request_error",
        `Country '${country}' is unknown. Try using a 2-character alphanumeric country code instead, such as 'US', 'EG', or 'GB'. A full list of country codes is available at https://stripe.com/global`,
        "country_unsupported",
        "country",
      );
    const email = pickString(params, "email") ?? null;
    if (email !== null && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
      throw new StripeError(400, "invalid_request_error", `Invalid email address: ${email}`, "email_invalid", "email");
    const capabilities = pick(params, "capabilities");
    const requested =
      capabilities && typeof capabilities === "object" && !Array.isArray(capabilities)
        ? Object.entries(capabilities)
            .filter(([, v]) => pickString(v, "requested") === "true")
            .map(([k]) => k)
        : [];
    const account: StripeAccount = {
      id: stripeId("acct", 16),
      created: unixNow(),
      type: type as StripeAccount["type"],
      country,
      email,
      metadata: pickMap(params, "metadata"),
      businessType: pickString(params, "business_type") ?? null,
      requestedCapabilities: requested,
      detailsSubmitted: false,
      chargesEnabled: false,
      payoutsEnabled: false,
      individual: null,
      externalAccountLast4: null,
    };
    this.accounts.set(account.id, account);
    return accountObject(account);
  }

  private createAccountLink(params: FormObject): object {
    allowOnly(params, ["account", "type", "refresh_url", "return_url", "collect", "collection_options", "expand"]);
    const accountId = pickString(params, "account");
    if (!accountId) throw missing("account");
    const type = pickString(params, "type");
    if (!type) throw missing("type");
    if (type !== "account_onboarding" && type !== "account_update") {
      throw new StripeError(
        400,
        "invalid_request_error",
        "Invalid type: must be one of account_onboarding or account_update",
        "parameter_invalid_empty",
        "type",
      );
    }
    const refreshUrl = pickString(params, "refresh_url");
    if (!refreshUrl) throw missing("refresh_url");
    const returnUrl = pickString(params, "return_url");
    if (!returnUrl) throw missing("return_url");
    for (const [param, url] of [
      ["refresh_url", refreshUrl],
      ["return_url", returnUrl],
    ] as const) {
      if (!isUrl(url)) throw new StripeError(400, "invalid_request_error", "Not a valid URL", "url_invalid", param);
    }
    this.account(accountId, "account");
    const link: AccountLink = {
      id: token(18),
      account: accountId,
      type,
      refreshUrl,
      returnUrl,
      created: unixNow(),
      expiresAt: unixNow() + ACCOUNT_LINK_LIFETIME_S,
      used: false,
    };
    this.links.set(link.id, link);
    return {
      object: "account_link",
      created: link.created,
      expires_at: link.expiresAt,
      url: `${this.options.publicUrl}/connect/onboarding/${link.id}`,
    };
  }

  private createLoginLink(accountId: string, params: FormObject): object {
    allowOnly(params, ["expand", "redirect_url"]);
    const account = this.account(accountId, "account", 404);
    if (account.type !== "express") {
      throw new StripeError(400, "invalid_request_error", "Login links can only be created for Express accounts.", undefined, "account");
    }
    if (!account.detailsSubmitted) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "Cannot create a login link for an account that has not completed onboarding.",
        undefined,
        "account",
      );
    }
    const t = token(18);
    this.loginTokens.set(t, accountId);
    return { object: "login_link", created: unixNow(), url: `${this.options.publicUrl}/express/${accountId}/${t}` };
  }

  private createSession(params: FormObject): CheckoutSession {
    allowOnly(params, [
      "mode",
      "line_items",
      "success_url",
      "cancel_url",
      "client_reference_id",
      "customer_email",
      "metadata",
      "locale",
      "expires_at",
      "payment_intent_data",
      "payment_method_types",
      "submit_type",
      "currency",
      "expand",
    ]);
    const mode = pickString(params, "mode");
    if (!mode) throw missing("mode");
    if (mode !== "payment") {
      throw new StripeError(
        400,
        "invalid_request_error",
        `The sandbox supports mode=payment only (got '${mode}').`,
        "parameter_invalid_empty",
        "mode",
      );
    }
    const successUrl = pickString(params, "success_url");
    if (!successUrl) throw missing("success_url");
    if (!isUrl(successUrl.replace("{CHECKOUT_SESSION_ID}", "x")))
      throw new StripeError(400, "invalid_request_error", "Not a valid URL", "url_invalid", "success_url");
    const cancelUrl = pickString(params, "cancel_url") ?? null;
    if (cancelUrl !== null && !isUrl(cancelUrl))
      throw new StripeError(400, "invalid_request_error", "Not a valid URL", "url_invalid", "cancel_url");

    const rawItems = pick(params, "line_items");
    if (!Array.isArray(rawItems) || rawItems.length === 0) throw missing("line_items");
    const lineItems = rawItems.map((item, i) => lineItem(item, i));
    const currency = lineItems[0].currency;
    if (lineItems.some((li) => li.currency !== currency)) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "All line items must use the same currency.",
        "parameter_invalid_empty",
        "line_items",
      );
    }
    const amountTotal = lineItems.reduce((sum, li) => sum + li.unitAmount * li.quantity, 0);
    if (currency === "nok" && amountTotal < MIN_AMOUNT_NOK) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "The Checkout Session's total amount due must add up to at least kr 3.00",
        "amount_too_small",
        "line_items",
      );
    }

    const created = unixNow();
    const expiresRaw = pickString(params, "expires_at");
    let expiresAt = created + SESSION_MAX_LIFETIME_S;
    if (expiresRaw !== undefined) {
      expiresAt = integer(expiresRaw, "expires_at");
      if (expiresAt < created + SESSION_MIN_LIFETIME_S) {
        throw new StripeError(
          400,
          "invalid_request_error",
          "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.",
          "parameter_invalid_integer",
          "expires_at",
        );
      }
      if (expiresAt > created + SESSION_MAX_LIFETIME_S) {
        throw new StripeError(
          400,
          "invalid_request_error",
          "The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.",
          "parameter_invalid_integer",
          "expires_at",
        );
      }
    }

    const pid = pick(params, "payment_intent_data");
    const destination = pickString(pid, "transfer_data.destination") ?? null;
    if (destination) {
      const account = this.accounts.get(destination);
      if (!account) {
        throw new StripeError(
          400,
          "invalid_request_error",
          `No such destination: '${destination}'`,
          "resource_missing",
          "payment_intent_data[transfer_data][destination]",
        );
      }
      if (!account.chargesEnabled) {
        throw new StripeError(
          400,
          "invalid_request_error",
          "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments",
          "insufficient_capabilities_for_transfer",
          "payment_intent_data[transfer_data][destination]",
        );
      }
    }
    const feeRaw = pickString(pid, "application_fee_amount");
    const applicationFeeAmount = feeRaw === undefined ? null : integer(feeRaw, "payment_intent_data[application_fee_amount]");
    if (applicationFeeAmount !== null) {
      if (!destination) {
        throw new StripeError(
          400,
          "invalid_request_error",
          "Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).",
          undefined,
          "payment_intent_data[application_fee_amount]",
        );
      }
      if (applicationFeeAmount < 0 || applicationFeeAmount > amountTotal) {
        throw new StripeError(
          400,
          "invalid_request_error",
          "The application fee amount must be between 0 and the total amount.",
          "parameter_invalid_integer",
          "payment_intent_data[application_fee_amount]",
        );
      }
    }

    const id = stripeId("cs_test", 58);
    const session: CheckoutSession = {
      id,
      created,
      expiresAt,
      status: "open",
      paymentStatus: "unpaid",
      currency,
      amountTotal,
      lineItems,
      successUrl,
      cancelUrl,
      clientReferenceId: pickString(params, "client_reference_id") ?? null,
      customerEmail: pickString(params, "customer_email") ?? null,
      customerDetails: null,
      metadata: pickMap(params, "metadata"),
      locale: pickString(params, "locale") ?? null,
      paymentIntent: null,
      destination,
      applicationFeeAmount,
      paymentIntentMetadata: pickMap(pid, "metadata"),
      paymentIntentDescription: pickString(pid, "description") ?? null,
      transferGroup: pickString(pid, "transfer_group") ?? null,
    };
    this.sessions.set(id, session);
    return session;
  }

  private session(id: string): CheckoutSession {
    const session = this.sessions.get(id);
    if (!session) throw new StripeError(404, "invalid_request_error", `No such checkout.session: '${id}'`, "resource_missing", "session");
    return session;
  }

  private expireSession(id: string): CheckoutSession {
    const session = this.session(id);
    if (session.status !== "open") {
      throw new StripeError(
        400,
        "invalid_request_error",
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
        undefined,
        "session",
      );
    }
    this.markExpired(session);
    return session;
  }

  private markExpired(session: CheckoutSession): void {
    session.status = "expired";
    this.emit("checkout.session.expired", this.sessionObject(session), session.id);
  }

  private expireDue(): void {
    const now = unixNow();
    for (const session of this.sessions.values()) {
      if (session.status === "open" && session.expiresAt <= now) this.markExpired(session);
    }
  }

  private createRefund(params: FormObject): StripeRefund {
    allowOnly(params, ["payment_intent", "charge", "amount", "reason", "metadata", "reverse_transfer", "refund_application_fee", "expand"]);
    const piId = pickString(params, "payment_intent");
    const chargeId = pickString(params, "charge");
    if (!piId && !chargeId) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "One of the following params should be provided for this request: payment_intent or charge.",
        "parameter_missing",
      );
    }
    const intent = piId ? this.paymentIntents.get(piId) : [...this.paymentIntents.values()].find((p) => p.chargeId === chargeId);
    if (!intent) {
      const param = piId ? "payment_intent" : "charge";
      throw new StripeError(400, "invalid_request_error", `No such ${param}: '${piId ?? chargeId}'`, "resource_missing", param);
    }
    const remaining = intent.amount - intent.amountRefunded;
    if (remaining <= 0) {
      throw new StripeError(
        400,
        "invalid_request_error",
        `Charge ${intent.chargeId} has already been refunded.`,
        "charge_already_refunded",
      );
    }
    const amountRaw = pickString(params, "amount");
    const amount = amountRaw === undefined ? remaining : integer(amountRaw, "amount");
    if (amount <= 0) throw new StripeError(400, "invalid_request_error", "Invalid positive integer", "parameter_invalid_integer", "amount");
    if (amount > remaining) {
      throw new StripeError(
        400,
        "invalid_request_error",
        `Refund amount (${money(amount, intent.currency)}) is greater than unrefunded amount on charge (${money(remaining, intent.currency)})`,
        "amount_too_large",
        "amount",
      );
    }
    const reason = pickString(params, "reason") ?? null;
    if (reason !== null && !["duplicate", "fraudulent", "requested_by_customer"].includes(reason)) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer",
        "parameter_invalid_empty",
        "reason",
      );
    }
    const reverse = pickString(params, "reverse_transfer") === "true";
    if (reverse && !intent.destination) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "You can only reverse transfers for charges that were created with a destination.",
        undefined,
        "reverse_transfer",
      );
    }
    intent.amountRefunded += amount;
    const refund: StripeRefund = {
      id: stripeId("re", 24),
      amount,
      currency: intent.currency,
      created: unixNow(),
      paymentIntent: intent.id,
      chargeId: intent.chargeId,
      reason,
      metadata: pickMap(params, "metadata"),
      transferReversal: reverse ? stripeId("trr", 24) : null,
      refundedApplicationFee: pickString(params, "refund_application_fee") === "true",
    };
    this.refunds.set(refund.id, refund);
    this.emit("refund.created", refundObject(refund), intent.sessionId);
    this.emit("charge.refunded", this.chargeObject(intent), intent.sessionId);
    return refund;
  }

  private intent(id: string): PaymentIntent {
    const intent = this.paymentIntents.get(id);
    if (!intent) throw new StripeError(404, "invalid_request_error", `No such payment_intent: '${id}'`, "resource_missing", "intent");
    return intent;
  }

  /** What a charge still holds for transfers: its amount less refunds and earlier transfers from it. */
  private transferable(intent: PaymentIntent): number {
    const transferred = [...this.transfers.values()]
      .filter((t) => t.sourceTransaction === intent.chargeId)
      .reduce((sum, t) => sum + t.amount, 0);
    return intent.amount - intent.amountRefunded - transferred;
  }

  /**
   * A Transfer from the platform's balance to a connected account (separate charges and transfers).
   * With `source_transaction` it is funded by that charge, and only up to what the charge still
   * holds. The account must have the transfers capability active, as Stripe requires.
   */
  private createTransfer(params: FormObject): StripeTransfer {
    allowOnly(params, ["amount", "currency", "destination", "transfer_group", "source_transaction", "metadata", "description", "expand"]);
    const amountRaw = pickString(params, "amount");
    if (amountRaw === undefined) throw missing("amount");
    const amount = integer(amountRaw, "amount");
    if (amount <= 0) throw new StripeError(400, "invalid_request_error", "Invalid positive integer", "parameter_invalid_integer", "amount");
    const currency = pickString(params, "currency");
    if (!currency) throw missing("currency");
    const destination = pickString(params, "destination");
    if (!destination) throw missing("destination");
    const account = this.account(destination, "destination");
    if (!account.chargesEnabled || !account.payoutsEnabled) {
      throw new StripeError(
        400,
        "invalid_request_error",
        "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments",
        "insufficient_capabilities_for_transfer",
        "destination",
      );
    }
    const source = pickString(params, "source_transaction") ?? null;
    if (source) {
      const intent = [...this.paymentIntents.values()].find((p) => p.chargeId === source);
      if (!intent)
        throw new StripeError(400, "invalid_request_error", `No such charge: '${source}'`, "resource_missing", "source_transaction");
      if (intent.currency !== currency.toLowerCase()) {
        throw new StripeError(
          400,
          "invalid_request_error",
          `The currency of source_transaction's balance transaction (${intent.currency}) must be the same as the transfer currency (${currency.toLowerCase()})`,
          undefined,
          "currency",
        );
      }
      const left = this.transferable(intent);
      if (amount > left) {
        throw new StripeError(
          400,
          "invalid_request_error",
          `Insufficient funds in Stripe account. The transfer amount (${money(amount, intent.currency)}) is greater than what the source transaction has left (${money(left, intent.currency)}).`,
          "balance_insufficient",
          "amount",
        );
      }
    }
    const transfer: StripeTransfer = {
      id: stripeId("tr", 24),
      amount,
      currency: currency.toLowerCase(),
      created: unixNow(),
      destination,
      transferGroup: pickString(params, "transfer_group") ?? null,
      sourceTransaction: source,
      metadata: pickMap(params, "metadata"),
      description: pickString(params, "description") ?? null,
    };
    this.transfers.set(transfer.id, transfer);
    this.emit("transfer.created", transferObject(transfer), transfer.transferGroup ?? transfer.id);
    return transfer;
  }

  /** Sandbox-only: the account can no longer receive (Stripe disables transfers until requirements are met). */
  restrictAccount(id: string): StripeAccount | null {
    const account = this.accounts.get(id);
    if (!account) return null;
    account.chargesEnabled = false;
    account.payoutsEnabled = false;
    this.emit("account.updated", accountObject(account), account.id, account.id);
    return account;
  }

  // ---------------------------------------------------------------- events

  private emit(type: string, object: object, objectId: string, account?: string): void {
    const event = {
      id: stripeId("evt", 24),
      object: "event",
      ...(account ? { account } : {}),
      api_version: STRIPE_API_VERSION,
      created: unixNow(),
      data: { object },
      livemode: false,
      pending_webhooks: this.options.endpoints.length,
      request: { id: null, idempotency_key: null },
      type,
    };
    const body = JSON.stringify(event, null, 2);
    for (const endpoint of this.options.endpoints) {
      if (endpoint.events.includes("*") || endpoint.events.includes(type)) this.options.dispatcher.send(endpoint, type, objectId, body);
    }
  }

  // ---------------------------------------------------------------- hosted pages

  private checkoutPage(req: SandboxRequest, id: string): Reply {
    const session = this.sessions.get(id);
    if (!session) return html(404, messagePage("Fant ikke betalingen", "Denne betalingslenken finnes ikke."));
    if (session.status !== "open") {
      const text =
        session.status === "complete"
          ? "Denne betalingen er allerede fullført."
          : "Betalingsøkten er utløpt. Gå tilbake og start betalingen på nytt.";
      return html(410, messagePage("Betalingen er ikke åpen", text, session.cancelUrl ?? undefined));
    }
    const view = {
      id,
      title: session.lineItems[0]?.name ?? "Betaling",
      amount: money(session.amountTotal, session.currency),
      cancelUrl: session.cancelUrl,
    };
    if (req.method === "GET")
      return html(200, checkoutPage(view, { email: session.customerEmail ?? "", card: "", expiry: "", cvc: "", name: "" }));
    if (req.method !== "POST") return html(405, messagePage("Ikke tillatt", "Metoden støttes ikke."));

    const form = Object.fromEntries(new URLSearchParams(req.body)) as Record<string, string>;
    const values: CheckoutForm = {
      email: form.email ?? "",
      card: form.card ?? "",
      expiry: form.expiry ?? "",
      cvc: form.cvc ?? "",
      name: form.name ?? "",
    };
    const errors = validateCard(values);
    if (Object.keys(errors).length > 0) return html(400, checkoutPage(view, values, errors));
    if (DECLINED_CARDS.has(values.card.replace(/\s+/g, ""))) {
      return html(402, checkoutPage(view, values, { card: "Kortet ble avvist. Prøv et annet kort." }));
    }
    this.pay(session, values);
    return redirect(session.successUrl.replace("{CHECKOUT_SESSION_ID}", session.id));
  }

  /** The card was accepted: the PaymentIntent succeeds, the session completes, the event goes out. */
  pay(session: CheckoutSession, values: { email: string; name: string }): void {
    const intent: PaymentIntent = {
      id: stripeId("pi", 24),
      chargeId: stripeId("ch", 24),
      sessionId: session.id,
      amount: session.amountTotal,
      currency: session.currency,
      created: unixNow(),
      destination: session.destination,
      applicationFeeAmount: session.applicationFeeAmount ?? 0,
      amountRefunded: 0,
      transferGroup: session.transferGroup ?? null,
    };
    this.paymentIntents.set(intent.id, intent);
    session.status = "complete";
    session.paymentStatus = "paid";
    session.paymentIntent = intent.id;
    session.customerDetails = { email: values.email, name: values.name || null };
    this.emit("checkout.session.completed", this.sessionObject(session), session.id);
  }

  private onboardingPage(req: SandboxRequest, linkId: string): Reply {
    const link = this.links.get(linkId);
    if (!link) return html(404, messagePage("Lenken finnes ikke", "Denne registreringslenken er ugyldig."));
    if (link.used || link.expiresAt < unixNow()) return redirect(link.refreshUrl);
    const account = this.accounts.get(link.account);
    if (!account) return html(404, messagePage("Kontoen finnes ikke", "Kontoen er slettet."));
    if (req.method === "GET")
      return html(200, onboardingPage(linkId, account.email ?? "", { firstName: "", lastName: "", accountNumber: "" }));
    if (req.method !== "POST") return html(405, messagePage("Ikke tillatt", "Metoden støttes ikke."));
    const form = Object.fromEntries(new URLSearchParams(req.body)) as Record<string, string>;
    const values = {
      firstName: (form.first_name ?? "").trim(),
      lastName: (form.last_name ?? "").trim(),
      accountNumber: (form.account_number ?? "").replace(/[\s.]/g, ""),
    };
    const errors: Record<string, string> = {};
    if (!values.firstName) errors.first_name = "Skriv inn fornavnet ditt.";
    if (!values.lastName) errors.last_name = "Skriv inn etternavnet ditt.";
    if (!/^\d{11}$/.test(values.accountNumber)) errors.account_number = "Kontonummeret må ha 11 siffer.";
    if (Object.keys(errors).length > 0) return html(400, onboardingPage(linkId, account.email ?? "", values, errors));
    link.used = true;
    account.individual = { first_name: values.firstName, last_name: values.lastName };
    account.externalAccountLast4 = values.accountNumber.slice(-4);
    account.detailsSubmitted = true;
    account.chargesEnabled = true;
    account.payoutsEnabled = true;
    this.emit("account.updated", accountObject(account), account.id, account.id);
    return redirect(link.returnUrl);
  }

  private dashboardPage(accountId: string, loginToken: string): Reply {
    if (this.loginTokens.get(loginToken) !== accountId)
      return html(404, messagePage("Lenken finnes ikke", "Logg inn på nytt fra Lekebytte."));
    const account = this.accounts.get(accountId);
    if (!account) return html(404, messagePage("Kontoen finnes ikke", "Kontoen er slettet."));
    const destinationCharges = [...this.paymentIntents.values()]
      .filter((p) => p.destination === accountId)
      .map((p) => {
        const session = this.sessions.get(p.sessionId);
        return {
          title: session?.lineItems[0]?.name ?? p.id,
          amount: money(p.amount - p.applicationFeeAmount, p.currency),
          refunded: p.amountRefunded > 0,
          created: new Date(p.created * 1000),
        };
      });
    // Separate charges and transfers: what reached the account is the transfers to it.
    const transfers = [...this.transfers.values()]
      .filter((t) => t.destination === accountId)
      .map((t) => {
        const intent = [...this.paymentIntents.values()].find((p) => p.chargeId === t.sourceTransaction);
        const session = intent ? this.sessions.get(intent.sessionId) : undefined;
        return {
          title: `Overføring: ${session?.lineItems[0]?.name ?? t.description ?? t.id}`,
          amount: money(t.amount, t.currency),
          refunded: false,
          created: new Date(t.created * 1000),
        };
      });
    const payments = [...destinationCharges, ...transfers].sort((a, b) => a.created.getTime() - b.created.getTime());
    const name = account.individual ? `${account.individual.first_name} ${account.individual.last_name}` : (account.email ?? account.id);
    return html(200, dashboardPage(name, account.payoutsEnabled, payments));
  }

  // ---------------------------------------------------------------- objects

  intentObject(p: PaymentIntent): object {
    return {
      id: p.id,
      object: "payment_intent",
      amount: p.amount,
      amount_received: p.amount,
      application_fee_amount: p.applicationFeeAmount || null,
      created: p.created,
      currency: p.currency,
      latest_charge: p.chargeId,
      livemode: false,
      status: "succeeded",
      transfer_data: p.destination ? { destination: p.destination } : null,
      transfer_group: p.transferGroup,
    };
  }

  chargeObject(p: PaymentIntent): object {
    return {
      id: p.chargeId,
      object: "charge",
      amount: p.amount,
      amount_captured: p.amount,
      amount_refunded: p.amountRefunded,
      captured: true,
      created: p.created,
      currency: p.currency,
      livemode: false,
      paid: true,
      payment_intent: p.id,
      refunded: p.amountRefunded >= p.amount,
      status: "succeeded",
      transfer_group: p.transferGroup,
    };
  }

  sessionObject(s: CheckoutSession): object {
    return {
      id: s.id,
      object: "checkout.session",
      adaptive_pricing: { enabled: false },
      after_expiration: null,
      allow_promotion_codes: null,
      amount_subtotal: s.amountTotal,
      amount_total: s.amountTotal,
      automatic_tax: { enabled: false, liability: null, provider: null, status: null },
      billing_address_collection: null,
      cancel_url: s.cancelUrl,
      client_reference_id: s.clientReferenceId,
      client_secret: null,
      collected_information: null,
      consent: null,
      consent_collection: null,
      created: s.created,
      currency: s.currency,
      custom_fields: [],
      custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      customer: null,
      customer_creation: "if_required",
      customer_details: s.customerDetails
        ? {
            address: { city: null, country: "NO", line1: null, line2: null, postal_code: null, state: null },
            email: s.customerDetails.email,
            name: s.customerDetails.name,
            phone: null,
            tax_exempt: "none",
            tax_ids: [],
          }
        : null,
      customer_email: s.customerEmail,
      discounts: [],
      expires_at: s.expiresAt,
      invoice: null,
      invoice_creation: null,
      livemode: false,
      locale: s.locale,
      metadata: s.metadata,
      mode: "payment",
      payment_intent: s.paymentIntent,
      payment_link: null,
      payment_method_collection: "if_required",
      payment_method_options: {},
      payment_method_types: ["card"],
      payment_status: s.paymentStatus,
      phone_number_collection: { enabled: false },
      recovered_from: null,
      saved_payment_method_options: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_options: [],
      status: s.status,
      submit_type: null,
      subscription: null,
      success_url: s.successUrl,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: "hosted",
      url: s.status === "open" ? `${this.options.publicUrl}/c/pay/${s.id}` : null,
    };
  }
}

function accountObject(a: StripeAccount): object {
  const due = a.detailsSubmitted
    ? []
    : [
        "business_profile.url",
        "external_account",
        "individual.first_name",
        "individual.last_name",
        "tos_acceptance.date",
        "tos_acceptance.ip",
      ];
  const capabilityState = a.chargesEnabled ? "active" : "inactive";
  return {
    id: a.id,
    object: "account",
    business_profile: {
      mcc: null,
      name: null,
      product_description: null,
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: null,
    },
    business_type: a.businessType,
    capabilities: Object.fromEntries(a.requestedCapabilities.map((c) => [c, capabilityState])),
    charges_enabled: a.chargesEnabled,
    controller: {
      fees: { payer: "application" },
      is_controller: true,
      losses: { payments: "application" },
      requirement_collection: "stripe",
      stripe_dashboard: { type: a.type === "express" ? "express" : "full" },
      type: "application",
    },
    country: a.country,
    created: a.created,
    default_currency: "nok",
    details_submitted: a.detailsSubmitted,
    email: a.email,
    external_accounts: {
      object: "list",
      data: a.externalAccountLast4
        ? [
            {
              id: `ba_${a.id.slice(5)}`,
              object: "bank_account",
              account: a.id,
              country: a.country,
              currency: "nok",
              last4: a.externalAccountLast4,
              status: "new",
            },
          ]
        : [],
      has_more: false,
      total_count: a.externalAccountLast4 ? 1 : 0,
      url: `/v1/accounts/${a.id}/external_accounts`,
    },
    future_requirements: {
      alternatives: [],
      current_deadline: null,
      currently_due: [],
      disabled_reason: null,
      errors: [],
      eventually_due: [],
      past_due: [],
      pending_verification: [],
    },
    metadata: a.metadata,
    payouts_enabled: a.payoutsEnabled,
    requirements: {
      alternatives: [],
      current_deadline: null,
      currently_due: due,
      disabled_reason: a.detailsSubmitted ? null : "requirements.past_due",
      errors: [],
      eventually_due: due,
      past_due: due,
      pending_verification: [],
    },
    settings: {
      dashboard: { display_name: null, timezone: "Europe/Oslo" },
      payouts: { debit_negative_balances: true, schedule: { delay_days: 7, interval: "daily" }, statement_descriptor: null },
    },
    tos_acceptance: { date: a.detailsSubmitted ? a.created : null, ip: null, user_agent: null },
    type: a.type,
  };
}

function transferObject(t: StripeTransfer): object {
  return {
    id: t.id,
    object: "transfer",
    amount: t.amount,
    amount_reversed: 0,
    balance_transaction: `txn_${t.id.slice(3)}`,
    created: t.created,
    currency: t.currency,
    description: t.description,
    destination: t.destination,
    destination_payment: `py_${t.id.slice(3)}`,
    livemode: false,
    metadata: t.metadata,
    reversals: { object: "list", data: [], has_more: false, total_count: 0, url: `/v1/transfers/${t.id}/reversals` },
    reversed: false,
    source_transaction: t.sourceTransaction,
    source_type: "card",
    transfer_group: t.transferGroup,
  };
}

function refundObject(r: StripeRefund): object {
  return {
    id: r.id,
    object: "refund",
    amount: r.amount,
    balance_transaction: `txn_${r.id.slice(3)}`,
    charge: r.chargeId,
    created: r.created,
    currency: r.currency,
    destination_details: {
      card: { reference_status: "pending", reference_type: "acquirer_reference_number", type: "refund" },
      type: "card",
    },
    metadata: r.metadata,
    payment_intent: r.paymentIntent,
    reason: r.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: "succeeded",
    transfer_reversal: r.transferReversal,
  };
}

function lineItem(item: FormValue, i: number): LineItem {
  const param = `line_items[${i}]`;
  if (typeof item !== "object" || Array.isArray(item)) throw missing(`${param}[price_data]`);
  if (pickString(item, "price")) {
    throw new StripeError(
      400,
      "invalid_request_error",
      "The sandbox supports line items with price_data only.",
      "parameter_invalid_empty",
      `${param}[price]`,
    );
  }
  const currency = pickString(item, "price_data.currency");
  if (!currency) throw missing(`${param}[price_data][currency]`);
  if (!/^[a-z]{3}$/.test(currency))
    throw new StripeError(
      400,
      "invalid_request_error",
      `Invalid currency: ${currency}.`,
      "parameter_invalid_empty",
      `${param}[price_data][currency]`,
    );
  const name = pickString(item, "price_data.product_data.name");
  if (!name) throw missing(`${param}[price_data][product_data][name]`);
  const unitRaw = pickString(item, "price_data.unit_amount");
  if (unitRaw === undefined) throw missing(`${param}[price_data][unit_amount]`);
  const unitAmount = integer(unitRaw, `${param}[price_data][unit_amount]`);
  if (unitAmount < 0)
    throw new StripeError(
      400,
      "invalid_request_error",
      "This value must be greater than or equal to 0.",
      "parameter_invalid_integer",
      `${param}[price_data][unit_amount]`,
    );
  const quantityRaw = pickString(item, "quantity");
  if (quantityRaw === undefined) throw missing(`${param}[quantity]`);
  const quantity = integer(quantityRaw, `${param}[quantity]`);
  if (quantity < 1)
    throw new StripeError(
      400,
      "invalid_request_error",
      "This value must be greater than or equal to 1.",
      "parameter_invalid_integer",
      `${param}[quantity]`,
    );
  return { name, unitAmount, quantity, currency };
}

function integer(raw: string, param: string): number {
  if (!/^-?\d+$/.test(raw))
    throw new StripeError(400, "invalid_request_error", `Invalid integer: ${raw}`, "parameter_invalid_integer", param);
  return Number(raw);
}

function allowOnly(params: FormObject, allowed: string[]): void {
  for (const key of Object.keys(params)) if (!allowed.includes(key)) throw unknownParam(key);
}

function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

function errorReply(error: StripeError, headers: Record<string, string>): Reply {
  return json(
    error.status,
    {
      error: {
        ...(error.code ? { code: error.code, doc_url: `https://stripe.com/docs/error-codes/${error.code.replace(/_/g, "-")}` } : {}),
        message: error.message,
        ...(error.param ? { param: error.param } : {}),
        request_log_url: `https://dashboard.stripe.com/test/logs/${headers["Request-Id"]}`,
        type: error.type,
      },
    },
    headers,
  );
}

export function money(minor: number, currency: string): string {
  const amount = new Intl.NumberFormat("nb-NO", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(minor / 100);
  return currency.toLowerCase() === "nok" ? `${amount} kr` : `${amount} ${currency.toUpperCase()}`;
}

/** Stripe's documented test card that is always declined. */
const DECLINED_CARDS = new Set(["4000000000000002"]);

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function validateCard(values: CheckoutForm): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.email.trim())) errors.email = "Skriv inn en gyldig e-postadresse.";
  const card = values.card.replace(/\s+/g, "");
  if (!/^\d{13,19}$/.test(card) || !luhn(card)) errors.card = "Kortnummeret er ugyldig.";
  const exp = /^(\d{2})\s*\/\s*(\d{2})$/.exec(values.expiry.trim());
  if (!exp || Number(exp[1]) < 1 || Number(exp[1]) > 12) {
    errors.expiry = "Utløpsdatoen må skrives MM / ÅÅ.";
  } else {
    const now = new Date();
    const year = 2000 + Number(exp[2]);
    const month = Number(exp[1]);
    if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) errors.expiry = "Kortet er utløpt.";
  }
  if (!/^\d{3,4}$/.test(values.cvc.trim())) errors.cvc = "CVC må være 3 siffer.";
  return errors;
}
