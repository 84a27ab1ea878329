// Which online payment methods a listing offers (docs/product.md "Payments", "Limits and timings"),
// shared by the Worker and the web; the listing card loads only this (domain/payments.ts re-exports it).
import type { PricingMode } from "./taxonomy";

/** Online methods go through a provider; cash and bank transfer are agreed with the seller. */
export const ONLINE_PAYMENT_METHODS = ["card", "vipps"] as const;
export type OnlinePaymentMethod = (typeof ONLINE_PAYMENT_METHODS)[number];
export type PaymentMethod = OnlinePaymentMethod | "cash" | "bank_transfer";

/** Stripe's smallest charge in NOK is kr 3.00; Vipps takes 1 kr. One minimum for both keeps it simple. */
export const MIN_ONLINE_PAYMENT_KR = 3;

/** The listing fields that decide whether it can be paid in Lekebytte. */
export interface PaymentFacts {
  payment_enabled: boolean;
  pricing_mode: PricingMode;
  is_free: boolean;
  price: number | null;
}

/**
 * docs/product.md "Limits and timings": card/Apple Pay/Google Pay for stripe or marketplace, Vipps for vipps or
 * marketplace, only when payment is enabled. A free listing, or one below the providers' minimum,
 * has nothing to pay online whatever its stored setting says (docs/decisions/089).
 */
export function onlineMethodsFor(listing: PaymentFacts): OnlinePaymentMethod[] {
  if (!listing.payment_enabled || listing.is_free || listing.price === null || listing.price < MIN_ONLINE_PAYMENT_KR) return [];
  const methods: OnlinePaymentMethod[] = [];
  if (listing.pricing_mode === "stripe" || listing.pricing_mode === "marketplace") methods.push("card");
  if (listing.pricing_mode === "vipps" || listing.pricing_mode === "marketplace") methods.push("vipps");
  return methods;
}

/** Whether a buyer can pay this listing in the app ("Kjøp nå med trygg betaling"). */
export function isPayableInApp(listing: PaymentFacts): boolean {
  return onlineMethodsFor(listing).length > 0;
}

/**
 * The listing page's own payment texts (docs/product.md "Payments", word for word): its buy bar
 * needs these and not the rest of PAYMENT_TEXTS (domain/payments.ts, which includes them).
 */
export const LISTING_PAYMENT_TEXTS = {
  loginTitle: "Innlogging påkrevd",
  login: "Du må være innlogget for å kjøpe",
  /** The buy bar of a listing that cannot be paid in the app: what the buyer can do instead. */
  contactToBuy: "Kontakt selgeren for å kjøpe",
} as const;
