// The review rules in domain/reviews.ts (decision 070): who may review a deal and when,
// the 14-day window to the millisecond, once each, and blind visibility.
import { describe, expect, it } from "vitest";
import {
  REVIEW_REFUSAL_STATUS,
  isReviewRevealed,
  isReviewWindowOpen,
  ratingSummaryText,
  reviewEligibility,
  reviewWindowClosesAt,
  type ReviewDeal,
} from "../../domain/reviews";
import { createReviewSchema } from "../../domain/schemas/reviews";

const COMPLETED = "2026-05-01T10:00:00.000Z";
const CLOSES = "2026-05-15T10:00:00.000Z";
const A = "party-a";
const B = "party-b";
const deal: ReviewDeal = { kind: "trade", id: "deal-1", parties: [A, B], completedAt: COMPLETED };
const at = (iso: string, deltaMs = 0) => new Date(Date.parse(iso) + deltaMs).toISOString();

describe("the review window", () => {
  it("closes exactly 14 × 24 hours after the completion", () => {
    expect(reviewWindowClosesAt(COMPLETED)).toBe(CLOSES);
  });

  it("is open from the completion up to the last millisecond before it closes, and shut at the closing instant", () => {
    expect(isReviewWindowOpen(COMPLETED, COMPLETED)).toBe(true);
    expect(isReviewWindowOpen(COMPLETED, at(CLOSES, -1))).toBe(true);
    expect(isReviewWindowOpen(COMPLETED, CLOSES)).toBe(false);
    expect(isReviewWindowOpen(COMPLETED, at(CLOSES, 1))).toBe(false);
  });
});

describe("reviewEligibility", () => {
  it("lets each party review the other while the window is open", () => {
    expect(reviewEligibility(deal, A, at(COMPLETED, 1000), false)).toEqual({ ok: true, revieweeId: B });
    expect(reviewEligibility(deal, B, at(CLOSES, -1), false)).toEqual({ ok: true, revieweeId: A });
  });

  it("does not let anyone but the two parties review (the deal does not exist for them)", () => {
    for (const actor of ["someone-else", "", "moderator"]) {
      expect(reviewEligibility(deal, actor, COMPLETED, false)).toEqual({ ok: false, refusal: "not_found" });
    }
    expect(reviewEligibility(null, A, COMPLETED, false)).toEqual({ ok: false, refusal: "not_found" });
    expect(REVIEW_REFUSAL_STATUS.not_found).toBe(404);
  });

  it("refuses a deal whose two parties are one user", () => {
    expect(reviewEligibility({ ...deal, parties: [A, A] }, A, COMPLETED, false)).toEqual({ ok: false, refusal: "not_found" });
  });

  it("refuses before the deal is completed", () => {
    expect(reviewEligibility({ ...deal, completedAt: null }, A, COMPLETED, false)).toEqual({ ok: false, refusal: "not_completed" });
  });

  it("refuses a second review by the same party", () => {
    expect(reviewEligibility(deal, A, COMPLETED, true)).toEqual({ ok: false, refusal: "already_reviewed" });
  });

  it("refuses at and after the closing instant", () => {
    expect(reviewEligibility(deal, A, CLOSES, false)).toEqual({ ok: false, refusal: "window_closed" });
    expect(reviewEligibility(deal, B, at(CLOSES, 86_400_000), false)).toEqual({ ok: false, refusal: "window_closed" });
    expect(REVIEW_REFUSAL_STATUS.window_closed).toBe(409);
  });
});

describe("blind visibility", () => {
  it("hides a review while only one party has written and the window is open", () => {
    expect(isReviewRevealed({ window_closes_at: CLOSES, counterpart_written: false }, COMPLETED)).toBe(false);
    expect(isReviewRevealed({ window_closes_at: CLOSES, counterpart_written: false }, at(CLOSES, -1))).toBe(false);
  });

  it("shows it as soon as the other party has written", () => {
    expect(isReviewRevealed({ window_closes_at: CLOSES, counterpart_written: true }, COMPLETED)).toBe(true);
  });

  it("shows it at exactly the instant the window closes, even if the other never writes", () => {
    expect(isReviewRevealed({ window_closes_at: CLOSES, counterpart_written: false }, CLOSES)).toBe(true);
    expect(isReviewRevealed({ window_closes_at: CLOSES, counterpart_written: false }, at(CLOSES, 1))).toBe(true);
  });
});

describe("createReviewSchema", () => {
  const base = { deal_kind: "sale", deal_id: "6f1c1c1e-4b7a-4c36-9a55-2b1e6d0e8f11" };

  it("takes 1–5 whole stars and trims the text (empty is no text)", () => {
    expect(createReviewSchema.parse({ ...base, rating: 5, text: "  Hyggelig kjøper!  " })).toMatchObject({
      rating: 5,
      text: "Hyggelig kjøper!",
    });
    expect(createReviewSchema.parse({ ...base, rating: 1, text: "   " }).text).toBeNull();
    expect(createReviewSchema.parse({ ...base, rating: 3 }).text).toBeNull();
  });

  it.each([0, 6, 2.5, "5", null, undefined])("refuses the rating %s with “Velg antall stjerner”", (rating) => {
    const result = createReviewSchema.safeParse({ ...base, rating });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe("Velg antall stjerner");
  });

  it("refuses a text over 1000 characters, an unknown deal kind, and strips server-owned keys", () => {
    expect(createReviewSchema.safeParse({ ...base, rating: 4, text: "x".repeat(1001) }).error?.issues[0].message).toBe(
      "Teksten kan være på høyst 1000 tegn",
    );
    expect(createReviewSchema.safeParse({ ...base, deal_kind: "loan", rating: 4 }).success).toBe(false);
    const parsed = createReviewSchema.parse({ ...base, rating: 4, reviewer_id: "x", reviewee_id: "y", is_hidden: true });
    expect(Object.keys(parsed).sort()).toEqual(["deal_id", "deal_kind", "rating", "text"]);
  });
});

describe("ratingSummaryText", () => {
  it("says the average with a Norwegian comma and the count, or that there are none", () => {
    expect(ratingSummaryText({ average: 4.666, count: 3 })).toBe("4,7 av 5 (3 vurderinger)");
    expect(ratingSummaryText({ average: 5, count: 1 })).toBe("5,0 av 5 (1 vurdering)");
    expect(ratingSummaryText({ average: null, count: 0 })).toBe("Ingen vurderinger ennå");
  });
});
