// Reviews after a completed deal (docs/decisions/070-reviews.md). A deal is a completed
// sale (a paid order), a completed trade or a completed give-away; each of its two parties may rate
// the other 1–5 with an optional text, once, within REVIEW_WINDOW_DAYS of the completion. Reviews
// are blind: a review is shown only when both parties have written or the window has closed.
import { formatDate } from "./format";
import { formatNumber } from "./format";

export const DEAL_KINDS = ["sale", "trade", "giveaway"] as const;
export type DealKind = (typeof DEAL_KINDS)[number];

export const REVIEW_WINDOW_DAYS = 14;
export const REVIEW_TEXT_MAX_LENGTH = 1000;
/** Reviews on one page of the public profile ("Vis flere" loads the next). */
export const PROFILE_REVIEWS_PAGE_SIZE = 20;
/** Active listings the public profile shows (the newest). */
export const PROFILE_LISTINGS_LIMIT = 24;

/** The words under the stars in the review form. */
export const RATING_LABELS: Record<number, string> = {
  1: "Dårlig",
  2: "Ikke helt bra",
  3: "Grei",
  4: "Bra",
  5: "Veldig bra",
};

/** What the reviewer was in the deal, shown beside a review on the profile ("Kjøper", …). */
export type DealRole = "buyer" | "seller" | "trader" | "giver" | "taker";
export const DEAL_ROLE_LABELS: Record<DealRole, string> = {
  buyer: "Kjøper",
  seller: "Selger",
  trader: "Bytte",
  giver: "Ga bort",
  taker: "Fikk gratis",
};

/** A completed deal as the review rules see it: its two parties and when it was completed. */
export interface ReviewDeal {
  kind: DealKind;
  id: string;
  /** Exactly two different users. */
  parties: readonly [string, string];
  /** Null while the deal is not completed (an agreed trade not yet handed over). */
  completedAt: string | null;
}

/** When the review window of a deal completed at `completedAt` closes (exactly 14 × 24 hours later). */
export function reviewWindowClosesAt(completedAt: string): string {
  return new Date(Date.parse(completedAt) + REVIEW_WINDOW_DAYS * 86_400_000).toISOString();
}

/** The window is open from the completion up to, not including, its closing instant. */
export function isReviewWindowOpen(completedAt: string, now: string): boolean {
  return Date.parse(now) < Date.parse(reviewWindowClosesAt(completedAt));
}

export type ReviewRefusal = "not_found" | "not_completed" | "window_closed" | "already_reviewed";

export const REVIEW_REFUSAL_MESSAGES: Record<ReviewRefusal, string> = {
  not_found: "Fant ikke handelen.",
  not_completed: "Du kan gi vurdering når handelen er fullført.",
  window_closed: `Fristen for å gi vurdering er ute. Du kan gi vurdering i ${REVIEW_WINDOW_DAYS} dager etter at handelen ble fullført.`,
  already_reviewed: "Du har allerede gitt en vurdering for denne handelen.",
};

/** The HTTP status of each refusal: someone who is not a party does not learn that the deal exists. */
export const REVIEW_REFUSAL_STATUS: Record<ReviewRefusal, 404 | 409> = {
  not_found: 404,
  not_completed: 409,
  window_closed: 409,
  already_reviewed: 409,
};

/** The Worker's other refusals around reviews (404): a conversation or user that is not there for the viewer. */
export const REVIEW_REFUSALS = {
  conversationNotFound: "Fant ikke samtalen.",
  userNotFound: "Fant ikke brukeren.",
} as const;

/**
 * May `actorId` review the other party of `deal` at `now`? Only the two parties of the deal, only
 * after it is completed and while the window is open, and only once. Returns the user to be
 * reviewed, or why not.
 */
export function reviewEligibility(
  deal: ReviewDeal | null,
  actorId: string,
  now: string,
  alreadyReviewed: boolean,
): { ok: true; revieweeId: string } | { ok: false; refusal: ReviewRefusal } {
  if (!deal?.parties.includes(actorId) || deal.parties[0] === deal.parties[1]) return { ok: false, refusal: "not_found" };
  if (!deal.completedAt) return { ok: false, refusal: "not_completed" };
  if (alreadyReviewed) return { ok: false, refusal: "already_reviewed" };
  if (!isReviewWindowOpen(deal.completedAt, now)) return { ok: false, refusal: "window_closed" };
  return { ok: true, revieweeId: deal.parties[0] === actorId ? deal.parties[1] : deal.parties[0] };
}

/**
 * Blind reviews: a review is visible (to anyone, its author included on the profile) once the other
 * party has written theirs too, or once the window has closed. A moderator's hide removes it
 * everywhere (and from the average); that is a separate check.
 */
export function isReviewRevealed(review: { window_closes_at: string; counterpart_written: boolean }, now: string): boolean {
  return review.counterpart_written || Date.parse(now) >= Date.parse(review.window_closes_at);
}

/** "4,7" — the average with one decimal, Norwegian comma. */
export function formatRatingAverage(average: number): string {
  return formatNumber(average, 1, 1);
}

/** "1 vurdering", "12 vurderinger". */
export function reviewCountLabel(count: number): string {
  return `${count} ${count === 1 ? "vurdering" : "vurderinger"}`;
}

/** "4,7 av 5 (12 vurderinger)" or "Ingen vurderinger ennå". */
export function ratingSummaryText(summary: { average: number | null; count: number }): string {
  if (!summary.count || summary.average === null) return "Ingen vurderinger ennå";
  return `${formatRatingAverage(summary.average)} av 5 (${reviewCountLabel(summary.count)})`;
}

/** What the prompt in the chat and the trade history says about the deadline. */
export function reviewDeadlineText(windowClosesAt: string): string {
  return `Du kan gi vurdering til og med ${formatDate(new Date(Date.parse(windowClosesAt) - 1).toISOString())}.`;
}

/** The system message when the first of the two has written (it never says what). */
export function reviewWrittenText(reviewerName: string, windowClosesAt: string): string {
  return `${reviewerName} har gitt en vurdering av handelen. Gi din vurdering innen ${formatDate(new Date(Date.parse(windowClosesAt) - 1).toISOString())} – vurderingene vises når dere begge har skrevet.`;
}

/** The system message when the second has written: both reviews are visible now. */
export function reviewsRevealedText(): string {
  return "Dere har begge gitt en vurdering. Vurderingene vises nå på profilene deres.";
}
