// What the sandbox's Stripe keeps: its records (Stripe's objects in the sandbox's own shape, as the
// state file stores them) and the store they live in, with the lookups Stripe's "No such …" errors
// come from and the events each change sends to the webhook endpoints.
import { stripeId, unixNow } from "./ids";
import { StripeError } from "./stripe-errors";
import type { WebhookDispatcher, WebhookEndpoint } from "./webhooks";

export const STRIPE_API_VERSION = "2026-10-28.endive";

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

export interface LineItem {
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

export interface AccountLink {
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

export interface StripeSandboxOptions {
  secretKey: string;
  /** Base URL the browser uses for hosted pages (http://localhost:PORT). */
  publicUrl: string;
  endpoints: WebhookEndpoint[];
  dispatcher: WebhookDispatcher;
}

export class StripeStore {
  readonly accounts = new Map<string, StripeAccount>();
  readonly sessions = new Map<string, CheckoutSession>();
  readonly paymentIntents = new Map<string, PaymentIntent>();
  readonly refunds = new Map<string, StripeRefund>();
  readonly transfers = new Map<string, StripeTransfer>();
  readonly links = new Map<string, AccountLink>();
  readonly loginTokens = new Map<string, string>();

  constructor(readonly options: StripeSandboxOptions) {}

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

  account(id: string, param: string, status = 400): StripeAccount {
    const account = this.accounts.get(id);
    if (!account) throw new StripeError(status, "invalid_request_error", `No such account: '${id}'`, "resource_missing", param);
    return account;
  }

  session(id: string): CheckoutSession {
    const session = this.sessions.get(id);
    if (!session) throw new StripeError(404, "invalid_request_error", `No such checkout.session: '${id}'`, "resource_missing", "session");
    return session;
  }

  intent(id: string): PaymentIntent {
    const intent = this.paymentIntents.get(id);
    if (!intent) throw new StripeError(404, "invalid_request_error", `No such payment_intent: '${id}'`, "resource_missing", "intent");
    return intent;
  }

  emit(type: string, object: object, objectId: string, account?: string): void {
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
}
