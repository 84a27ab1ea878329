// The parts of the Vipps MobilePay APIs that Lekebytte uses, shaped as their OpenAPI descriptions say
// (vippsas/vipps-epayment-api docs/epayment.v1.yml, vippsas/access-token-api, vippsas/webhooks-api):
// the access token (POST /accesstoken/get), ePayment v1 (create, get, events, capture, cancel,
// refund, the test environment's force-approve), webhook registration, and the landing page where a
// person enters a phone number and approves or cancels in "the app".
//
// The payments themselves are in vipps-payments.ts, the landing page and "the app" in
// vipps-landing.ts.
import { randomUUID } from "node:crypto";
import { header, json, problemJson, type Reply, type SandboxRequest } from "./http";
import { token } from "./ids";
import { app, landing } from "./vipps-landing";
import { type Amount, Problem, type VippsPayment, VippsPayments, parseJson, randomDigits } from "./vipps-payments";
import type { WebhookEndpoint } from "./webhooks";

export type { VippsPayment, VippsSandboxOptions, VippsState } from "./vipps-payments";

const TOKEN_LIFETIME_S = 3600;
const REFERENCE_RE = /^[a-zA-Z0-9-]{8,50}$/;

const PROBLEM_TYPE = "https://developer.vippsmobilepay.com/docs/APIs/epayment-api/api-guide/errors";

export class VippsSandbox extends VippsPayments {
  readonly requests: Array<{ method: string; path: string; idempotencyKey: string | null; at: string }> = [];
  private readonly tokens = new Map<string, number>();
  private readonly idempotency = new Map<string, { fingerprint: string; reply: Reply }>();

  handle(req: SandboxRequest): Reply | null {
    const path = req.url.pathname;
    if (path === "/accesstoken/get") return this.accessToken(req);
    if (path.startsWith("/epayment/v1/") || path.startsWith("/webhooks/v1/")) return this.api(req);
    if (path === "/vipps/landing") return landing(this, req);
    if (path === "/vipps/app") return app(this, req);
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
