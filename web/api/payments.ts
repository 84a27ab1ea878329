// The payments feature for the SPA: buying, the result pages, purchases and sales, seller onboarding.
// Everything lives under the "me" query key, so signing out removes it. Request and response types
// come from the Worker's routes (worker/features/payments/routes.ts) through the typed client.
import { queryOptions } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import type { OnlinePaymentMethod } from "../../domain/payments";
import type { ProblemInput } from "../../domain/schemas/payments";
import { paymentKeys } from "./payment-keys";
import { api, call, type ResponseBody as Body } from "./client";

const orders = api.payments.orders;
const param = (value: string) => encodeURIComponent(value);

/** An order's held money as its buyer or seller sees it (decision 105). */
export type OrderView = Body<(typeof orders)[":id"]["$get"]>;
/** GET /api/moderation/payment-cases: the cases beside the reports. */
export type PaymentCase = Body<(typeof api.moderation)["payment-cases"]["$get"]>[number];

/** GET /api/payments/stripe/account: the seller's Stripe Connect state. */
export type SellerPaymentStatus = Body<typeof api.payments.stripe.account.$get>;

/** GET /api/payments/purchases and /sales: the profile's lists. */
export type PaymentRecord = Body<typeof api.payments.purchases.$get>[number];

/** GET /api/payments/details?session_id=…: /betaling-fullfort. */
export type PaymentDetails = Body<typeof api.payments.details.$get>;

/** POST /api/payments/verify: /payment-success. */
export type VerifyResponse = Body<typeof api.payments.verify.$post>;

/** POST /api/payments/checkout: the provider's hosted page to open. */
export type CheckoutResponse = Body<typeof api.payments.checkout.$post>;

export { conversationOrdersQuery, paymentKeys } from "./payment-keys";

export type OrderMove = "handed-over" | "received" | "cancel";

export function moveOrder(id: string, move: OrderMove): Promise<OrderView> {
  const route = orders[":id"][move];
  return call(route.$post({ param: { id: param(id) } })) as Promise<OrderView>;
}

/** POST /api/payments/orders/:id/photos with the photo's raw bytes (decision 108): an id for the report to name. */
export function uploadProblemPhoto(id: string, image: Blob): Promise<{ id: string; url: string; type: string }> {
  return call(
    orders[":id"].photos.$post(
      { param: { id: param(id) } },
      { init: { body: image, headers: { "Content-Type": image.type || "application/octet-stream" } } },
    ),
  );
}

/** "Prøv igjen" after the carrier refused the booking (decision 150): the order as it is now. */
export function retryShipment(id: string): Promise<OrderView> {
  return call(orders[":id"].shipment.retry.$post({ param: { id: param(id) } })) as Promise<OrderView>;
}

export function reportProblem(id: string, json: ProblemInput): Promise<OrderView> {
  return call(orders[":id"].problem.$post({ param: { id: param(id) }, json })) as Promise<OrderView>;
}

export const paymentCasesQuery = () =>
  queryOptions({
    queryKey: paymentKeys.cases,
    queryFn: ({ signal }) => call(api.moderation["payment-cases"].$get(undefined, { init: { signal } })),
  });

export function decideCase(
  id: string,
  json: { action: "refund" } | { action: "release_by_moderator" } | { action: "partial_refund"; refund_amount: number },
) {
  return call(api.moderation["payment-cases"][":id"].decision.$post({ param: { id: param(id) }, json }));
}

export const sellerPaymentStatusQuery = () =>
  queryOptions({
    queryKey: paymentKeys.stripeAccount,
    queryFn: ({ signal }) => call(api.payments.stripe.account.$get(undefined, { init: { signal } })),
  });

export const paymentRecordsQuery = (side: "purchases" | "sales") =>
  queryOptions({
    queryKey: paymentKeys.records(side),
    queryFn: ({ signal }) =>
      call((side === "purchases" ? api.payments.purchases : api.payments.sales).$get(undefined, { init: { signal } })),
  });

export const paymentDetailsQuery = (sessionId: string) =>
  queryOptions({
    queryKey: paymentKeys.details(sessionId),
    queryFn: ({ signal }) => call(api.payments.details.$get({ query: { session_id: sessionId } }, { init: { signal } })),
  });

export function verifyPayment(sessionId: string, paymentId: string): Promise<VerifyResponse> {
  return call(api.payments.verify.$post({ json: { session_id: sessionId, payment_id: paymentId } }));
}

/** The buyer's "Sending" choice as the checkout takes it (domain/schemas/payments.ts). */
export type ShippingChoice = NonNullable<InferRequestType<typeof api.payments.checkout.$post>["json"]["shipping"]>;

/** "Henting" (no shipping) sends no `shipping`, as the checkout was before "Sending". */
export function startCheckout(
  listingId: string,
  method: OnlinePaymentMethod,
  shipping: ShippingChoice | null = null,
): Promise<CheckoutResponse> {
  return call(api.payments.checkout.$post({ json: { listing_id: listingId, method, ...(shipping ? { shipping } : {}) } }));
}

/** The prototype's create-stripe-account-link (docs/product.md "Server calls"): onboarding for a new or unfinished account. */
export function createStripeAccountLink(): Promise<{ url: string }> {
  return call(api.payments.stripe["account-link"].$post());
}

export function createStripeDashboardLink(): Promise<{ url: string }> {
  return call(api.payments.stripe["dashboard-link"].$post());
}

/** Leave the SPA for a provider's hosted page (same window: phones). A seam for tests. */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
