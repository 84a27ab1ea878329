/** Fold Norwegian letters the way the FTS5 triggers fold indexed text (migrations/0001). */
export function foldNorwegian(text: string): string {
  return text
    .replace(/ø/g, "o")
    .replace(/Ø/g, "O")
    .replace(/æ/g, "ae")
    .replace(/Æ/g, "AE")
    .replace(/å/g, "a")
    .replace(/Å/g, "A");
}

/** The terms of free text: lowercased, folded like the index, letters and digits only, at most 8. */
export function searchTerms(input: string): string[] {
  return foldNorwegian(input.toLowerCase())
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0)
    .slice(0, 8);
}

/** One term as an FTS5 string literal (inner quotes doubled), so it is never parsed as syntax. */
export function ftsString(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}
