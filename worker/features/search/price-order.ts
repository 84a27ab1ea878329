// A text search ordered by price (docs/decisions/157-price-order-walks-the-price-index.md).
import { byRid, rowCount } from "./count";
import type { TextMatch } from "./text-match";

/** From this many text matches on, a price order walks the price index instead of sorting the matches. */
export const PRICE_WALK_FROM = 2000;

/**
 * The page of a text search ordered by price ("price" ascending or descending, newest first among
 * equal prices). Sorting every match reads each one's row of the projection first, about 6 µs a
 * match: 240 ms for "lego" (9 % of a million listings), 90 ms for "traktor" (1.3 %). With many
 * matches the statement walks the price index instead, cheapest (or dearest) first, and keeps the
 * listings in the set of text matches until the page is full: 50 of 9 % are found within about 550
 * steps, and the set costs well under a microsecond a match. With fewer than PRICE_WALK_FROM
 * matches, sorting them is cheap and a walk could pass most of the index before it found them: the
 * statement counts the matches up to that number and runs one of the two (the other gets LIMIT 0
 * and never reads). The walk is only for a search filtered on the index's own columns (public, a
 * price range): another filter (a postal code holds 1 in 20) could make it pass most of the index
 * before the page is full, so those searches sort their matches, as before.
 *
 * `sortKey` orders the projection `s` ("s.price ASC, s.rid DESC" or DESC); `filter.where` filters
 * it and starts with `s.is_public = 1`, the price index's first column.
 */
export function priceOrderSql(
  columns: string,
  parts: readonly TextMatch[],
  filter: { where: string; priceIndexOnly: boolean },
  sortKey: string,
  n: number,
  b: (v: unknown) => string,
): string {
  const { where } = filter;
  const exprs = parts.map((m) => b(m.expr));
  const limit = rowCount(n);
  const sortedLimit = filter.priceIndexOnly ? `CASE WHEN (SELECT yes FROM few) THEN ${limit} ELSE 0 END` : limit;
  const sorted = parts.map(
    (m, i) => `SELECT * FROM (SELECT s.rid, s.price FROM ${m.table} f JOIN ${byRid(where)} ON s.rid = f.rowid
      WHERE ${where} AND ${m.table} MATCH ${exprs[i]} ORDER BY ${sortKey} LIMIT ${sortedLimit})`,
  );
  const page = (from: string) => `SELECT ${columns}, 0 AS search_rank FROM (${from}) h
    JOIN listing_search_map m ON m.rid = h.rid JOIN listings l ON l.id = m.listing_id
  ORDER BY ${sortKey.replaceAll("s.", "h.")} LIMIT ${limit}`;
  if (!filter.priceIndexOnly) return page(sorted.join(" UNION "));
  const matches = parts.map((m, i) => `SELECT rowid FROM ${m.table} WHERE ${m.table} MATCH ${exprs[i]}`).join(" UNION ");
  const walkFrom = rowCount(PRICE_WALK_FROM);
  return `WITH few AS MATERIALIZED (SELECT COUNT(*) < ${walkFrom} AS yes FROM (${matches} LIMIT ${walkFrom})),
    walked AS MATERIALIZED (SELECT s.rid, s.price FROM listing_search_map s INDEXED BY listing_search_public_price_idx
      WHERE ${where} AND s.rid IN (${matches}) ORDER BY ${sortKey} LIMIT CASE WHEN (SELECT yes FROM few) THEN 0 ELSE ${limit} END),
    sorted AS MATERIALIZED (${sorted.join(" UNION ")})
  ${page("SELECT rid, price FROM walked UNION SELECT rid, price FROM sorted")}`;
}
