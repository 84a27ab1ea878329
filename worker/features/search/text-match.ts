// What "matches the text" means for a search: the FTS5 expressions of its terms and what they stand for
// (docs/decisions/151-search-language.md). Shared by the search and saved-search matching.
import { ftsString as quote } from "../../../domain/search";
import { notCompoundsOf, rawForms, type TermLanguage, understandTerms } from "../../../domain/search-language";

/** The terms the stemmed title must hold: all but the small words among others ("klær til dukker"). */
export const required = (understood: readonly TermLanguage[]) => understood.filter((t) => !t.stopword);

/** A stem this short is looked for in the stemmed title only as a word or a word's start or end ("syk" is not in "sykkel"). */
const SHORT_STEM = 4;

/** Where a stem may stand in the stemmed title: anywhere, or a short one as a word or a word's end. */
function stemPhrases(stem: string): string[] {
  return stem.length >= SHORT_STEM ? [stem] : [` ${stem} `, `${stem} `];
}

export function stemPattern(stem: string): string {
  return anyOf([[stemPhrases(stem)]]);
}

/** A term's title expression without the titles where it is only part of a longer word ("bil" in "Playmobil"). */
export function apart(t: TermLanguage, expr: string, stemmed: boolean): string {
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
