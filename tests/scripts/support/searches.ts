// The searches tests/scripts/backup-restore.test.ts runs against the original and the restored state.
// Words, a Norwegian letter typed without it, a prefix, a substring inside a compound word, filters
// without words, and a page past the first.
export const SEARCHES: Record<string, string>[] = [
  { q: "lego" },
  { q: "dukke" },
  { q: "bøker" },
  { q: "boeker" },
  { q: "sykk" },
  { q: "ball" },
  { q: "bil", sort: "price_asc" },
  { q: "tog", categories: "biler" },
  { categories: "ute-lek" },
  { free: "true" },
  { trade: "true", sort: "newest" },
  { sort: "price_desc", limit: "5", offset: "5" },
];
