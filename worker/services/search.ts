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
 * One query for rows and total (window COUNT). With text: candidates from the trigram index
 * (substrings, so "klosser" finds "legoklosser" and "lego" finds "legoklosser"), every term
 * required; ranked by bm25 with title weighted 10× over description, plus a bonus when the word
 * index matches the terms as word prefixes. Terms shorter than 3 characters use the word index.
 */
export async function searchListings(db: D1Database, p: SearchParams): Promise<SearchResult> {
  const params: unknown[] = [];
  const bind = (v: unknown) => {
    params.push(v);
    return `?${params.length}`;
  };
  const where: string[] = ["l.status = 'active'", "l.is_hidden = 0"];
  if (p.categories.length) where.push(`l.category IN (${p.categories.map(bind).join(", ")})`);
  if (p.conditions.length) where.push(`l.condition_rating IN (${p.conditions.map(bind).join(", ")})`);
  if (p.ages.length) where.push(`l.age_range IN (${p.ages.map(bind).join(", ")})`);
  if (p.free) where.push("l.is_free = 1");
  const { min, max } = priceBounds(p);
  if (min !== null) where.push(`COALESCE(l.price, 0) >= ${bind(min)}`);
  if (max !== null) where.push(`COALESCE(l.price, 0) <= ${bind(max)}`);
  if (p.trade) where.push("l.is_trade_offer = 1");
  if (p.postal) where.push(`l.postal_code LIKE ${bind(`${p.postal}%`)}`);

  const terms = searchTerms(p.q);
  const long = terms.filter((t) => t.length >= 3);
  const short = terms.filter((t) => t.length < 3);
  const sort = p.sort ?? (terms.length ? "relevance" : "newest");
  const order = {
    relevance: "search_rank DESC, l.created_at DESC",
    newest: "l.created_at DESC",
    price_asc: "COALESCE(l.price, 0) ASC, l.created_at DESC",
    price_desc: "COALESCE(l.price, 0) DESC, l.created_at DESC",
  }[sort];

  let sql: string;
  if (terms.length === 0) {
    sql = `SELECT ${COLUMNS}, 0 AS search_rank, COUNT(*) OVER () AS total FROM listings l WHERE ${where.join(" AND ")}`;
  } else {
    const wordQuery = terms.map((t) => `${quote(t)}*`).join(" ");
    const wordCte = `w AS (SELECT rowid AS rid, bm25(listings_fts, 10.0, 1.0) AS rank FROM listings_fts WHERE listings_fts MATCH ${bind(wordQuery)})`;
    if (long.length) {
      const triQuery = long.map(quote).join(" ");
      const shortFilter = short.length
        ? `AND t.rowid IN (SELECT rowid FROM listings_fts WHERE listings_fts MATCH ${bind(short.map((s) => `${quote(s)}*`).join(" "))})`
        : "";
      sql = `WITH ${wordCte},
        t AS (SELECT rowid AS rid, bm25(listings_fts_trigram, 10.0, 1.0) AS rank FROM listings_fts_trigram t
              WHERE listings_fts_trigram MATCH ${bind(triQuery)} ${shortFilter})
        SELECT ${COLUMNS}, -(t.rank + COALESCE(w.rank, 0) * 2) AS search_rank, COUNT(*) OVER () AS total
        FROM t JOIN listing_search_map m ON m.rowid = t.rid JOIN listings l ON l.id = m.listing_id
        LEFT JOIN w ON w.rid = t.rid
        WHERE ${where.join(" AND ")}`;
    } else {
      sql = `WITH ${wordCte}
        SELECT ${COLUMNS}, -(w.rank * 2) AS search_rank, COUNT(*) OVER () AS total
        FROM w JOIN listing_search_map m ON m.rowid = w.rid JOIN listings l ON l.id = m.listing_id
        WHERE ${where.join(" AND ")}`;
    }
  }
  sql += ` ORDER BY ${order} LIMIT ${bind(p.limit)} OFFSET ${bind(p.offset)}`;

  const { results } = await db.prepare(sql).bind(...params).all<Row>();
  let total = results[0]?.total ?? 0;
  if (results.length === 0 && p.offset > 0) {
    // Past the last page: the window count is not available, ask for it alone.
    total = (await db.prepare(`SELECT COUNT(*) AS n FROM (${sql.replace(/ ORDER BY [\s\S]*$/, "")})`).bind(...params.slice(0, -2)).first<{ n: number }>())?.n ?? 0;
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
