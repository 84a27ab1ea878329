// Matching new listings against saved searches in batches (docs/decisions/040-saved-search-matching.md).
//
// One call matches a whole batch of new listings (a queue batch, or the cron's catch-up) with a
// fixed number of statements, however many saved searches there are:
//   1. the batch's rows of listing_search_map, and the distinct text keys of text-keyed searches;
//   2. the saved searches filed under the batch's facet keys, and — in the same D1 batch — the
//      text-keyed searches whose text the FTS index finds among the batch's rows (one statement for
//      every distinct text, each restricted to the batch's rowid range);
//   3. the FTS check of the candidates of facet-keyed searches that also have text, one statement
//      for every distinct text, each restricted to its candidates' rowid range;
//   4. the matches, inserted once (`ON CONFLICT DO NOTHING`: a listing matches a search once).
// Filters are checked in the Worker (`facetsMatch`, the rules of buildSearchPlan); text only by
// FTS5 with the search's own MATCH expressions (`textMatch`, with what the vocabulary says of the
// texts' words: one statement before steps 2 and 3 each), so an alert agrees with /search.
import type { Db } from "../../db/client";
import { textMatch, type TextMatch } from "../search/text-match";
import { lookUpVocabulary } from "../search/vocabulary";
import { understandTerms, type Vocabulary } from "../../../domain/search-language";
import { facetsMatch, listingKeys, specOfQuery, TEXT_KEY_PREFIX, termsOfTextKey, type MatchListing, type MatchSpec } from "./match-index";
import { listingAttributes } from "../../../domain/listing-fields";

interface SearchRow {
  id: string;
  user_id: string;
  query: string;
  since_rid: number;
}

export interface MatchStats {
  /** Public listings in the batch. */
  listings: number;
  /** Saved searches loaded as candidates (facet keys) or found by their text. */
  candidates: number;
  /** Distinct texts checked with FTS5. */
  textChecks: number;
  /** (saved search, listing) pairs that match. */
  matches: number;
  /** Of those, rows that were new (not matched before). */
  inserted: number;
}

export interface MatchPair {
  savedSearchId: string;
  listingId: string;
  rid: number;
}

const LISTING_COLUMNS = [
  "m.rid, m.listing_id, l.user_id, m.category, m.age_range, m.condition_rating, m.price, m.is_free, m.is_trade_offer, m.postal_code",
  ...listingAttributes().map((a) => `m.${a.key}`),
].join(", ");
const SEARCH_COLUMNS = "s.id, s.user_id, s.query, s.since_rid";
/** Pairs per INSERT statement: keeps each bound JSON value far below D1's 2 MB limit. */
const INSERT_CHUNK = 2000;

/** Match the given listings (the queue consumer): those that are public now. */
export async function matchListings(
  db: Db,
  listingIds: readonly string[],
  now: Date = new Date(),
): Promise<MatchStats & { pairs: MatchPair[] }> {
  const rows = db
    .prepare(
      `SELECT ${LISTING_COLUMNS} FROM listing_search_map m JOIN listings l ON l.id = m.listing_id
       WHERE m.listing_id IN (SELECT value FROM json_each(?1)) AND m.is_public = 1`,
    )
    .bind(JSON.stringify([...new Set(listingIds)]));
  return matchBatch(db, rows, now);
}

/** Match the public listings with search rowid in (afterRid, toRid] (the cron's catch-up). */
export async function matchRidRange(
  db: Db,
  afterRid: number,
  toRid: number,
  now: Date = new Date(),
): Promise<MatchStats & { pairs: MatchPair[] }> {
  const rows = db
    .prepare(
      `SELECT ${LISTING_COLUMNS} FROM listing_search_map m JOIN listings l ON l.id = m.listing_id WHERE m.rid > ?1 AND m.rid <= ?2 AND m.is_public = 1`,
    )
    .bind(afterRid, toRid);
  return matchBatch(db, rows, now);
}

interface FtsQuery {
  key: string;
  match: TextMatch;
  lo: number;
  hi: number;
}

/**
 * One statement that runs every text of `queries` against its FTS5 table, each restricted to its
 * own rowid range (FTS5 uses both the MATCH and the range: "M2><" in the plan). The expressions
 * are bound as JSON, never written into the SQL. Rows: (key, rid).
 */
function ftsHitsSql(queries: readonly FtsQuery[], firstParam: number): { sql: string; params: string[] } | null {
  const parts: string[] = [];
  const params: string[] = [];
  for (const table of ["listings_fts", "listings_fts_trigram", "listings_stems"] as const) {
    const own = queries.filter((q) => q.match.table === table).map((q) => ({ k: q.key, e: q.match.expr, lo: q.lo, hi: q.hi }));
    if (own.length === 0) continue;
    params.push(JSON.stringify(own));
    const p = `?${firstParam + params.length - 1}`;
    parts.push(
      `SELECT q.value->>'$.k' AS key, f.rowid AS rid FROM json_each(${p}) q JOIN ${table} f ON ${table} MATCH (q.value->>'$.e')
       WHERE f.rowid BETWEEN (q.value->>'$.lo') AND (q.value->>'$.hi')`,
    );
  }
  return parts.length ? { sql: parts.join(" UNION ALL "), params } : null;
}

/**
 * What the vocabulary says of the words of these text keys (one statement for all of them), so a
 * saved search's compounds and typos are understood as /search understands them.
 */
async function vocabularyOfKeys(db: Db, keys: readonly string[]): Promise<Vocabulary | null> {
  const terms = [...new Set(keys.flatMap(termsOfTextKey))];
  return terms.length ? lookUpVocabulary(db, terms) : null;
}

/** The FTS5 matches of a text key (`textMatch`, as /search runs them). */
function matchesOfKey(key: string, vocabulary: Vocabulary | null): TextMatch[] {
  const terms = termsOfTextKey(key);
  return textMatch(terms, terms.length && terms.every((t) => t.length >= 3) ? understandTerms(terms, vocabulary) : null);
}

async function matchBatch(db: Db, listingRows: D1PreparedStatement, now: Date): Promise<MatchStats & { pairs: MatchPair[] }> {
  const stats: MatchStats = { listings: 0, candidates: 0, textChecks: 0, matches: 0, inserted: 0 };

  // 1. The batch, and the texts of text-keyed searches.
  const [listingResult, textKeyResult] = await db.batch<Record<string, unknown>>([
    listingRows,
    db
      .prepare("SELECT DISTINCT key FROM saved_search_keys WHERE key >= ?1 AND key < ?2")
      .bind(TEXT_KEY_PREFIX, nextPrefix(TEXT_KEY_PREFIX)),
  ]);
  const listings = listingResult.results as unknown as MatchListing[];
  stats.listings = listings.length;
  if (listings.length === 0) return { ...stats, pairs: [] };
  const byRid = new Map(listings.map((l) => [l.rid, l]));
  const rids = listings.map((l) => l.rid);
  const lo = Math.min(...rids);
  const hi = Math.max(...rids);
  const textKeys = (textKeyResult.results as { key: string }[]).map((r) => r.key);

  // 2. Facet-keyed candidates, and text-keyed searches whose text occurs in the batch.
  const facetKeys = [...new Set(listings.flatMap(listingKeys))];
  const vocabulary = await vocabularyOfKeys(db, textKeys);
  const textQueries = textKeys.flatMap((key) => matchesOfKey(key, vocabulary).map((match) => ({ key, match, lo, hi })));
  stats.textChecks += textQueries.length;
  const textHits = ftsHitsSql(textQueries, 2);
  const statements = [
    db
      .prepare(
        `SELECT k.key, ${SEARCH_COLUMNS} FROM saved_search_keys k JOIN saved_searches s ON s.id = k.saved_search_id
         WHERE k.key IN (SELECT value FROM json_each(?1)) AND s.since_rid < ?2`,
      )
      .bind(JSON.stringify(facetKeys), hi),
  ];
  if (textHits) {
    statements.push(
      db
        .prepare(
          // MATERIALIZED: flattened, SQLite pushes `hits.rid IN (…)` into each FTS5 scan as one rowid
          // lookup per listing and per text instead of the rowid range (40× slower at 100 listings).
          `WITH hits(key, rid) AS MATERIALIZED (${textHits.sql})
           SELECT hits.rid, ${SEARCH_COLUMNS} FROM hits JOIN saved_search_keys k ON k.key = hits.key JOIN saved_searches s ON s.id = k.saved_search_id
           WHERE hits.rid IN (SELECT value FROM json_each(?1)) AND s.since_rid < hits.rid`,
        )
        .bind(JSON.stringify(rids), ...textHits.params),
    );
  }
  const [facetResult, textResult] = await db.batch<Record<string, unknown>>(statements);

  const specs = new Map<string, MatchSpec>();
  const specOf = (s: SearchRow) => {
    let spec = specs.get(s.id);
    if (!spec) specs.set(s.id, (spec = specOfQuery(s.query)));
    return spec;
  };
  const pairs = new Map<string, MatchPair>();
  const accept = (s: SearchRow, l: MatchListing) => {
    pairs.set(`${s.id} ${l.listing_id}`, { savedSearchId: s.id, listingId: l.listing_id, rid: l.rid });
  };
  // The matcher never alerts someone about their own listing, nor about one older than the search.
  const eligible = (s: SearchRow, l: MatchListing) => l.rid > s.since_rid && l.user_id !== s.user_id;

  // Text-keyed searches found by FTS: their text matches; check the rest of their filters.
  const textRows = (textResult?.results ?? []) as unknown as (SearchRow & { rid: number })[];
  for (const row of textRows) {
    const l = byRid.get(row.rid);
    if (l && eligible(row, l) && facetsMatch(specOf(row), l)) accept(row, l);
  }

  // Facet-keyed searches: every listing against the searches filed under its keys.
  const byKey = new Map<string, SearchRow[]>();
  const seen = new Set<string>();
  for (const row of facetResult.results as unknown as (SearchRow & { key: string })[]) {
    seen.add(row.id);
    const list = byKey.get(row.key);
    if (list) list.push(row);
    else byKey.set(row.key, [row]);
  }
  stats.candidates = seen.size + new Set(textRows.map((r) => r.id)).size;
  // Facet matches that still need their text checked, grouped by text: terms key → pairs.
  const needText = new Map<string, { search: SearchRow; listing: MatchListing }[]>();
  for (const l of listings) {
    for (const key of listingKeys(l)) {
      for (const s of byKey.get(key) ?? []) {
        if (!eligible(s, l)) continue;
        const spec = specOf(s);
        if (!facetsMatch(spec, l)) continue;
        if (spec.terms.length === 0) {
          accept(s, l);
          continue;
        }
        const textKey = TEXT_KEY_PREFIX + spec.terms.join(" ");
        const group = needText.get(textKey);
        if (group) group.push({ search: s, listing: l });
        else needText.set(textKey, [{ search: s, listing: l }]);
      }
    }
  }

  // 3. The text of facet-keyed candidates, one FTS check per distinct text over its candidates' range.
  if (needText.size) {
    const vocabulary = await vocabularyOfKeys(db, [...needText.keys()]);
    const queries = [...needText].flatMap(([key, group]) => {
      const groupRids = group.map((g) => g.listing.rid);
      return matchesOfKey(key, vocabulary).map((match) => ({ key, match, lo: Math.min(...groupRids), hi: Math.max(...groupRids) }));
    });
    stats.textChecks += queries.length;
    const check = ftsHitsSql(queries, 1)!;
    const hits = await db
      .prepare(check.sql)
      .bind(...check.params)
      .all<{ key: string; rid: number }>();
    const found = new Set(hits.results.map((h) => `${h.key}\n${h.rid}`));
    for (const [key, group] of needText) {
      for (const { search, listing } of group) if (found.has(`${key}\n${listing.rid}`)) accept(search, listing);
    }
  }

  // 4. Store the matches once each. Rows of a search deleted meanwhile are left out by the join.
  const all = [...pairs.values()];
  stats.matches = all.length;
  if (all.length) {
    const at = now.toISOString();
    const inserts = [];
    for (let i = 0; i < all.length; i += INSERT_CHUNK) {
      const chunk = all.slice(i, i + INSERT_CHUNK).map((p) => [p.savedSearchId, p.listingId, p.rid]);
      inserts.push(
        db
          .prepare(
            `INSERT INTO saved_search_matches (saved_search_id, listing_id, listing_rid, user_id, alert_state, matched_at)
             SELECT s.id, l.id, j.value->>'$[2]', s.user_id, CASE s.alert WHEN 'off' THEN 'off' ELSE 'pending' END, ?2
             FROM json_each(?1) j JOIN saved_searches s ON s.id = j.value->>'$[0]' JOIN listings l ON l.id = j.value->>'$[1]'
             WHERE 1 ON CONFLICT DO NOTHING`,
          )
          .bind(JSON.stringify(chunk), at),
      );
    }
    const results = await db.batch(inserts);
    stats.inserted = results.reduce((n, r) => n + (r.meta.changes ?? 0), 0);
  }
  return { ...stats, pairs: all };
}

/**
 * Forget the stored matches of the given listings, so a later run stores them again. Only for the
 * local benchmark route (worker/features/saved-searches/dev-routes.ts), which repeats runs over one batch.
 */
export async function forgetMatches(db: Db, listingIds: readonly string[]): Promise<void> {
  await db
    .prepare("DELETE FROM saved_search_matches WHERE listing_id IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify([...listingIds]))
    .run();
}

/** The smallest string after every string that starts with `prefix` ("t:" → "t;"). */
function nextPrefix(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
