import { ftsString as quote, searchTerms } from "../../../domain/search";
import { notCompoundsOf, rawForms, type TermLanguage, understandTerms } from "../../../domain/search-language";
import { vocabularyOf, vocabularyStatement } from "./vocabulary";
import {
  priceBounds,
  SEARCH_COUNT_SAMPLE,
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
  /**
   * When a word was taken for a typo: one row, `found` = 1 when the words as typed (without the
   * corrections) match a listing the filters pass. Null otherwise.
   */
  typed: SearchStatement | null;
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

/**
 * A row count written into the SQL rather than bound: SQLite plans a statement whose LIMITs are
 * known better (a bound LIMIT made the tiered search 3–4 times slower on a million listings). Only
 * an integer the schema has validated, or a constant, ever gets here.
 */
function rowCount(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`);
  return String(n);
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
 * Free text: candidates come from two indexes (`textMatch`): the trigram index of title and
 * description (substrings, so "klosser" finds "legoklosser") and the stemmed titles, every term
 * required, each term also by its forms and what `language` says it stands for
 * (domain/search-language.ts: everyday words, a split compound, a typo's corrections); a query with
 * a term shorter than 3 characters uses the word index with prefixes instead, as typed.
 * Relevance is tiered — 8: every term is a word of the title; 7: every term ends one (a compound's
 * head); 6: starts or ends one; 5: occurs in the title; then the stemmed title (listings_stems) — 4:
 * every term's stem is a stemmed word ("dukker" finds "Baby Born dukke"); 3: ends one ("sykler" finds
 * "Trehjulssykkel"); 2: occurs in it; 1: the stem, an everyday word, the compound's parts or a
 * correction occurs in it; 0: the rest (title or description as written). A query matched by word
 * prefixes: 8 whole title words, 6 title word starts, 0 the rest. Newest first within a tier. Each
 * tier streams in index order (rowid = creation order) and stops after offset + limit rows, so a
 * common word costs the same as a rare one, and a tier runs only when the better ones did not fill
 * the page; the tiers are merged in `mergeTiers`. The total is exact up to SEARCH_TOTAL_CAP, or
 * estimated when the filters pass few of many text matches (`searchTotal`).
 * See docs/decisions/004-search-index.md, 044-search-at-scale.md and 151-search-language.md.
 *
 * `language` is the query's terms understood with the vocabulary (`understandTerms`); without it, the
 * terms' stems, irregular forms and everyday words, which need no lookup.
 */
export function buildSearchPlan(p: SearchParams, language?: readonly TermLanguage[] | null): SearchPlan {
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
  /**
   * One ordered pass, one tier (0). The pass reads the projection's rid and price only, so an index
   * that holds them (and the filters) answers it without reading a row: ordered by price, SQLite sorts
   * every listing of the first prices by rid, and reading each one's row for its listing_id made that
   * 20–30 times slower. Only the page's rows are looked up.
   */
  const page = (from: string, extra: (b: (v: unknown) => string) => string) =>
    statement(
      (b) => `SELECT ${COLUMNS}, 0 AS search_rank FROM (SELECT s.rid, s.price FROM ${from} WHERE ${where}${extra(b)}
       ORDER BY ${sortKey} LIMIT ${rowCount(n)}) h JOIN listing_search_map m ON m.rid = h.rid JOIN listings l ON l.id = m.listing_id`,
    );

  if (terms.length === 0) {
    return {
      rows: page("listing_search_map s", () => ""),
      ranks: [0],
      count: statement(
        () => `SELECT COUNT(*) AS n FROM (SELECT 1 FROM listing_search_map s WHERE ${where} LIMIT ${rowCount(SEARCH_TOTAL_CAP + 1)})`,
      ),
      typed: null,
    };
  }

  // All matches (`textMatch`, shared with saved-search matching): substrings in the trigram index and
  // stems in the stemmed titles, or word prefixes in the word index.
  const long = terms.every((t) => t.length >= 3);
  const understood = long ? (language ?? understandTerms(terms, null)) : null;
  const parts = textMatch(terms, understood);
  const words = terms.map((t) => `${quote(t)}*`).join(" ");
  const partTier = (m: TextMatch, rank: number): Tier => ({
    rank,
    from: `${m.table} f JOIN listing_search_map s ON s.rid = f.rowid`,
    extra: (b) => ` AND ${m.table} MATCH ${b(m.expr)}`,
  });

  // The count checks the filters of the newest SEARCH_COUNT_SCAN text matches and stops at the cap, so
  // a common word with a rare filter costs the same as a rare word. One more text match is read: when
  // it exists (`edge`), older matches were not checked and the total is estimated (see searchTotal).
  // Several indexes are merged newest first as they stream (a compound SELECT ordered by rowid).
  // First the newest SEARCH_COUNT_SAMPLE text matches (c1, checked once in `k`): when the estimate from
  // them is more than twice the cap, the total is the cap and nothing more is read (a common word
  // reads a quarter of the matches); else the scan goes on below the oldest of them (c2). CROSS JOIN
  // keeps the matches the outer loop (SQLite otherwise scans the listings newer than the oldest match).
  const count = statement((b) => {
    const arms = parts.map((m) => `SELECT rowid AS rid FROM ${m.table} WHERE ${m.table} MATCH ${b(m.expr)}`);
    const older = arms.map((arm) => `${arm} AND rowid < (SELECT edge FROM e1)`);
    const rest = SEARCH_COUNT_SCAN - SEARCH_COUNT_SAMPLE;
    return `WITH a AS MATERIALIZED (SELECT (SELECT max(rid) FROM listing_search_map) AS top, (SELECT min(rid) FROM listing_search_map) AS bottom),
        c1 AS MATERIALIZED (${arms.join(" UNION ")} ORDER BY 1 DESC LIMIT ${rowCount(SEARCH_COUNT_SAMPLE + 1)}),
        e1 AS MATERIALIZED (SELECT CASE WHEN COUNT(*) = ${rowCount(SEARCH_COUNT_SAMPLE + 1)} THEN MIN(rid) END AS edge FROM c1),
        k AS MATERIALIZED (SELECT COUNT(*) AS passed, SUM(c1.rid > (SELECT edge FROM e1)) AS newer
          FROM c1 CROSS JOIN listing_search_map s ON s.rid = c1.rid WHERE ${where}),
        m AS MATERIALIZED (SELECT coalesce(k.newer * (a.top - a.bottom + 1) > ${rowCount(2 * SEARCH_TOTAL_CAP)} * (a.top - e1.edge), 0) AS many FROM a, e1, k),
        c2 AS MATERIALIZED (${older.join(" UNION ")} ORDER BY 1 DESC
          LIMIT CASE WHEN (SELECT edge FROM e1) IS NULL OR (SELECT many FROM m) THEN 0 ELSE ${rowCount(rest)} END),
        e AS MATERIALIZED (SELECT CASE WHEN COUNT(*) = ${rowCount(rest)} THEN MIN(rid) END AS edge FROM c2)
      SELECT CASE WHEN m.many THEN ${rowCount(SEARCH_TOTAL_CAP + 1)} ELSE k.passed + (SELECT COUNT(*) FROM c2 CROSS JOIN listing_search_map s ON s.rid = c2.rid
          WHERE ${where} AND c2.rid > coalesce((SELECT edge FROM e), 0)) END AS n,
        CASE WHEN m.many THEN NULL ELSE (SELECT edge FROM e) END AS edge, a.top, a.bottom FROM a, k, m`;
  });

  // A typo's corrections widen the match: whether the words as typed find anything decides "Mente du …?".
  const typed =
    understood?.some((t) => t.corrected.length > 0) === true
      ? statement((b) => {
          const asTyped = textMatch(
            terms,
            understood.map((t) => ({ ...t, corrected: [] })),
          );
          const exists = asTyped.map(
            (m) =>
              `EXISTS (SELECT 1 FROM ${m.table} f JOIN listing_search_map s ON s.rid = f.rowid WHERE ${where} AND ${m.table} MATCH ${b(m.expr)})`,
          );
          return `SELECT (${exists.join(" OR ")}) AS found`;
        })
      : null;

  if (p.sort && p.sort !== "relevance") {
    // Newest or by price: one ordered pass over each index's matches, the first n of each merged:
    // the first n of all matches are among them.
    if (parts.length === 1) return { rows: page(partTier(parts[0], 0).from, partTier(parts[0], 0).extra), ranks: [0], count, typed };
    const outerKey = sortKey.replaceAll("f.rowid", "h.rid").replaceAll("s.", "h.");
    const rows = statement((b) => {
      const limit = rowCount(n);
      const passes = parts.map((m) => {
        const t = partTier(m, 0);
        return `SELECT * FROM (SELECT s.listing_id, s.rid, s.price FROM ${t.from} WHERE ${where}${t.extra(b)} ORDER BY ${sortKey} LIMIT ${limit})`;
      });
      return `SELECT ${COLUMNS}, 0 AS search_rank FROM (${passes.join(" UNION ")}) h JOIN listings l ON l.id = h.listing_id
        ORDER BY ${outerKey} LIMIT ${limit}`;
    });
    return { rows, ranks: [0], count, typed };
  }

  // The title tiers run on the title-only trigram indexes (migrations/0008_search_scale.sql and
  // 0031_search_language.sql), whose text has a space before and after every word: "ski " ends a
  // word ("Barneski": in Norwegian the last part of a compound names the thing), " ski" starts one
  // ("Skihjelm", or a word still being typed), "ski" is anywhere. listings_title_trigram holds the
  // title as written (folded), listings_stems its words stemmed; listings_words holds both as word
  // tokens, for the whole-word tiers (migrations/0032_search_words_index.sql). A title tier must stay inside what
  // the query matches at all: a query matched by word prefixes (a short term) ranks whole title words
  // (" ski ") over title word starts (" ski"), and one with a one-letter term (no trigram) finds its
  // title word starts in the word index.
  const titleTier = (rank: number, table: "listings_title_trigram" | "listings_stems", expr: string): Tier => ({
    rank,
    from: `${table} f JOIN listing_search_map s ON s.rid = f.rowid`,
    extra: (b) => ` AND ${table} MATCH ${b(expr)}`,
  });
  const wordTier = (rank: number, column: "title" | "stems", words: readonly string[]): Tier => ({
    rank,
    from: "listings_words f JOIN listing_search_map s ON s.rid = f.rowid",
    extra: (b) => ` AND listings_words MATCH ${b(`${column} : (${words.map(quote).join(" AND ")})`)}`,
  });
  const tiers: Tier[] = [];
  if (understood) {
    const exact = (make: (t: string) => string) => understood.map((t) => apart(t, make(t.term), false)).join(" AND ");
    const stemmed = (make: (t: TermLanguage) => string) =>
      required(understood)
        .map((t) => apart(t, make(t), true))
        .join(" AND ");
    // 8: every term is a word of the title; 7: every term ends one (a compound's last part names the
    // thing: "Trehjulssykkel" is a "sykkel"); 6: every term starts or ends one.
    // A whole word is a token of the word index (listings_words): one short doclist, where the
    // trigram phrase " t " reads the long ones of every word starting or ending alike, even when
    // nothing matches. A whole word is what the term names, so no NOT_COMPOUNDS here.
    tiers.push(
      wordTier(
        8,
        "title",
        understood.map((t) => t.term),
      ),
    );
    tiers.push(
      titleTier(
        7,
        "listings_title_trigram",
        exact((t) => quote(`${t} `)),
      ),
    );
    tiers.push(
      titleTier(
        6,
        "listings_title_trigram",
        exact((t) => `(${quote(` ${t}`)} OR ${quote(`${t} `)})`),
      ),
    );
    // 5: every term occurs in the title (inside compound words too).
    tiers.push(titleTier(5, "listings_title_trigram", exact(quote)));
    // The same in the stemmed title: 4: every term's stem is a stemmed word (a token of the word
    // index); 3: it ends one; 2: it occurs in the stemmed title (a short stem only at a word's end).
    tiers.push(
      wordTier(
        4,
        "stems",
        required(understood).map((t) => t.stem),
      ),
    );
    tiers.push(
      titleTier(
        3,
        "listings_stems",
        stemmed((t) => quote(`${t.stem} `)),
      ),
    );
    tiers.push(
      titleTier(
        2,
        "listings_stems",
        stemmed((t) => stemPattern(t.stem)),
      ),
    );
    // 1: …or an everyday word for it, its compound's parts (the last one ending a word), a correction:
    // every match of the stemmed titles (`textMatch`).
    tiers.push(partTier(parts[1], 1));
  } else if (terms.every((t) => t.length >= 2)) {
    // 8: every term is a word of the title; 6: every term starts one.
    tiers.push(titleTier(8, "listings_title_trigram", terms.map((t) => quote(` ${t} `)).join(" ")));
    tiers.push(titleTier(6, "listings_title_trigram", terms.map((t) => quote(` ${t}`)).join(" ")));
  } else {
    tiers.push({
      rank: 6,
      from: "listings_fts f JOIN listing_search_map s ON s.rid = f.rowid",
      extra: (b) => ` AND listings_fts MATCH ${b(`title : (${words})`)}`,
    });
  }
  // 0: everything else that matches: the description, as typed.
  tiers.push(partTier(parts[0], 0));

  // One statement: each tier is materialized once, newest first, up to n rows; a tier whose better
  // tiers already hold n rows gets LIMIT 0 and never touches its index.
  const rows = statement((b) => {
    const limit = rowCount(n);
    const ctes = tiers.map((t, i) => {
      const better = tiers.slice(0, i).map((u) => `(SELECT COUNT(*) FROM t${u.rank}) < ${limit}`);
      const lim = better.length ? `CASE WHEN ${better.join(" AND ")} THEN ${limit} ELSE 0 END` : limit;
      return `t${t.rank} AS MATERIALIZED (SELECT s.listing_id, s.rid FROM ${t.from} WHERE ${where}${t.extra(b)} ORDER BY f.rowid DESC LIMIT ${lim})`;
    });
    // D1 allows few terms in one compound SELECT: the tiers go in groups of at most four.
    const selects = tiers.map((t) => `SELECT ${t.rank} AS search_rank, listing_id, rid FROM t${t.rank}`);
    const groups: string[] = [];
    for (let i = 0; i < selects.length; i += 4) groups.push(`SELECT * FROM (${selects.slice(i, i + 4).join(" UNION ALL ")})`);
    const union = groups.join(" UNION ALL ");
    return `WITH ${ctes.join(",\n  ")}
      SELECT ${COLUMNS}, h.search_rank FROM (${union}) h JOIN listings l ON l.id = h.listing_id ORDER BY h.search_rank DESC, h.rid DESC`;
  });
  return { rows, ranks: tiers.map((t) => t.rank), count, typed };
}

/** The terms the stemmed title must hold: all but the small words among others ("klær til dukker"). */
const required = (understood: readonly TermLanguage[]) => understood.filter((t) => !t.stopword);

/** A stem this short is looked for in the stemmed title only as a word or a word's start or end ("syk" is not in "sykkel"). */
const SHORT_STEM = 4;

/** Where a stem may stand in the stemmed title: anywhere, or a short one as a word or a word's end. */
function stemPhrases(stem: string): string[] {
  return stem.length >= SHORT_STEM ? [stem] : [` ${stem} `, `${stem} `];
}

function stemPattern(stem: string): string {
  return anyOf([[stemPhrases(stem)]]);
}

/** A term's title expression without the titles where it is only part of a longer word ("bil" in "Playmobil"). */
function apart(t: TermLanguage, expr: string, stemmed: boolean): string {
  const not = notCompoundsOf(t.term)[stemmed ? "stems" : "raw"];
  return not.length ? `(${expr} NOT (${not.map(quote).join(" OR ")}))` : expr;
}

/**
 * One term's FTS5 alternatives: its stem, everyday words, compound parts and corrections. In the
 * stemmed title (`stemmed`) a split compound's last part must end a word ("dinosaurbok": "dinosaur"
 * and "bok "); in the raw text, where the stem starts the word, it may be anywhere.
 */
function alternatives(t: TermLanguage, stemmed: boolean, own?: readonly string[]): string {
  const pattern = (stem: string): string[] => (stemmed ? stemPhrases(stem) : [stem]);
  const options: string[][][] = [];
  for (const form of own ?? [t.stem]) options.push(own ? [[form]] : [pattern(form)]);
  for (const stem of t.related) options.push([pattern(stem)]);
  for (const { modifier, head } of t.splits) {
    const last = [stemmed ? `${head} ` : head];
    options.push(modifier ? [pattern(modifier), last] : [last]);
  }
  for (const stem of t.corrected) options.push([pattern(stem)]);
  return anyOf(options);
}

/**
 * An FTS5 OR of options, each an AND of ORs of phrases, without the options another one implies. In a
 * trigram index a phrase matches where it occurs as a substring, so a text with "legokloss" has "kloss":
 * ("kloss" OR "legokloss") is "kloss", and FTS5 reads one doclist instead of two. Whole phrases alone
 * imply: an option goes when one of its ANDed parts has only phrases holding a kept single phrase.
 */
function anyOf(options: readonly (readonly (readonly string[])[])[]): string {
  const singles = [...new Set(options.flatMap((o) => (o.length === 1 ? o[0] : [])))];
  const kept = singles.filter((p) => !singles.some((q) => q !== p && p.includes(q)));
  const implied = (part: readonly string[]) => part.every((p) => kept.some((q) => p.includes(q)));
  const exprs = new Set(kept.map(quote));
  for (const o of options) {
    if (o.length === 1 || o.some(implied)) continue;
    exprs.add(`(${o.map((part) => (part.length === 1 ? quote(part[0]) : `(${part.map(quote).join(" OR ")})`)).join(" AND ")})`);
  }
  return exprs.size === 1 ? [...exprs][0] : `(${[...exprs].join(" OR ")})`;
}

/** An FTS5 table that matches a search's free text, and its MATCH expression (always bound, never inlined). */
export interface TextMatch {
  table: "listings_fts" | "listings_fts_trigram" | "listings_stems";
  expr: string;
}

/**
 * What "matches the text" means for a search, given its terms (`searchTerms`) and what they are
 * understood to stand for (`understandTerms`): a listing matches when one of the returned indexes
 * matches it. Every term is required —
 * - in the trigram index of title and description, as typed (a substring), or as an irregular form
 *   ("sykkel" finds "sykler"), an everyday word for it, both parts of its compound, a correction;
 * - in the stemmed titles (listings_stems), by its stem ("dukker" finds "Baby Born dukke") or the same
 *   alternatives, stemmed.
 * A query with a one- or two-letter word ("nesten ny", "lego 3") matches as word prefixes in the word
 * index instead, as typed (the trigram index needs 3 characters, and intersecting it with a short
 * prefix is slow). Empty without terms. Saved-search matching uses the same function, so an alert
 * agrees with what /search returns (docs/decisions/040-saved-search-matching.md).
 */
export function textMatch(terms: readonly string[], language?: readonly TermLanguage[] | null): TextMatch[] {
  if (terms.length === 0) return [];
  if (terms.some((t) => t.length < 3)) return [{ table: "listings_fts", expr: terms.map((t) => `${quote(t)}*`).join(" ") }];
  const understood = language ?? understandTerms(terms, null);
  return [
    { table: "listings_fts_trigram", expr: understood.map((t) => alternatives(t, false, rawForms(t.term))).join(" AND ") },
    {
      table: "listings_stems",
      expr: required(understood)
        .map((t) => apart(t, alternatives(t, true), true))
        .join(" AND "),
    },
  ];
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

/**
 * The statements of a search go to D1 in one batch (one round trip), with the vocabulary's answer
 * about the query's words (worker/features/search/vocabulary.ts). When it says a word is a compound
 * to split or a typo to correct, the search runs again with that (a second round trip, for those
 * queries only).
 */
export async function searchListings(db: Db, p: SearchParams): Promise<SearchResult> {
  const terms = searchTerms(p.q);
  const ask = asksVocabulary(terms) ? vocabularyStatement(db, terms) : null;
  let plan = buildSearchPlan(p);
  let [found, counted, typed, vocabulary] = await runPlan(db, plan, ask);
  if (vocabulary) {
    const understood = widenedTerms(terms, vocabulary.results);
    if (understood) {
      plan = buildSearchPlan(p, understood);
      [found, counted, typed] = await runPlan(db, plan, null);
      if (typed && (typed.results[0] as { found: number } | undefined)?.found === 0 && found.results.length > 0)
        return { ...pageOf(plan, p, found, counted), suggestion: suggestionText(p.q, understood) };
    }
  }
  return { ...pageOf(plan, p, found, counted), suggestion: null };
}

/** Whether a search asks the vocabulary about its terms (words of three letters or more only). */
export const asksVocabulary = (terms: readonly string[]) => terms.length > 0 && terms.every((t) => t.length >= 3);

/** What the vocabulary adds to a term's matches. */
const widening = (t: TermLanguage) => [t.splits, t.corrected];

/** The terms understood with the vocabulary's answer, when that widens what they match (a second plan); null otherwise. */
export function widenedTerms(terms: readonly string[], vocabularyRows: readonly unknown[]): TermLanguage[] | null {
  const plain = understandTerms(terms, null);
  const understood = understandTerms(terms, vocabularyOf(vocabularyRows));
  return JSON.stringify(understood.map(widening)) !== JSON.stringify(plain.map(widening)) ? understood : null;
}

async function runPlan(db: Db, plan: SearchPlan, ask: D1PreparedStatement | null) {
  const statements = [db.prepare(plan.rows.sql).bind(...plan.rows.params), db.prepare(plan.count.sql).bind(...plan.count.params)];
  if (plan.typed) statements.push(db.prepare(plan.typed.sql).bind(...plan.typed.params));
  if (ask) statements.push(ask);
  const results = await db.batch(statements);
  const [found, counted] = results;
  const typed = plan.typed ? results[2] : null;
  const vocabulary = ask ? results[results.length - 1] : null;
  return [found, counted, typed, vocabulary] as const;
}

function pageOf(plan: SearchPlan, p: SearchParams, found: D1Result, counted: D1Result): Omit<SearchResult, "suggestion"> {
  const all = (found.results as unknown as Row[]).map(toSearchRow);
  const tiers = plan.ranks.map((rank) => all.filter((r) => r.search_rank === rank));
  const n = p.offset + p.limit;
  // Each tier ran when the better ones held fewer than n rows; when every tier holds fewer than n,
  // they hold every match (the last tiers of each index are all of its matches).
  const allMatches = tiers.every((t) => t.length < n) ? new Set(all.map((r) => r.id)).size : null;
  const rows = mergeTiers(tiers, p.offset, p.limit);
  return { rows, ...searchTotal((counted.results[0] as CountRow | undefined) ?? { n: 0 }, allMatches, p.offset + rows.length) };
}

/** The query as typed with each corrected word replaced by its correction ("lgeo duplo" → "lego duplo"). */
function suggestionText(q: string, understood: readonly TermLanguage[]): string {
  const corrections = new Map(understood.filter((t) => t.correction).map((t) => [t.term, t.correction!]));
  return q
    .trim()
    .split(/\s+/)
    .map((word) => {
      const term = searchTerms(word)[0];
      return term && corrections.has(term) ? corrections.get(term)! : word;
    })
    .join(" ");
}
