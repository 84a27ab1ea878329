// The payments API for the SPA: buying, the result pages, purchases and sales, seller onboarding.
// Everything lives under the "me" query key, so signing out removes it.
import { queryOptions } from "@tanstack/react-query";
import type {
  CheckoutResponse,
  OnlinePaymentMethod,
  PaymentDetails,
  SellerPaymentStatus,
  TradeRecord,
  VerifyResponse,
} from "../../domain/payments";
import { apiFetch } from "./client";

export const sellerPaymentStatusQuery = () =>
  queryOptions({
    queryKey: ["me", "payments", "stripe-account"] as const,
    queryFn: ({ signal }) => apiFetch<SellerPaymentStatus>("/api/payments/stripe/account", { signal }),
  });

export const tradesQuery = (side: "purchases" | "sales") =>
  queryOptions({
    queryKey: ["me", "payments", side] as const,
    queryFn: ({ signal }) => apiFetch<TradeRecord[]>(`/api/payments/${side}`, { signal }),
  });

export const paymentDetailsQuery = (sessionId: string) =>
  queryOptions({
    queryKey: ["me", "payments", "details", sessionId] as const,
    queryFn: ({ signal }) => apiFetch<PaymentDetails>(`/api/payments/details?session_id=${encodeURIComponent(sessionId)}`, { signal }),
  });

export function verifyPayment(sessionId: string, paymentId: string): Promise<VerifyResponse> {
  return apiFetch<VerifyResponse>("/api/payments/verify", { method: "POST", body: { session_id: sessionId, payment_id: paymentId } });
}

export function startCheckout(listingId: string, method: OnlinePaymentMethod): Promise<CheckoutResponse> {
  return apiFetch<CheckoutResponse>("/api/payments/checkout", { method: "POST", body: { listing_id: listingId, method } });
}

/** The spec's create-stripe-account-link: onboarding for a new or unfinished account. */
export function createStripeAccountLink(): Promise<{ url: string }> {
  return apiFetch<{ url: string }>("/api/payments/stripe/account-link", { method: "POST" });
}

export function createStripeDashboardLink(): Promise<{ url: string }> {
  return apiFetch<{ url: string }>("/api/payments/stripe/dashboard-link", { method: "POST" });
}

/** Leave the SPA for a provider's hosted page (same window: phones). A seam for tests. */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
