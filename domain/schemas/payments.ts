// Request schemas of the payment routes. Apart from domain/payments.ts so that the listing card
// and the buy bar, which use its pure rules, do not pull zod into the first page's JavaScript.
import { PROBLEM_PHOTO_REFUSALS, PROBLEM_PHOTOS_MAX, PROBLEM_REASONS, PROBLEM_TEXT_MAX, PROBLEM_TEXT_MIN } from "../order-texts";
import { CARRIERS, DELIVERY_METHODS, MOBILE_NUMBER_RE } from "../carriers";
import { ONLINE_PAYMENT_METHODS } from "../payments";
import { multiLineText, singleLineText } from "./user-text";
import { z } from "./zod";

const uuid = (message: string) =>
  z.string({ error: message }).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, message);

const line = (missing: string, max: number, tooLong: string) =>
  singleLineText(missing).pipe(z.string().trim().min(1, missing).max(max, tooLong));

/**
 * "Sending" at checkout: the carrier and delivery the buyer chose, the pickup point or parcel locker
 * (from GET /api/shipping/pickup-points), and where the parcel goes. The price comes from
 * domain/carriers.ts, never from the client.
 */
export const shippingChoiceSchema = z.object({
  carrier: z.enum(CARRIERS, { error: "Velg fraktselskap" }),
  delivery: z.enum(DELIVERY_METHODS, { error: "Velg hvordan pakken skal leveres" }),
  pickup_point_id: z
    .string()
    .trim()
    .max(40, "Ugyldig hentested")
    .nullish()
    .transform((v) => v || null),
  recipient: z.object(
    {
      name: line("Skriv inn navnet ditt", 80, "Navnet kan være maks 80 tegn"),
      address_line: line("Skriv inn gateadressen din", 100, "Adressen kan være maks 100 tegn"),
      postal_code: z
        .string({ error: "Postnummer må være 4 siffer" })
        .trim()
        .regex(/^\d{4}$/, "Postnummer må være 4 siffer"),
      phone: z
        .string({ error: "Skriv inn mobilnummeret ditt" })
        .transform((v) => v.replace(/[\s-]/g, ""))
        .pipe(z.string().min(1, "Skriv inn mobilnummeret ditt").regex(MOBILE_NUMBER_RE, "Skriv inn et norsk mobilnummer med 8 siffer")),
    },
    { error: "Skriv inn hvor pakken skal sendes" },
  ),
});
export type ShippingChoiceInput = z.infer<typeof shippingChoiceSchema>;

/** POST /api/payments/checkout. The amount is never part of it: the server prices from D1. */
export const checkoutSchema = z.object({
  listing_id: uuid("Ugyldig annonse"),
  method: z.enum(ONLINE_PAYMENT_METHODS, { error: "Velg en betalingsmåte" }),
  /** "Sending"; absent or null: "Henting". */
  shipping: shippingChoiceSchema.nullish().transform((v) => v ?? null),
});

/** GET /api/shipping/pickup-points: the nearest pickup points or parcel lockers of a carrier. */
export const pickupPointsQuerySchema = z.object({
  carrier: z.enum(CARRIERS, { error: "Velg fraktselskap" }),
  delivery: z.enum(["parcel_locker", "pickup_point"], { error: "Velg pakkeautomat eller hentested" }),
  postal_code: z
    .string({ error: "Postnummer må være 4 siffer" })
    .trim()
    .regex(/^\d{4}$/, "Postnummer må være 4 siffer"),
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

/** POST /api/payments/orders/:id/problem: "Meld fra om et problem" (decision 105). */
export const problemSchema = z.object({
  reason: z.enum(PROBLEM_REASONS, { error: "Velg hva problemet er" }),
  // User text: cleaned by the one rule (decision 081) before its length is checked.
  text: multiLineText("Beskriv problemet med noen ord").pipe(
    z
      .string()
      .trim()
      .min(PROBLEM_TEXT_MIN, `Beskriv problemet med minst ${PROBLEM_TEXT_MIN} tegn`)
      .max(PROBLEM_TEXT_MAX, `Beskrivelsen kan ikke være lengre enn ${PROBLEM_TEXT_MAX} tegn`),
  ),
  /** Ids of photos this buyer uploaded for this order (POST /orders/:id/photos), in the order shown. */
  photos: z
    .array(uuid(PROBLEM_PHOTO_REFUSALS.invalid), { error: PROBLEM_PHOTO_REFUSALS.invalid })
    .max(PROBLEM_PHOTOS_MAX, PROBLEM_PHOTO_REFUSALS.tooMany)
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, PROBLEM_PHOTO_REFUSALS.duplicate)
    .default([]),
});
export type ProblemInput = z.infer<typeof problemSchema>;

/** POST /api/moderation/payment-cases/:id/decision: a moderator's decision on a case. */
export const caseDecisionSchema = z.discriminatedUnion(
  "action",
  [
    z.object({ action: z.literal("refund") }),
    z.object({ action: z.literal("release_by_moderator") }),
    z.object({
      action: z.literal("partial_refund"),
      /** Øre given back; the rest is released to the seller. */
      refund_amount: z
        .number({ error: "Skriv inn beløpet som skal betales tilbake" })
        .int("Beløpet må være et helt antall øre")
        .positive("Beløpet må være større enn 0"),
    }),
  ],
  { error: "Velg en avgjørelse" },
);
export type CaseDecisionInput = z.infer<typeof caseDecisionSchema>;

/** GET /api/payments/orders?conversation_id=…: the chat's card. */
export const ordersQuerySchema = z.object({ conversation_id: uuid("Ugyldig samtale") });
