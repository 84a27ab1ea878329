import { DEAL_KINDS, REVIEW_TEXT_MAX_LENGTH } from "../reviews";
import { optionalMultiLineText } from "./user-text";
import { z } from "./zod";

export const REVIEW_RATING_REQUIRED_TEXT = "Velg antall stjerner";
export const REVIEW_TEXT_TOO_LONG_TEXT = `Teksten kan være på høyst ${REVIEW_TEXT_MAX_LENGTH} tegn`;

/**
 * "Send vurdering": the deal (kind and id), 1–5 stars and an optional text (trimmed, empty is no
 * text). The reviewer and the reviewee are the server's: the signed-in user and the deal's other party.
 */
export const createReviewSchema = z.object({
  deal_kind: z.enum(DEAL_KINDS, { error: "Ukjent type handel" }),
  deal_id: z.uuid({ error: "Fant ikke handelen." }),
  rating: z
    .number({ error: REVIEW_RATING_REQUIRED_TEXT })
    .int(REVIEW_RATING_REQUIRED_TEXT)
    .min(1, REVIEW_RATING_REQUIRED_TEXT)
    .max(5, REVIEW_RATING_REQUIRED_TEXT),
  text: optionalMultiLineText("Teksten må være tekst")
    .pipe(z.string().trim().max(REVIEW_TEXT_MAX_LENGTH, REVIEW_TEXT_TOO_LONG_TEXT))
    .transform((v) => (v ? v : null)),
});
export type CreateReviewInput = z.input<typeof createReviewSchema>;
export type CreateReview = z.output<typeof createReviewSchema>;

export const profileReviewsQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
});
