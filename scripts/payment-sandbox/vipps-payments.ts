// The Vipps ePayment payments the sandbox keeps: their records, the state changes (authorized,
// aborted, expired, captured, cancelled, refunded) each recorded as an event and sent to the hooks
// that take its type, and the payment as the ePayment API shows it.
import { everySecond } from "./ids";
import type { WebhookDispatcher, WebhookEndpoint } from "./webhooks";

type State = "CREATED" | "ABORTED" | "EXPIRED" | "AUTHORIZED" | "TERMINATED";
export type EventName = "CREATED" | "ABORTED" | "EXPIRED" | "CANCELLED" | "CAPTURED" | "REFUNDED" | "AUTHORIZED" | "TERMINATED";

export interface Amount {
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

/** An error the ePayment and Webhooks APIs answer as a problem+json body. */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly extraDetails?: Array<{ name: string; reason: string }>,
  ) {
    super(detail);
  }
}

/** The payments and the hooks registered for their events; the API and the landing pages build on it. */
export class VippsPayments {
  readonly payments = new Map<string, VippsPayment>();
  readonly hooks: WebhookEndpoint[];
  /** Payments nobody approves expire, with their webhook. */
  readonly close = everySecond(() => this.expireDue());

  constructor(protected readonly options: VippsSandboxOptions) {
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

  protected payment(reference: string): VippsPayment {
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

  protected record(payment: VippsPayment, name: EventName, value: number, idempotencyKey: string | null): void {
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

  protected modification(payment: VippsPayment): object {
    return {
      amount: payment.amount,
      state: payment.state,
      aggregate: this.aggregate(payment),
      pspReference: payment.events.at(-1)?.pspReference ?? payment.pspReference,
      reference: payment.reference,
    };
  }

  protected landingUrl(payment: VippsPayment): string {
    return `${this.options.publicUrl}/vipps/landing?token=${payment.landingToken}`;
  }
}

export function parseJson(body: string): Record<string, unknown> {
  try {
    const value = JSON.parse(body || "{}") as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new Problem(400, "Bad Request", "The request body must be a JSON object.");
}

export function randomDigits(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += Math.floor(Math.random() * 10);
  return s;
}
