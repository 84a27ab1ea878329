import { foldNorwegian } from "../../domain/search";
import { priceBounds, type SearchParams, type SearchResult, type SearchRow } from "../../domain/schemas/search";
import type { PricingMode, ListingStatus } from "../../domain/taxonomy";

/** Terms of free text: folded like the index (ø→o, æ→ae, å→a), letters and digits only. */
export function searchTerms(q: string): string[] {
  return foldNorwegian(q.toLowerCase())
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
}

/** Every term becomes a quoted FTS5 string (inner quotes doubled): operators are never parsed. */
/** Added to a candidate's rank when its terms also match as word prefixes (whole-word hits first). */
const WORD_BONUS = 2;

const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;

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
  total: number;
}

const COLUMNS = `l.id, l.user_id, l.title, l.price, l.is_free, l.is_trade_offer, l.condition_rating, l.category, l.age_range,
  l.postal_code, l.images, l.status, l.seo_slug, l.pricing_mode, l.payment_enabled, l.created_at`;

/**
 * One statement for rows and total (window COUNT). With text: candidates from the trigram index
 * (substrings, so "klosser" finds "legoklosser" and "lego" finds "legoklosser"), every term
 * required; ranked by bm25 with title weighted 10× over description, plus a fixed bonus when the
 * word index matches the terms as word prefixes. Terms shorter than 3 characters use the word index.
 */
export function buildSearchQuery(p: SearchParams): { sql: string; params: unknown[]; countSql: string; countParams: unknown[] } {
  const params: unknown[] = [];
  const bind = (v: unknown) => {
    params.push(v);
    return `?${params.length}`;
  };
  // Filters run on the narrow projection `s` (listing_search_map), never on the wide listings table.
  const where: string[] = ["s.is_public = 1"];
  if (p.categories.length) where.push(`s.category IN (${p.categories.map(bind).join(", ")})`);
  if (p.conditions.length) where.push(`s.condition_rating IN (${p.conditions.map(bind).join(", ")})`);
  if (p.ages.length) where.push(`s.age_range IN (${p.ages.map(bind).join(", ")})`);
  if (p.free) where.push("s.is_free = 1");
  const { min, max } = priceBounds(p);
  if (min !== null) where.push(`s.price >= ${bind(min)}`);
  if (max !== null) where.push(`s.price <= ${bind(max)}`);
  if (p.trade) where.push("s.is_trade_offer = 1");
  if (p.postal) where.push(`s.postal_code LIKE ${bind(`${p.postal}%`)}`);

  const terms = searchTerms(p.q);
  const long = terms.filter((t) => t.length >= 3);
  const short = terms.filter((t) => t.length < 3);
  const sort = p.sort ?? (terms.length ? "relevance" : "newest");
  const order = (t: string) =>
    ({
      relevance: `${t}search_rank DESC, ${t}created_at DESC`,
      newest: `${t}created_at DESC`,
      price_asc: `${t}price ASC, ${t}created_at DESC`,
      price_desc: `${t}price DESC, ${t}created_at DESC`,
    })[sort];

  // MATERIALIZED keeps each FTS MATCH a single pass: inlined into the outer query, an IN or join
  // on the virtual table's rowid is re-run per candidate row.
  const ctes: string[] = [];
  let from: string;
  let rank: string;
  if (terms.length === 0) {
    from = "listing_search_map s";
    rank = "0";
  } else {
    const wordQuery = terms.map((t) => `${quote(t)}*`).join(" ");
    if (long.length) {
      ctes.push(
        `t AS MATERIALIZED (SELECT rowid AS rid, bm25(listings_fts_trigram, 10.0, 1.0) AS rank FROM listings_fts_trigram WHERE listings_fts_trigram MATCH ${bind(long.map(quote).join(" "))})`,
        `w AS MATERIALIZED (SELECT rowid AS rid FROM listings_fts WHERE listings_fts MATCH ${bind(wordQuery)})`,
      );
      if (short.length) {
        ctes.push(`sw AS MATERIALIZED (SELECT rowid AS rid FROM listings_fts WHERE listings_fts MATCH ${bind(short.map((t) => `${quote(t)}*`).join(" "))})`);
        where.push("t.rid IN (SELECT rid FROM sw)");
      }
      from = "t JOIN listing_search_map s ON s.rid = t.rid LEFT JOIN w ON w.rid = t.rid";
      rank = `(CASE WHEN w.rid IS NULL THEN 0 ELSE ${WORD_BONUS} END) - t.rank`;
    } else {
      ctes.push(`w AS MATERIALIZED (SELECT rowid AS rid, bm25(listings_fts, 10.0, 1.0) AS rank FROM listings_fts WHERE listings_fts MATCH ${bind(wordQuery)})`);
      from = "w JOIN listing_search_map s ON s.rid = w.rid";
      rank = `${WORD_BONUS} - w.rank`;
    }
  }
  const matches = `FROM ${from} WHERE ${where.join(" AND ")}`;
  // The total alone, for a page past the end (the window count has no row to ride on).
  const countSql = `${ctes.length ? `WITH ${ctes.join(",\n")} ` : ""}SELECT COUNT(*) AS n ${matches}`;
  const countParams = [...params];
  ctes.push(`hits AS (SELECT s.listing_id, s.created_at, s.price, ${rank} AS search_rank, COUNT(*) OVER () AS total
    ${matches} ORDER BY ${order("")} LIMIT ${bind(p.limit)} OFFSET ${bind(p.offset)})`);
  // Only the page's rows touch the wide listings table.
  const sql = `WITH ${ctes.join(",\n")}
    SELECT ${COLUMNS}, hits.search_rank, hits.total FROM hits JOIN listings l ON l.id = hits.listing_id ORDER BY ${order("hits.")}`;
  return { sql, params, countSql, countParams };
}

export async function searchListings(db: D1Database, p: SearchParams): Promise<SearchResult> {
  const { sql, params, countSql, countParams } = buildSearchQuery(p);
  const { results } = await db.prepare(sql).bind(...params).all<Row>();
  let total = results[0]?.total ?? 0;
  if (results.length === 0 && p.offset > 0) {
    total = (await db.prepare(countSql).bind(...countParams).first<{ n: number }>())?.n ?? 0;
  }
  const rows: SearchRow[] = results.map((r) => ({
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
    search_rank: Math.round(r.search_rank * 1000) / 1000,
  }));
  return { rows, total };
}
