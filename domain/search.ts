/** Letters folded before lowercasing, in this order (the index's SQL folds the same way). */
export const LETTER_FOLDS: readonly (readonly [string, string])[] = [
  ["ø", "o"],
  ["Ø", "O"],
  ["æ", "ae"],
  ["Æ", "AE"],
  ["å", "a"],
  ["Å", "A"],
];

/** Keyboard spellings folded after lowercasing: "boeker" → "boker", "haakon" → "hakon". */
export const SPELLING_FOLDS: readonly (readonly [string, string])[] = [
  ["oe", "o"],
  ["aa", "a"],
];

/**
 * Fold Norwegian letters and their keyboard spellings the way the FTS5 triggers fold indexed text
 * (made from these same lists by worker/features/search/fold-sql.ts): ø→o, æ→ae, å→a, lowercase,
 * then oe→o and aa→a. "bøker" and "boeker" both become "boker", "Håkon" and "Haakon" "hakon",
 * "ærlig" and "aerlig" "aerlig". A real "oe"/"aa" ("Joel", "Saab") folds the same way in the index
 * and the query, so it still finds itself (docs/decisions/090-phone-findings.md). The result is
 * lowercase.
 */
export function foldNorwegian(text: string): string {
  let out = text;
  for (const [from, to] of LETTER_FOLDS) out = out.replaceAll(from, to);
  out = out.toLowerCase();
  for (const [from, to] of SPELLING_FOLDS) out = out.replaceAll(from, to);
  return out;
}

/** The terms of free text: lowercased, folded like the index, letters and digits only, at most 8. */
export function searchTerms(input: string): string[] {
  return foldNorwegian(input)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0)
    .slice(0, 8);
}

/** One term as an FTS5 string literal (inner quotes doubled), so it is never parsed as syntax. */
export function ftsString(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}
