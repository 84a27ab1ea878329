// The parts of Stripe's REST API (v1, form-encoded) that Lekebytte uses, with Stripe's object shapes
// and error envelope, taken from Stripe's OpenAPI description (stripe/openapi: spec3 and fixtures3):
// Connect Express accounts, account links, login links, Checkout Sessions (create, retrieve,
// expire), PaymentIntents (retrieve), refunds, and transfers to connected accounts (separate charges
// and transfers: a `transfer_group` per order, `source_transaction` tying a transfer to its charge). Plus the hosted pages a person uses: Checkout's card form, Connect onboarding
// and the Express dashboard.
//
// The parts: stripe-store.ts (the records, their store and events), stripe-errors.ts (the error
// envelope and parameter checks), stripe-objects.ts (the JSON objects), stripe-connect.ts (accounts,
// onboarding, the dashboard), stripe-checkout.ts (sessions and the card form), stripe-money.ts
// (refunds and transfers). This file is the API's door: authentication, idempotency and routing.
import { createHash } from "node:crypto";
import { FormError, parseForm, pickString, type FormObject } from "./form";
import { header, json, type Reply, type SandboxRequest } from "./http";
import { everySecond, stripeId } from "./ids";
import { createSession, expireDue, expireSession, hostedCheckout } from "./stripe-checkout";
import { createAccount, createAccountLink, createLoginLink, expressDashboard, hostedOnboarding, restrictAccount } from "./stripe-connect";
import { StripeError, errorReply } from "./stripe-errors";
import { createRefund, createTransfer } from "./stripe-money";
import { accountObject, intentObject, refundObject, sessionObject, transferObject } from "./stripe-objects";
import { STRIPE_API_VERSION, type StripeAccount, StripeStore } from "./stripe-store";

export { money } from "./stripe-errors";
export {
  STRIPE_API_VERSION,
  type CheckoutSession,
  type PaymentIntent,
  type StripeAccount,
  type StripeRefund,
  type StripeSandboxOptions,
  type StripeState,
  type StripeTransfer,
} from "./stripe-store";

interface IdempotentResult {
  fingerprint: string;
  reply: Reply;
}

export class StripeSandbox extends StripeStore {
  /** Every API call (method, path, idempotency key), for tests that check what the app asked for. */
  readonly requests: Array<{ method: string; path: string; idempotencyKey: string | null; params: FormObject; at: string }> = [];
  private readonly idempotency = new Map<string, IdempotentResult>();
  /** Open sessions past expires_at expire as Stripe expires them, with a checkout.session.expired event. */
  readonly close = everySecond(() => expireDue(this));

  /** Routes of the API (/v1/…) and of the hosted pages; null when the path is not Stripe's. */
  handle(req: SandboxRequest): Reply | null {
    const path = req.url.pathname;
    if (path.startsWith("/v1/")) return this.api(req);
    let m: RegExpExecArray | null;
    if ((m = /^\/c\/pay\/([A-Za-z0-9_]+)$/.exec(path))) return hostedCheckout(this, req, m[1]);
    if ((m = /^\/connect\/onboarding\/([A-Za-z0-9_-]+)$/.exec(path))) return hostedOnboarding(this, req, m[1]);
    if ((m = /^\/express\/(acct_[A-Za-z0-9]+)\/([A-Za-z0-9_-]+)$/.exec(path))) return expressDashboard(this, m[1], m[2]);
    return null;
  }

  /** Sandbox-only: the account can no longer receive (Stripe disables transfers until requirements are met). */
  restrictAccount(id: string): StripeAccount | null {
    return restrictAccount(this, id);
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
    if (method === "POST" && path === "/v1/accounts") return json(200, createAccount(this, params));
    if (method === "GET" && (m = /^\/v1\/accounts\/([^/]+)$/.exec(path)))
      return json(200, accountObject(this.account(m[1], "account", 404)));
    if (method === "POST" && path === "/v1/account_links") return json(200, createAccountLink(this, params));
    if (method === "POST" && (m = /^\/v1\/accounts\/([^/]+)\/login_links$/.exec(path)))
      return json(200, createLoginLink(this, m[1], params));
    if (method === "POST" && path === "/v1/checkout/sessions")
      return json(200, sessionObject(createSession(this, params), this.options.publicUrl));
    if (method === "GET" && (m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)))
      return json(200, sessionObject(this.session(m[1]), this.options.publicUrl));
    if (method === "POST" && (m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path)))
      return json(200, sessionObject(expireSession(this, m[1]), this.options.publicUrl));
    if (method === "GET" && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) return json(200, intentObject(this.intent(m[1])));
    if (method === "POST" && path === "/v1/transfers") return json(200, transferObject(createTransfer(this, params)));
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
    if (method === "POST" && path === "/v1/refunds") return json(200, refundObject(createRefund(this, params)));
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
}
