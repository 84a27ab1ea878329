// The search's count and its text, shared by the Worker and the search page (no zod here: the page
// loads this on its first paint).
import { formatNumber } from "./format";

/** A search counts its matches up to this number (docs/decisions/004-search-index.md). */
export const SEARCH_TOTAL_CAP = 1000;

/**
 * A free-text search checks the filters of at most this many of its newest text matches when it
 * counts. When they hold fewer than SEARCH_TOTAL_CAP hits and older text matches exist, the total is
 * estimated from the share of the listings they span (docs/decisions/044-search-at-scale.md).
 */
export const SEARCH_COUNT_SCAN = 1000;

/**
 * A free-text count first checks this many of its newest text matches: when the estimate from them
 * is over twice SEARCH_TOTAL_CAP, the total is the cap without the full scan.
 */
export const SEARCH_COUNT_SAMPLE = 250;

/** "1 annonse", "12 annonser", "Over 1 000 annonser", "Ca. 560 annonser" (an estimate). */
export function resultCountText(total: number, capped = false): string {
  const n = formatNumber(total);
  if (capped) return total >= SEARCH_TOTAL_CAP ? `Over ${n} annonser` : `Ca. ${n} annonser`;
  return total === 1 ? "1 annonse" : `${n} annonser`;
}
