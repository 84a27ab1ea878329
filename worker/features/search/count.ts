// The search's total: the count statement and what the page says from its row
// (docs/decisions/044-search-at-scale.md and 155-search-reads-less.md).
import { SEARCH_COUNT_SAMPLE, SEARCH_COUNT_SCAN, SEARCH_TOTAL_CAP } from "../../../domain/schemas/search";
import type { TextMatch } from "./text-match";

/**
 * The count statement's row. A free-text count checks the filters of the newest SEARCH_COUNT_SCAN text
 * matches only: `edge` is the rid of the next older text match (null when there is none, so `n` is
 * exact), and `top`/`bottom` are the highest and lowest rid of all listings.
 */
export interface CountRow {
  n: number;
  edge?: number | null;
  top?: number | null;
  bottom?: number | null;
}

/** Every search's first filter, and a search's whole filter when it has no other. */
export const PUBLIC = "s.is_public = 1";

/** The projection `s` by rid with its filters from their index; the count reads nothing else. */
const FILTERS_BY_RID = "listing_search_map s INDEXED BY listing_search_filters_idx";

/**
 * The projection `s` found by a text match's rid, its filters read from listing_search_filters_idx
 * (migrations/0033_search_filters_index.sql): about 2.4 times as many listings to a page as the table,
 * so checking the filters of many matches reads fewer pages (SQLite picks the table's own rowid
 * otherwise). A column the index lacks (the listing id) is then read from the table for each row that
 * passes: a second look-up, so a page of a search without filters (nearly every match passes) reads
 * the table alone.
 */
export function byRid(where: string): string {
  return where === PUBLIC ? "listing_search_map s" : FILTERS_BY_RID;
}

/**
 * A row count written into the SQL rather than bound: SQLite plans a statement whose LIMITs are
 * known better (a bound LIMIT made the tiered search 3–4 times slower on a million listings). Only
 * an integer the schema has validated, or a constant, ever gets here.
 */
export function rowCount(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`);
  return String(n);
}

/**
 * The count checks the filters of the newest SEARCH_COUNT_SCAN text matches and stops at the cap, so
 * a common word with a rare filter costs the same as a rare word. One more text match is read: when
 * it exists (`edge`), older matches were not checked and the total is estimated (see searchTotal).
 * Several indexes are merged newest first as they stream (a compound SELECT ordered by rowid).
 * First the newest SEARCH_COUNT_SAMPLE text matches (c1, checked once in `k`): when the estimate from
 * them is more than twice the cap, the total is the cap and nothing more is read (a common word
 * reads a quarter of the matches); else the scan goes on below the oldest of them (c2). CROSS JOIN
 * keeps the matches the outer loop (SQLite otherwise scans the listings newer than the oldest match).
 */
export function countSql(parts: readonly TextMatch[], where: string, b: (v: unknown) => string): string {
  const arms = parts.map((m) => `SELECT rowid AS rid FROM ${m.table} WHERE ${m.table} MATCH ${b(m.expr)}`);
  const older = arms.map((arm) => `${arm} AND rowid < (SELECT edge FROM e1)`);
  const rest = SEARCH_COUNT_SCAN - SEARCH_COUNT_SAMPLE;
  return `WITH a AS MATERIALIZED (SELECT (SELECT max(rid) FROM listing_search_map) AS top, (SELECT min(rid) FROM listing_search_map) AS bottom),
      c1 AS MATERIALIZED (${arms.join(" UNION ")} ORDER BY 1 DESC LIMIT ${rowCount(SEARCH_COUNT_SAMPLE + 1)}),
      e1 AS MATERIALIZED (SELECT CASE WHEN COUNT(*) = ${rowCount(SEARCH_COUNT_SAMPLE + 1)} THEN MIN(rid) END AS edge FROM c1),
      k AS MATERIALIZED (SELECT COUNT(*) AS passed, SUM(c1.rid > (SELECT edge FROM e1)) AS newer
        FROM c1 CROSS JOIN ${FILTERS_BY_RID} ON s.rid = c1.rid WHERE ${where}),
      m AS MATERIALIZED (SELECT coalesce(k.newer * (a.top - a.bottom + 1) > ${rowCount(2 * SEARCH_TOTAL_CAP)} * (a.top - e1.edge), 0) AS many FROM a, e1, k),
      c2 AS MATERIALIZED (${older.join(" UNION ")} ORDER BY 1 DESC
        LIMIT CASE WHEN (SELECT edge FROM e1) IS NULL OR (SELECT many FROM m) THEN 0 ELSE ${rowCount(rest)} END),
      e AS MATERIALIZED (SELECT CASE WHEN COUNT(*) = ${rowCount(rest)} THEN MIN(rid) END AS edge FROM c2)
    SELECT CASE WHEN m.many THEN ${rowCount(SEARCH_TOTAL_CAP + 1)} ELSE k.passed + (SELECT COUNT(*) FROM c2 CROSS JOIN ${FILTERS_BY_RID} ON s.rid = c2.rid
        WHERE ${where} AND c2.rid > coalesce((SELECT edge FROM e), 0)) END AS n,
      CASE WHEN m.many THEN NULL ELSE (SELECT edge FROM e) END AS edge, a.top, a.bottom FROM a, k, m`;
}

/**
 * The total a search reports. `allMatches` is the number of rows of the last tier (every match) when
 * it returned fewer than offset + limit, i.e. when it found them all; null otherwise.
 * - all matches found by the tiers: exact;
 * - more than SEARCH_TOTAL_CAP counted: the cap, "Over 1 000";
 * - no text match beyond the ones counted: exact;
 * - else the counted hits among the newest SEARCH_COUNT_SCAN text matches, scaled by the share of all
 *   listings (by rid, i.e. by age) those matches span: an estimate, two significant figures.
 */
export function searchTotal(c: CountRow, allMatches: number | null, shown: number): { total: number; total_capped: boolean } {
  if (allMatches !== null) return { total: allMatches, total_capped: false };
  if (c.n > SEARCH_TOTAL_CAP) return { total: SEARCH_TOTAL_CAP, total_capped: true };
  if (c.edge === null || c.edge === undefined || !c.top || !c.bottom) return { total: Math.max(c.n, shown), total_capped: false };
  const estimate = (c.n * (c.top - c.bottom + 1)) / (c.top - c.edge);
  if (estimate > SEARCH_TOTAL_CAP) return { total: SEARCH_TOTAL_CAP, total_capped: true };
  return { total: Math.max(twoFigures(estimate), c.n, shown), total_capped: true };
}

function twoFigures(x: number): number {
  const step = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, x))) - 1);
  return Math.round(x / step) * step;
}
