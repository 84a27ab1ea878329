// Payments: which methods a listing offers, response shapes and the Norwegian texts
// both the Worker and the web use (docs/product.md "Payments", "States", "Validation", "Error messages", "Limits and timings").
// The request schemas are in domain/schemas/payments.ts (zod stays out of the listing card).
import type { OrderState } from "./orders";
import type { PricingMode } from "./taxonomy";

// Which methods a listing offers lives in a small module of its own: the listing card (home,
// search) needs only that (decision 102).
export {
  isPayableInApp,
  LISTING_PAYMENT_TEXTS,
  MIN_ONLINE_PAYMENT_KR,
  ONLINE_PAYMENT_METHODS,
  onlineMethodsFor,
  type OnlinePaymentMethod,
  type PaymentFacts,
  type PaymentMethod,
} from "./payment-methods";
import {
  isPayableInApp,
  LISTING_PAYMENT_TEXTS,
  MIN_ONLINE_PAYMENT_KR,
  type OnlinePaymentMethod,
  type PaymentFacts,
} from "./payment-methods";

/** Modes a seller can choose for a listing (standard = never configured, no online payment). */
export const SELLER_PRICING_MODES = ["marketplace", "stripe", "vipps"] as const satisfies readonly PricingMode[];
export type SellerPricingMode = (typeof SELLER_PRICING_MODES)[number];

export const PRICING_MODE_LABELS: Record<SellerPricingMode, string> = {
  marketplace: "Kort og Vipps",
  stripe: "Kun kort (Stripe)",
  vipps: "Kun Vipps",
};

/**
 * The payment setting the Worker shows for a listing: what the seller chose, but off (standard)
 * when the listing cannot be paid in the app: free, too cheap, or a seller whose Stripe account
 * cannot take charges. The badge, the buy bar and the chooser all read this (decision 089).
 */
export function shownPayment(
  listing: PaymentFacts,
  sellerCanTakePayments: boolean,
): { payment_enabled: boolean; pricing_mode: PricingMode } {
  if (!sellerCanTakePayments || !isPayableInApp(listing)) return { payment_enabled: false, pricing_mode: "standard" };
  return { payment_enabled: true, pricing_mode: listing.pricing_mode };
}

/** Whole kroner (D1) → øre (the providers). */
export function toMinorUnits(kroner: number): number {
  return Math.round(kroner * 100);
}

/** Lekebytte's fee in øre for an amount in øre, from basis points (docs/decisions/033-platform-fee.md). */
export function platformFee(amountMinor: number, basisPoints: number): number {
  if (!Number.isFinite(basisPoints) || basisPoints <= 0) return 0;
  return Math.min(amountMinor, Math.round((amountMinor * basisPoints) / 10_000));
}

/** The first 8 characters, as the details page shows an order id. */
export function shortOrderId(id: string): string {
  return id.replace(/-/g, "").slice(0, 8).toUpperCase();
}

export interface CheckoutResponse {
  payment_id: string;
  /** The provider's hosted page; the browser opens it in the same window. */
  url: string;
}

/** docs/product.md "Server calls" verify-payment: status (completed expected), amount_paid (minor units), order_id. */
export interface VerifyResponse {
  /** `cancelled`: the buyer stopped the payment at the provider before paying (not an error). */
  status: "completed" | "pending" | "failed" | "cancelled";
  amount_paid: number | null;
  currency: string;
  order_id: string | null;
  session_id: string;
  listing_id: string;
  conversation_id: string | null;
  role: "buyer" | "seller";
}

/** A completed purchase as both result pages and the profile lists show it. */
export interface PaidOrderFacts {
  order_id: string;
  /** The provider's id for the checkout: Stripe Checkout Session id or Vipps reference. */
  session_id: string;
  provider: OnlinePaymentMethod;
  /** Minor units (øre). */
  amount: number;
  currency: string;
  paid_at: string;
  conversation_id: string | null;
}

export interface PaymentRecord extends PaidOrderFacts {
  listing: { id: string; title: string; images: string[]; seo_slug: string };
  /** The seller for a purchase, the buyer for a sale; null when the account is gone. */
  counterpart_name: string | null;
  /** Whether Stripe pays the seller, or Lekebytte owes the seller (Vipps, decision 035). */
  seller_payout: "stripe" | "owed" | "paid";
  /** The held money (decision 105). */
  state: OrderState;
  release_due_at: string | null;
  refund_amount: number;
  money_moved: boolean;
}

export interface SellerPaymentStatus {
  connected: boolean;
  details_submitted: boolean;
  charges_enabled: boolean;
  payouts_enabled: boolean;
}

/** Texts from docs/product.md, word for word, plus the server's refusals. */
export const PAYMENT_TEXTS = {
  startFailedTitle: "Feil ved betaling",
  startFailed: "Kunne ikke starte betalingsprosessen. Prøv igjen.",
  started: "Betaling startet",
  offlineChosenTitle: "Betalingsmetode valgt",
  offlineChosen: "Kontakt selger for videre instruksjoner.",
  loginTitle: LISTING_PAYMENT_TEXTS.loginTitle,
  login: LISTING_PAYMENT_TEXTS.login,
  verifying: "Bekrefter betaling...",
  successTitle: "Betaling fullført!",
  successToast: "Din betaling er behandlet og bekreftet.",
  failedTitle: "Betalingsfeil",
  failed: "Noe gikk galt med betalingen",
  cancelledTitle: "Betalingen ble avbrutt",
  cancelled: "Du har ikke betalt noe. Annonsen er der fortsatt hvis du vil prøve igjen.",
  backToListing: "Tilbake til annonsen",
  contactToBuy: LISTING_PAYMENT_TEXTS.contactToBuy,
  verifyFailedTitle: "Feil ved betalingsbekreftelse",
  verifyFailed: "Kunne ikke bekrefte betalingsstatus. Kontakt support hvis du har betalt.",
  chatFailed: "Kunne ikke starte samtale med selger",
  detailsTitle: "Betalingsdetaljer",
  paid: "Betalt",
  sellerNotified: "Selger har mottatt beskjed om salget",
  unknownSeller: "Ukjent selger",
  contactSeller: "Kontakt selger",
  backHome: "Tilbake til forsiden",
  noSessionId: "Ingen session ID funnet i URL",
  orderNotFound: "Transaksjon ikke funnet",
  listingNotFound: "Annonse ikke funnet",
  detailsFailed: "Kunne ikke hente betalingsdetaljer",
  stripeConnectFailed: "Kunne ikke koble til Stripe. Prøv igjen.",
  ownListing: "Du kan ikke kjøpe din egen annonse",
  freeListing: "Gratis annonser kan ikke betales",
  sold: "Annonsen er allerede solgt",
  reserved: "Annonsen er reservert",
  unavailable: "Annonsen er ikke tilgjengelig",
  methodNotOffered: "Denne betalingsmåten tilbys ikke for annonsen",
  sellerCannotReceive: "Selgeren kan ikke ta imot betaling i Lekebytte akkurat nå",
  tooCheap: `Beløpet er for lavt for betaling i Lekebytte (minst ${MIN_ONLINE_PAYMENT_KR} kr)`,
  providerUnavailable: "Betaling med denne betalingsmåten er ikke tilgjengelig akkurat nå",
} as const;

/**
 * Refusals only the Worker sends (Stripe onboarding links, provider webhooks). Kept apart from
 * PAYMENT_TEXTS, which the listing card's first load carries, so the home page does not pay for them.
 */
export const PAYMENT_REFUSALS = {
  notConnected: "Du har ikke koblet til Stripe ennå.", // 409
  onboardingIncomplete: "Fullfør registreringen hos Stripe først.", // 409
  /** A provider's webhook or event that cannot be read (400). */
  invalidJson: "Ugyldig JSON.",
  invalidEvent: "Ugyldig hendelse.",
  unknownMerchant: "Ukjent salgssted.",
} as const;
