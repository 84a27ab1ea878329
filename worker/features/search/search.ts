import { ftsString as quote, searchTerms } from "../../../domain/search";
import {
  priceBounds,
  SEARCH_COUNT_SCAN,
  SEARCH_TOTAL_CAP,
  type SearchParams,
  type SearchResult,
  type SearchRow,
} from "../../../domain/schemas/search";
import type { PricingMode, ListingStatus } from "../../../domain/taxonomy";
import type { Db } from "../../db/client";
import { shownPayment } from "../../../domain/payments";
import { handoverModes } from "../../../domain/carriers";
import { listingAttributes, type ListingAttributeKey } from "../../../domain/listing-fields";
import { attributeKey } from "../../../domain/listing-field-rules";

interface Row {
  id: string;
  user_id: string;
  title: string;
  price: number | null;
  is_free: number;
  is_trade_offer: number;
  condition_rating: number;
  category: string;
  age_range: string;
  postal_code: string;
  images: string;
  status: ListingStatus;
  seo_slug: string;
  pricing_mode: PricingMode;
  payment_enabled: number;
  can_pick_up: number;
  can_ship: number;
  created_at: string;
  search_rank: number;
}

const COLUMNS = `l.id, l.user_id, l.title, l.price, l.is_free, l.is_trade_offer, l.condition_rating, l.category, l.age_range,
  l.postal_code, l.images, l.status, l.seo_slug, l.pricing_mode, l.payment_enabled,
  l.can_pick_up, l.can_ship, l.created_at`;

export interface SearchStatement {
  sql: string;
  params: unknown[];
}

export interface SearchPlan {
  /**
   * One statement: up to offset + limit rows of every relevance tier, each row with its `search_rank`,
   * ordered best tier first and newest first within a tier (a row may come once per tier it is in).
   * A tier runs only while the better ones hold fewer rows than that; the last tier holds every match.
   */
  rows: SearchStatement;
  /** The tiers of `rows`, best first (a search without text, or sorted otherwise: just 0). */
  ranks: number[];
  /** One row: `n`, the matches counted (up to SEARCH_TOTAL_CAP + 1); for free text also `edge`, `top`, `bottom` (see CountRow). */
  count: SearchStatement;
}

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

/** One relevance tier: listings (`f` joined to the projection `s`) matching `extra` besides the filters. */
interface Tier {
  rank: number;
  from: string;
  extra: (bind: (v: unknown) => string) => string;
}

/**
 * Build the statements for one search. Filters run on the narrow projection `s`
 * (listing_search_map), never on the wide listings table, and only the rows of the page are joined
 * to listings.
 *
 * Free text: candidates come from the trigram index (substrings, so "klosser" finds "legoklosser"),
 * every term required; a query with a term shorter than 3 characters uses the word index with
 * prefixes instead.
 * Relevance is tiered — 3: all terms end words of the title (whole words, compound heads); 2: all
 * terms start or end words of the title; 1: all terms occur in the title; 0: the rest (a query
 * matched by word prefixes: 3 whole title words, 2 title word starts) — and newest first within a
 * tier. Each tier streams in index order (rowid = creation order) and stops after offset + limit
 * rows, so a common word costs the same as a rare one, and a tier runs only when the better ones
 * did not fill the page; the tiers are merged in `mergeTiers`. The total is exact up to
 * SEARCH_TOTAL_CAP, or estimated when the filters pass few of many text matches (`searchTotal`).
 * See docs/decisions/004-search-index.md and 044-search-at-scale.md.
 */
export function buildSearchPlan(p: SearchParams): SearchPlan {
  const params: unknown[] = [];
  const bind = (v: unknown) => {
    params.push(v);
    return `?${params.length}`;
  };
  const filters: string[] = ["s.is_public = 1"];
  if (p.categories.length) filters.push(`s.category IN (${p.categories.map(bind).join(", ")})`);
  if (p.conditions.length) filters.push(`s.condition_rating IN (${p.conditions.map(bind).join(", ")})`);
  if (p.ages.length) filters.push(`s.age_range IN (${p.ages.map(bind).join(", ")})`);
  if (p.free) filters.push("s.is_free = 1");
  const { min, max } = priceBounds(p);
  if (min !== null) filters.push(`s.price >= ${bind(min)}`);
  if (max !== null) filters.push(`s.price <= ${bind(max)}`);
  if (p.trade) filters.push("s.is_trade_offer = 1");
  if (p.postal) filters.push(`s.postal_code LIKE ${bind(`${p.postal}%`)}`);
  // Declared fields: listing_search_map holds each folded (worker/features/search/fold-sql.ts).
  for (const { key } of listingAttributes()) {
    const value = p[key as ListingAttributeKey];
    if (value) filters.push(`s.${key} = ${bind(attributeKey(value))}`);
  }
  // Filter params are shared by every statement; each statement gets its own copy plus its extras.
  const filterParams = [...params];
  const where = filters.join(" AND ");
  const n = p.offset + p.limit;

  const statement = (build: (bind: (v: unknown) => string) => string): SearchStatement => {
    const own = [...filterParams];
    const ownBind = (v: unknown) => {
      own.push(v);
      return `?${own.length}`;
    };
    return { sql: build(ownBind), params: own };
  };

  const terms = searchTerms(p.q);
  const sortKey = {
    // Without text the filter indexes (is_public, …, created_at) give newest first; with text the FTS
    // rowid (= rid, creation order) does, streamed by the index instead of sorting every match.
    newest: terms.length ? "f.rowid DESC" : "s.created_at DESC",
    relevance: terms.length ? "f.rowid DESC" : "s.rid DESC",
    price_asc: "s.price ASC, s.rid DESC",
    price_desc: "s.price DESC, s.rid DESC",
  }[p.sort ?? (terms.length ? "relevance" : "newest")];
  /** One ordered pass, one tier (0). */
  const page = (from: string, extra: (b: (v: unknown) => string) => string) =>
    statement(
      (b) => `SELECT ${COLUMNS}, 0 AS search_rank FROM (SELECT s.listing_id, s.rid, s.price FROM ${from} WHERE ${where}${extra(b)}
       ORDER BY ${sortKey} LIMIT ${b(n)}) h JOIN listings l ON l.id = h.listing_id`,
    );

  if (terms.length === 0) {
    return {
      rows: page("listing_search_map s", () => ""),
      ranks: [0],
      count: statement(
        (b) => `SELECT COUNT(*) AS n FROM (SELECT 1 FROM listing_search_map s WHERE ${where} LIMIT ${b(SEARCH_TOTAL_CAP + 1)})`,
      ),
    };
  }

  // All matches (`textMatch`, shared with saved-search matching): substrings in the trigram index,
  // or word prefixes in the word index.
  const { table: fts, expr: text } = textMatch(terms)!;
  const long = fts === "listings_fts_trigram" ? terms : [];
  const words = terms.map((t) => `${quote(t)}*`).join(" ");
  const matchAll: Tier = {
    rank: 0,
    from: `${fts} f JOIN listing_search_map s ON s.rid = f.rowid`,
    extra: (b) => ` AND ${fts} MATCH ${b(text)}`,
  };

  // The count checks the filters of the newest SEARCH_COUNT_SCAN text matches and stops at the cap, so
  // a common word with a rare filter costs the same as a rare word. One more text match is read: when
  // it exists (`edge`), older matches were not checked and the total is estimated (see searchTotal).
  const count = statement((b) => {
    const scan = b(SEARCH_COUNT_SCAN + 1);
    return `WITH c AS MATERIALIZED (SELECT rowid AS rid FROM ${fts} WHERE ${fts} MATCH ${b(text)} ORDER BY rowid DESC LIMIT ${scan}),
        e AS MATERIALIZED (SELECT CASE WHEN COUNT(*) = ${scan} THEN MIN(rid) END AS edge FROM c)
      SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM c JOIN listing_search_map s ON s.rid = c.rid
          WHERE ${where} AND c.rid > coalesce((SELECT edge FROM e), 0) LIMIT ${b(SEARCH_TOTAL_CAP + 1)})) AS n,
        (SELECT edge FROM e) AS edge, (SELECT max(rid) FROM listing_search_map) AS top, (SELECT min(rid) FROM listing_search_map) AS bottom`;
  });

  if (p.sort && p.sort !== "relevance") {
    // Newest or by price: one ordered pass over all matches.
    return { rows: page(matchAll.from, matchAll.extra), ranks: [0], count };
  }

  // The title tiers run on the title-only trigram index (migrations/0008_search_scale.sql), whose
  // text has a space before and after every word: "ski " ends a word ("Barneski": in Norwegian the
  // last part of a compound names the thing), " ski" starts one ("Skihjelm", or a word still being
  // typed), "ski" is anywhere. A title tier must stay inside what the query matches at all: a query matched by word
  // prefixes (a short term) ranks whole title words (" ski ") over title word starts (" ski"), and one
  // with a one-letter term (no trigram) finds its title word starts in the word index.
  const title = "listings_title_trigram f JOIN listing_search_map s ON s.rid = f.rowid";
  const titleTier = (rank: number, expr: string): Tier => ({
    rank,
    from: title,
    extra: (b) => ` AND listings_title_trigram MATCH ${b(expr)}`,
  });
  const tiers: Tier[] = [];
  if (long.length) {
    // 3: every term ends a word of the title (or is one); 2: every term starts or ends one.
    tiers.push(titleTier(3, terms.map((t) => quote(`${t} `)).join(" ")));
    tiers.push(titleTier(2, terms.map((t) => `(${quote(` ${t}`)} OR ${quote(`${t} `)})`).join(" AND ")));
    // 1: every term occurs in the title (inside compound words too).
    tiers.push(titleTier(1, long.map(quote).join(" ")));
  } else if (terms.every((t) => t.length >= 2)) {
    // 3: every term is a word of the title; 2: every term starts one.
    tiers.push(titleTier(3, terms.map((t) => quote(` ${t} `)).join(" ")));
    tiers.push(titleTier(2, terms.map((t) => quote(` ${t}`)).join(" ")));
  } else {
    tiers.push({
      rank: 2,
      from: "listings_fts f JOIN listing_search_map s ON s.rid = f.rowid",
      extra: (b) => ` AND listings_fts MATCH ${b(`title : (${words})`)}`,
    });
  }
  // 0: everything that matches.
  tiers.push(matchAll);

  // One statement: each tier is materialized once, newest first, up to n rows; a tier whose better
  // tiers already hold n rows gets LIMIT 0 and never touches its index.
  const rows = statement((b) => {
    const limit = b(n);
    const ctes = tiers.map((t, i) => {
      const better = tiers.slice(0, i).map((u) => `(SELECT COUNT(*) FROM t${u.rank}) < ${limit}`);
      const lim = better.length ? `CASE WHEN ${better.join(" AND ")} THEN ${limit} ELSE 0 END` : limit;
      return `t${t.rank} AS MATERIALIZED (SELECT s.listing_id, s.rid FROM ${t.from} WHERE ${where}${t.extra(b)} ORDER BY f.rowid DESC LIMIT ${lim})`;
    });
    const union = tiers.map((t) => `SELECT ${t.rank} AS search_rank, listing_id, rid FROM t${t.rank}`).join(" UNION ALL ");
    return `WITH ${ctes.join(",\n  ")}
      SELECT ${COLUMNS}, h.search_rank FROM (${union}) h JOIN listings l ON l.id = h.listing_id ORDER BY h.search_rank DESC, h.rid DESC`;
  });
  return { rows, ranks: tiers.map((t) => t.rank), count };
}

/** Which FTS5 table matches a search's free text, and the MATCH expression (always bound, never inlined). */
export interface TextMatch {
  table: "listings_fts" | "listings_fts_trigram";
  expr: string;
}

/**
 * What "matches the text" means for a search, given its terms (`searchTerms`): every term as a
 * substring in the trigram index; a query with a one- or two-letter word ("nesten ny", "lego 3")
 * as word prefixes in the word index instead (the trigram index needs 3 characters, and
 * intersecting it with a short prefix is slow). Null without terms. Saved-search matching uses the same function,
 * so an alert agrees with what /search returns (docs/decisions/040-saved-search-matching.md).
 */
export function textMatch(terms: readonly string[]): TextMatch | null {
  if (terms.length === 0) return null;
  const wordsOnly = terms.some((t) => t.length < 3);
  const expr = wordsOnly ? terms.map((t) => `${quote(t)}*`).join(" ") : terms.map(quote).join(" ");
  return { table: wordsOnly ? "listings_fts" : "listings_fts_trigram", expr };
}

/** Tiers are nested (a title-word hit is also a title hit and a hit): keep each id's best tier. */
export function mergeTiers<T extends { id: string }>(tiers: T[][], offset: number, limit: number): T[] {
  const seen = new Set<string>();
  const merged: T[] = [];
  for (const rows of tiers) {
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      merged.push(row);
    }
  }
  return merged.slice(offset, offset + limit);
}

function toSearchRow(r: Row): SearchRow {
  return {
    id: r.id,
    user_id: r.user_id,
    title: r.title,
    price: r.price,
    is_free: !!r.is_free,
    is_trade_offer: !!r.is_trade_offer,
    condition_rating: r.condition_rating,
    category: r.category,
    age_range: r.age_range,
    postal_code: r.postal_code,
    images: JSON.parse(r.images) as string[],
    status: r.status,
    seo_slug: r.seo_slug,
    ...shownPayment({ payment_enabled: !!r.payment_enabled, pricing_mode: r.pricing_mode, is_free: !!r.is_free, price: r.price }, true),
    handover: handoverModes(!!r.can_pick_up, !!r.can_ship),
    created_at: r.created_at,
    search_rank: r.search_rank,
  };
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

/** Both statements of a search go to D1 in one batch (one round trip). */
export async function searchListings(db: Db, p: SearchParams): Promise<SearchResult> {
  const plan = buildSearchPlan(p);
  const [found, counted] = await db.batch([
    db.prepare(plan.rows.sql).bind(...plan.rows.params),
    db.prepare(plan.count.sql).bind(...plan.count.params),
  ]);
  const all = (found.results as Row[]).map(toSearchRow);
  const tiers = plan.ranks.map((rank) => all.filter((r) => r.search_rank === rank));
  const n = p.offset + p.limit;
  // The last tier (every match) ran when the better ones held fewer than n rows; then, if it holds
  // fewer than n itself, it holds all of them.
  const last = tiers[tiers.length - 1];
  const allMatches = tiers.slice(0, -1).every((t) => t.length < n) && last.length < n ? last.length : null;
  const rows = mergeTiers(tiers, p.offset, p.limit);
  return { rows, ...searchTotal((counted.results[0] as CountRow | undefined) ?? { n: 0 }, allMatches, p.offset + rows.length) };
}
