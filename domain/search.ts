/**
 * Fold Norwegian letters and their keyboard spellings the way the FTS5 triggers fold indexed text
 * (migrations/0013, same steps in the same order): ø→o, æ→ae, å→a, lowercase, then oe→o and aa→a.
 * "bøker" and "boeker" both become "boker", "Håkon" and "Haakon" "hakon", "ærlig" and "aerlig"
 * "aerlig". A real "oe"/"aa" ("Joel", "Saab") folds the same way in the index and the query, so it
 * still finds itself (docs/decisions/090-phone-findings.md). The result is lowercase.
 */
export function foldNorwegian(text: string): string {
  return text
    .replace(/ø/g, "o")
    .replace(/Ø/g, "O")
    .replace(/æ/g, "ae")
    .replace(/Æ/g, "AE")
    .replace(/å/g, "a")
    .replace(/Å/g, "A")
    .toLowerCase()
    .replace(/oe/g, "o")
    .replace(/aa/g, "a");
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
