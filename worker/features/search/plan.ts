// The statements of one search: its relevance tiers, its count and the typo check
// (docs/decisions/004-search-index.md, 044-search-at-scale.md, 151-search-language.md).
import { ftsString as quote, searchTerms } from "../../../domain/search";
import { type TermLanguage, understandTerms } from "../../../domain/search-language";
import { priceBounds, SEARCH_TOTAL_CAP, type SearchParams } from "../../../domain/schemas/search";
import { listingAttributes, type ListingAttributeKey } from "../../../domain/listing-fields";
import { attributeKey } from "../../../domain/listing-field-rules";
import { byRid, countSql, PUBLIC, rowCount } from "./count";
import { priceOrderSql } from "./price-order";
import { apart, required, stemPattern, type TextMatch, textMatch } from "./text-match";

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
  const filters: string[] = [PUBLIC];
  if (p.categories.length) filters.push(`s.category IN (${p.categories.map(bind).join(", ")})`);
  if (p.conditions.length) filters.push(`s.condition_rating IN (${p.conditions.map(bind).join(", ")})`);
  if (p.ages.length) filters.push(`s.age_range IN (${p.ages.map(bind).join(", ")})`);
  if (p.free) filters.push("s.is_free = 1");
  const { min, max } = priceBounds(p);
  if (min !== null) filters.push(`s.price >= ${bind(min)}`);
  if (max !== null) filters.push(`s.price <= ${bind(max)}`);
  if (p.trade) filters.push("s.is_trade_offer = 1");
  // A postal prefix (digits only) as a range of codes, ':' being the character after '9'. Not LIKE
  // 'prefix%': SQLite plans a statement again whenever a LIKE's bound pattern is bound anew, and the
  // tiered statement took ~6 ms to plan on a million listings, on every search with a postal code.
  if (p.postal) filters.push(`s.postal_code >= ${bind(p.postal)} AND s.postal_code < ${bind(`${p.postal}:`)}`);
  // Declared fields: listing_search_map holds each folded (worker/features/search/fold-sql.ts).
  for (const { key } of listingAttributes()) {
    const value = p[key as ListingAttributeKey];
    if (value) filters.push(`s.${key} = ${bind(attributeKey(value))}`);
  }
  // Filter params are shared by every statement; each statement gets its own copy plus its extras.
  const filterParams = [...params];
  const where = filters.join(" AND ");
  // Only the price index's own columns filtered: a price order may walk that index (price-order.ts).
  const priceIndexOnly = filters.every((f) => f === PUBLIC || f.startsWith("s.price "));
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
    from: `${m.table} f JOIN ${byRid(where)} ON s.rid = f.rowid`,
    extra: (b) => ` AND ${m.table} MATCH ${b(m.expr)}`,
  });

  // The count: see countSql (./count.ts).
  const count = statement((b) => countSql(parts, where, b));

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
              `EXISTS (SELECT 1 FROM ${m.table} f JOIN ${byRid(where)} ON s.rid = f.rowid WHERE ${where} AND ${m.table} MATCH ${b(m.expr)})`,
          );
          return `SELECT (${exists.join(" OR ")}) AS found`;
        })
      : null;

  if (p.sort === "price_asc" || p.sort === "price_desc")
    return { rows: statement((b) => priceOrderSql(COLUMNS, parts, { where, priceIndexOnly }, sortKey, n, b)), ranks: [0], count, typed };
  if (p.sort && p.sort !== "relevance") {
    // Newest: one ordered pass over each index's matches, the first n of each merged: the first n
    // of all matches are among them.
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
    from: `${table} f JOIN ${byRid(where)} ON s.rid = f.rowid`,
    extra: (b) => ` AND ${table} MATCH ${b(expr)}`,
  });
  const wordTier = (rank: number, column: "title" | "stems", words: readonly string[]): Tier => ({
    rank,
    from: `listings_words f JOIN ${byRid(where)} ON s.rid = f.rowid`,
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
      from: `listings_fts f JOIN ${byRid(where)} ON s.rid = f.rowid`,
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
