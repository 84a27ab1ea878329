// The blind-review rule of domain/reviews.ts (isReviewRevealed) as SQL, so every query that shows
// reviews or averages them uses the same condition (decision 070).

/**
 * A review shown to others: not hidden by a moderator, and revealed — the other party of the same
 * deal has written theirs, or the window has closed. `alias` names the reviews table; `nowParam` is
 * the bound parameter holding the current ISO time (e.g. "?2").
 */
export function shownReviewSql(alias: string, nowParam: string): string {
  return `(${alias}.is_hidden = 0 AND ${revealedReviewSql(alias, nowParam)})`;
}

/** Revealed (whether or not hidden): both wrote, or the window closed (at exactly window_closes_at). */
export function revealedReviewSql(alias: string, nowParam: string): string {
  return `(${alias}.window_closes_at <= ${nowParam} OR EXISTS (SELECT 1 FROM reviews counterpart
     WHERE counterpart.deal_kind = ${alias}.deal_kind AND counterpart.deal_id = ${alias}.deal_id AND counterpart.reviewer_id = ${alias}.reviewee_id))`;
}
