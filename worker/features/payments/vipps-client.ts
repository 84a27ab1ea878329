// A small client for the Vipps MobilePay access token and ePayment v1 APIs, as their OpenAPI
// descriptions define them. Its own client (not @vippsmobilepay/sdk) because the SDK hard-codes the
// base URL: here the base URL comes from configuration, so the same code talks to Vipps and to the
// local payment sandbox.
import type { VippsConfig } from "./config";

export type VippsState = "CREATED" | "ABORTED" | "EXPIRED" | "AUTHORIZED" | "TERMINATED";

export interface VippsAmount {
  currency: string;
  value: number;
}

export interface VippsPayment {
  reference: string;
  state: VippsState;
  amount: VippsAmount;
  pspReference: string;
  aggregate: { authorizedAmount: VippsAmount; cancelledAmount: VippsAmount; capturedAmount: VippsAmount; refundedAmount: VippsAmount };
}

export interface CreatePaymentRequest {
  amount: VippsAmount;
  paymentMethod: { type: "WALLET" };
  reference: string;
  userFlow: "WEB_REDIRECT";
  returnUrl: string;
  paymentDescription: string;
  metadata?: Record<string, string>;
}

/** An error answer from Vipps (RFC 7807 problem) or a failed request. */
export class VippsError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
  ) {
    super(`Vipps ${status} ${title}: ${detail}`);
    this.name = "VippsError";
  }
}

const SYSTEM_HEADERS = { "Vipps-System-Name": "lekebytte", "Vipps-System-Version": "1.0.0" };

/** Access tokens live an hour (test) or a day (production); one per isolate and credentials is plenty. */
const tokenCache = new Map<string, { token: string; expiresAt: number }>();

export class VippsClient {
  constructor(
    private readonly config: VippsConfig,
    private readonly fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  async createPayment(body: CreatePaymentRequest, idempotencyKey: string): Promise<{ redirectUrl: string; reference: string }> {
    return this.call("POST", "/epayment/v1/payments", body, idempotencyKey);
  }

  async getPayment(reference: string): Promise<VippsPayment> {
    return this.call("GET", `/epayment/v1/payments/${encodeURIComponent(reference)}`);
  }

  async capture(reference: string, amount: VippsAmount, idempotencyKey: string): Promise<VippsPayment> {
    return this.call(
      "POST",
      `/epayment/v1/payments/${encodeURIComponent(reference)}/capture`,
      { modificationAmount: amount },
      idempotencyKey,
    );
  }

  async cancel(reference: string, idempotencyKey: string): Promise<VippsPayment> {
    return this.call("POST", `/epayment/v1/payments/${encodeURIComponent(reference)}/cancel`, undefined, idempotencyKey);
  }

  async refund(reference: string, amount: VippsAmount, idempotencyKey: string): Promise<VippsPayment> {
    return this.call(
      "POST",
      `/epayment/v1/payments/${encodeURIComponent(reference)}/refund`,
      { modificationAmount: amount },
      idempotencyKey,
    );
  }

  private cacheKey(): string {
    return `${this.config.baseUrl} ${this.config.clientId} ${this.config.msn}`;
  }

  private async accessToken(): Promise<string> {
    const cached = tokenCache.get(this.cacheKey());
    if (cached && cached.expiresAt > Date.now() + 60_000) return cached.token;
    const res = await this.fetchImpl(`${this.config.baseUrl}/accesstoken/get`, {
      method: "POST",
      headers: {
        client_id: this.config.clientId,
        client_secret: this.config.clientSecret,
        "Ocp-Apim-Subscription-Key": this.config.subscriptionKey,
        "Merchant-Serial-Number": this.config.msn,
        ...SYSTEM_HEADERS,
      },
    });
    const text = await res.text();
    if (!res.ok) throw new VippsError(res.status, "Access token", summarise(text));
    const body = JSON.parse(text) as { access_token: string; expires_in: string };
    tokenCache.set(this.cacheKey(), { token: body.access_token, expiresAt: Date.now() + Number(body.expires_in) * 1000 });
    return body.access_token;
  }

  private async call<T>(method: string, path: string, body?: unknown, idempotencyKey?: string, retried = false): Promise<T> {
    const token = await this.accessToken();
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      "Ocp-Apim-Subscription-Key": this.config.subscriptionKey,
      "Merchant-Serial-Number": this.config.msn,
      Accept: "application/json",
      ...SYSTEM_HEADERS,
    };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    const res = await this.fetchImpl(`${this.config.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status === 401 && !retried) {
      // The token may have been revoked or expired early: fetch a new one once.
      tokenCache.delete(this.cacheKey());
      return this.call(method, path, body, idempotencyKey, true);
    }
    if (!res.ok) {
      let title = res.statusText;
      let detail = summarise(text);
      try {
        const problem = JSON.parse(text) as { title?: string; detail?: string };
        title = problem.title ?? title;
        detail = problem.detail ?? detail;
      } catch {
        // not JSON
      }
      throw new VippsError(res.status, title, detail);
    }
    return (text ? JSON.parse(text) : {}) as T;
  }
}

function summarise(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
