// Request schemas of the payment routes. Apart from domain/payments.ts so that the listing card
// and the buy bar, which use its pure rules, do not pull zod into the first page's JavaScript.
import { ONLINE_PAYMENT_METHODS } from "../payments";
import { z } from "./zod";

const uuid = (message: string) =>
  z.string({ error: message }).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, message);

/** POST /api/payments/checkout. The amount is never part of it: the server prices from D1. */
export const checkoutSchema = z.object({
  listing_id: uuid("Ugyldig annonse"),
  method: z.enum(ONLINE_PAYMENT_METHODS, { error: "Velg en betalingsmåte" }),
});
export type CheckoutInput = z.infer<typeof checkoutSchema>;

const NO_SESSION_ID = "Ingen session ID funnet i URL";
const sessionId = z.string({ error: NO_SESSION_ID }).trim().min(1, NO_SESSION_ID).max(200, "Ugyldig session ID");

/** POST /api/payments/verify (docs/product.md "Server calls" verify-payment: session_id and payment_id). */
export const verifySchema = z.object({
  session_id: sessionId,
  payment_id: uuid("Ugyldig betaling"),
});

/** GET /api/payments/details?session_id=… (/betaling-fullfort). */
export const detailsQuerySchema = z.object({ session_id: sessionId });
