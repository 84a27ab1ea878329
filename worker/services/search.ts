import { ftsString as quote, searchTerms } from "../../domain/search";
import { priceBounds, SEARCH_TOTAL_CAP, type SearchParams, type SearchResult, type SearchRow } from "../../domain/schemas/search";
import type { PricingMode, ListingStatus } from "../../domain/taxonomy";
import type { Db } from "../db/client";

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
  created_at: string;
  search_rank: number;
}

const COLUMNS = `l.id, l.user_id, l.title, l.price, l.is_free, l.is_trade_offer, l.condition_rating, l.category, l.age_range,
  l.postal_code, l.images, l.status, l.seo_slug, l.pricing_mode, l.payment_enabled, l.created_at`;

export interface SearchStatement {
  sql: string;
  params: unknown[];
}

export interface SearchPlan {
  /** Row statements in tier order (best first); each returns up to offset + limit rows. */
  tiers: SearchStatement[];
  count: SearchStatement;
  /** True when the count stops at SEARCH_TOTAL_CAP (every search today). */
  capped: boolean;
}

/**
 * Build the statements for one search. Filters run on the narrow projection `s`
 * (listing_search_map), never on the wide listings table, and only the rows of the page are joined
 * to listings.
 *
 * Free text: candidates come from the trigram index (substrings, so "klosser" finds "legoklosser"),
 * every term required; a query with a term shorter than 3 characters uses the word index with
 * prefixes instead.
 * Relevance is tiered — 2: all terms start words of the title; 1: all terms occur in the title;
 * 0: the rest — and newest first within a tier. Each tier is a separate statement that streams in
 * index order (rowid = creation order) and stops after offset + limit rows, so a common word costs
 * the same as a rare one; the tiers are merged in `mergeTiers`. The total is exact up to
 * SEARCH_TOTAL_CAP. See docs/decisions/004-search-index.md.
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
    // Without text the filter indexes (is_public, …, created_at) give newest first.
    newest: terms.length ? "s.rid DESC" : "s.created_at DESC",
    relevance: "s.rid DESC",
    price_asc: "s.price ASC, s.rid DESC",
    price_desc: "s.price DESC, s.rid DESC",
  }[p.sort ?? (terms.length ? "relevance" : "newest")];
  const page = (rank: string, from: string, extra: string, order: string, b: (v: unknown) => string) =>
    `SELECT ${COLUMNS}, ${rank} AS search_rank FROM (SELECT s.listing_id, s.rid, s.price FROM ${from} WHERE ${where}${extra}
       ORDER BY ${order} LIMIT ${b(n)}) h JOIN listings l ON l.id = h.listing_id`;

  if (terms.length === 0) {
    return {
      tiers: [statement((b) => page("0", "listing_search_map s", "", sortKey, b))],
      count: statement((b) => `SELECT COUNT(*) AS n FROM (SELECT 1 FROM listing_search_map s WHERE ${where} LIMIT ${b(SEARCH_TOTAL_CAP + 1)})`),
      capped: true,
    };
  }

  // A query with a one- or two-letter word ("nesten ny", "lego 3") is matched as word prefixes
  // only: the trigram index needs 3 characters, and intersecting it with a short prefix is slow.
  const wordsOnly = terms.some((t) => t.length < 3);
  const long = wordsOnly ? [] : terms;
  const words = terms.map((t) => `${quote(t)}*`).join(" ");
  // All matches: substrings in the trigram index, or word prefixes in the word index.
  // `titleOnly` restricts the terms to the title column (FTS5 column filter).
  const matchAll = (b: (v: unknown) => string, titleOnly = false) => {
    const terms = long.length ? long.map(quote).join(" ") : words;
    const expr = titleOnly ? `title : (${terms})` : terms;
    return long.length
      ? { from: "listings_fts_trigram f JOIN listing_search_map s ON s.rid = f.rowid", extra: ` AND listings_fts_trigram MATCH ${b(expr)}` }
      : { from: "listings_fts f JOIN listing_search_map s ON s.rid = f.rowid", extra: ` AND listings_fts MATCH ${b(expr)}` };
  };

  const count = statement((b) => {
    const m = matchAll(b);
    return `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${m.from} WHERE ${where}${m.extra} LIMIT ${b(SEARCH_TOTAL_CAP + 1)})`;
  });

  if (p.sort && p.sort !== "relevance") {
    // Newest or by price: one ordered pass over all matches.
    return { tiers: [statement((b) => { const m = matchAll(b); return page("0", m.from, m.extra, sortKey, b); })], count, capped: true };
  }

  const tiers: SearchStatement[] = [
    // 2: every term starts a word of the title.
    statement((b) =>
      page("2", "listings_fts f JOIN listing_search_map s ON s.rid = f.rowid", ` AND listings_fts MATCH ${b(`title : (${words})`)}`, "f.rowid DESC", b),
    ),
  ];
  if (long.length) {
    // 1: every long term occurs in the title (inside compound words too); short terms anywhere.
    tiers.push(
      statement((b) => {
        const m = matchAll(b, true);
        return page("1", m.from, m.extra, "f.rowid DESC", b);
      }),
    );
  }
  // 0: everything that matches.
  tiers.push(statement((b) => { const m = matchAll(b); return page("0", m.from, m.extra, "f.rowid DESC", b); }));
  return { tiers, count, capped: true };
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
    pricing_mode: r.pricing_mode,
    payment_enabled: !!r.payment_enabled,
    created_at: r.created_at,
    search_rank: r.search_rank,
  };
}

/** All statements of a search go to D1 in one batch (one round trip). */
export async function searchListings(db: Db, p: SearchParams): Promise<SearchResult> {
  const plan = buildSearchPlan(p);
  const d1 = db.$client;
  const results = await d1.batch([
    ...plan.tiers.map((t) => d1.prepare(t.sql).bind(...t.params)),
    d1.prepare(plan.count.sql).bind(...plan.count.params),
  ]);
  const tierRows = results.slice(0, plan.tiers.length).map((r) => (r.results as Row[]).map(toSearchRow));
  const counted = (results[plan.tiers.length].results[0] as { n: number } | undefined)?.n ?? 0;
  const total = plan.capped ? Math.min(counted, SEARCH_TOTAL_CAP) : counted;
  return { rows: mergeTiers(tierRows, p.offset, p.limit), total, total_capped: plan.capped && counted > SEARCH_TOTAL_CAP };
}
