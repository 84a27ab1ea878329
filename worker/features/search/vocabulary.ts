// The vocabulary of listed titles (search_words, written by the search triggers from
// listings.search_text; docs/decisions/151-search-language.md), asked what a query's words are: known
// words and stems are searched as typed; an unknown word may be a compound of two known ones
// ("dinosaurbok") or a typo of a known one ("trehjulsykel"). One statement, run in the search's
// batch: each lookup is an index probe, and a known word's typo keys are never probed.
import { type Vocabulary, vocabularyQuestions } from "../../../domain/search-language";
import type { Db } from "../../db/client";

interface Row {
  kind: "known" | "edit" | "stem";
  term: string;
  word: string | null;
  display: string | null;
  listings: number;
}

/** The statement that asks the vocabulary about `terms`; null when none of them is long enough to ask about. */
export function vocabularyStatement(db: Db, terms: readonly string[]): D1PreparedStatement | null {
  const q = vocabularyQuery(terms);
  return q && db.prepare(q.sql).bind(...q.params);
}

/** The vocabulary's question about `terms` as SQL and its parameters (the search benchmark runs it as is). */
export function vocabularyQuery(terms: readonly string[]): { sql: string; params: string[] } | null {
  const q = vocabularyQuestions(terms);
  if (q.terms.length === 0) return null;
  return {
    sql: `WITH t AS (SELECT value ->> 0 AS term, value ->> 1 AS stem FROM json_each(?1)),
        known AS MATERIALIZED (SELECT term FROM t
          WHERE EXISTS (SELECT 1 FROM search_words w WHERE w.word = t.term) OR EXISTS (SELECT 1 FROM search_words w WHERE w.stem = t.stem))
      SELECT 'known' AS kind, term, NULL AS word, NULL AS display, 0 AS listings FROM known
      UNION ALL
      SELECT 'edit', c.value ->> 0, w.word, w.display, w.listings FROM json_each(?2) c JOIN search_words w ON w.key = c.value ->> 1
        WHERE (c.value ->> 0) NOT IN (SELECT term FROM known)
      UNION ALL
      SELECT DISTINCT 'stem', p.value ->> 1, NULL, NULL, 0 FROM json_each(?3) p
        WHERE (p.value ->> 0) NOT IN (SELECT term FROM known) AND EXISTS (SELECT 1 FROM search_words w WHERE w.stem = p.value ->> 1)`,
    params: [JSON.stringify(q.terms), JSON.stringify(q.keys), JSON.stringify(q.parts)],
  };
}

/** The statement's rows as a Vocabulary. */
export function vocabularyOf(rows: readonly unknown[]): Vocabulary {
  const known = new Set<string>();
  const stems = new Set<string>();
  const candidates = new Map<string, { word: string; display: string; listings: number }[]>();
  for (const r of rows as Row[]) {
    if (r.kind === "known") known.add(r.term);
    else if (r.kind === "stem") stems.add(r.term);
    else if (r.word) {
      const list = candidates.get(r.term) ?? [];
      if (!list.some((c) => c.word === r.word)) list.push({ word: r.word, display: r.display ?? r.word, listings: r.listings });
      candidates.set(r.term, list);
    }
  }
  return { known, stems, candidates };
}

/** Ask the vocabulary on its own (saved-search matching; the search asks in its own batch). */
export async function lookUpVocabulary(db: Db, terms: readonly string[]): Promise<Vocabulary | null> {
  const statement = vocabularyStatement(db, terms);
  if (!statement) return null;
  return vocabularyOf((await statement.all()).results);
}

/** Whether the vocabulary changes what a query matches: a compound to split or a typo to correct. */
export function needsVocabulary(vocabulary: Vocabulary): boolean {
  return vocabulary.stems.size > 0 || [...vocabulary.candidates.values()].some((c) => c.length > 0);
}
