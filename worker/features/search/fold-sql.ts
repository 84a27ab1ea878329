// The search index's folding as SQL, made from the same lists as the query's (domain/search.ts
// LETTER_FOLDS, SPELLING_FOLDS): the triggers of the latest migration that writes them
// (SEARCH_TRIGGERS_MIGRATION) are this file's output, and tests/unit/search-fold-sql.test.ts holds
// the migration to it. A change of the folding is a new migration written by searchTriggersMigration.
import { LETTER_FOLDS, SPELLING_FOLDS } from "../../../domain/search";

/** The migration whose triggers and rebuild this file writes. */
export const SEARCH_TRIGGERS_MIGRATION = "0013_search_keyboard_spellings.sql";

/** Characters that end a word in the title trigram index: each becomes a space. */
export const TITLE_SEPARATORS = [
  "-",
  "–",
  "—",
  ",",
  ".",
  ":",
  ";",
  "(",
  ")",
  "[",
  "]",
  "/",
  "\\",
  '"',
  "'",
  "«",
  "»",
  "“",
  "”",
  "‘",
  "’",
  "!",
  "?",
  "+",
  "&",
  "*",
  "#",
  "_",
  "|",
  "•",
  "…",
] as const;

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const replaced = (expr: string, pairs: readonly (readonly [string, string])[]) =>
  pairs.reduce((inner, [from, to]) => `replace(${inner}, ${literal(from)}, ${literal(to)})`, expr);

/** `expr` folded as domain/search.ts foldNorwegian folds (SQLite's lower() lowercases ASCII). */
export function foldSql(expr: string): string {
  return replaced(`lower(${replaced(expr, LETTER_FOLDS)})`, SPELLING_FOLDS);
}

/** A title as the title trigram index holds it: folded, separators as spaces, a space at each end. */
export function titleWordsSql(expr: string): string {
  return `' ' || ${replaced(
    foldSql(expr),
    TITLE_SEPARATORS.map((c) => [c, " "] as const),
  )} || ' '`;
}

/** The three index writes for the listing in `from` (its columns as `title`, `description`). */
function indexWrites(rid: string, title: string, description: string, from: string): string[] {
  const text = `${foldSql(title)}, ${foldSql(`coalesce(${description}, '')`)}`;
  return [
    `INSERT INTO listings_fts(rowid, title, description) SELECT ${rid}, ${text} FROM ${from};`,
    `INSERT INTO listings_fts_trigram(rowid, title, description) SELECT ${rid}, ${text} FROM ${from};`,
    `INSERT INTO listings_title_trigram(rowid, title) SELECT ${rid}, ${titleWordsSql(title)} FROM ${from};`,
  ];
}

const BREAK = "\n--> statement-breakpoint\n";
const FROM_MAP = "listing_search_map WHERE listing_id = new.id";

/** The text of SEARCH_TRIGGERS_MIGRATION: the insert and text-update triggers, then the rebuild. */
export function searchTriggersMigration(): string {
  const header = `-- Made by worker/features/search/fold-sql.ts from domain/search.ts (LETTER_FOLDS, SPELLING_FOLDS):
-- keyboard spellings. A parent without a Norwegian keyboard types "boeker" for "bøker", "haakon" for
-- "håkon" (and "aerlig" for "ærlig", which the ø→o, æ→ae, å→a fold of 0001 already matches). The
-- indexed copy is lowercased (ASCII, as SQLite's lower()) after that fold, and then "oe"→"o" and
-- "aa"→"a", so "bøker", "Bøker" and "boeker" all index as "boker", "Håkon" and "Haakon" as "hakon".
-- The query is folded the same way (domain/search.ts \`foldNorwegian\`), so a word with a real
-- "oe"/"aa" ("Joel", "Saab") indexes and searches as "jol"/"sab" and still finds itself.
-- See docs/decisions/004-search-index.md and 090-phone-findings.md.
-- The triggers are replaced (same events and order as 0008) and the three FTS tables rebuilt.
`;
  const insert = [
    "CREATE TRIGGER `listings_search_ai` AFTER INSERT ON `listings` BEGIN",
    "\tINSERT INTO listing_search_map(listing_id, is_public, category, age_range, condition_rating, price, is_free, is_trade_offer, postal_code, created_at) VALUES (new.id, (new.status = 'active' AND new.is_hidden = 0), new.category, new.age_range, new.condition_rating, coalesce(new.price, 0), new.is_free, new.is_trade_offer, new.postal_code, new.created_at);",
    ...indexWrites("rid", "new.title", "new.description", FROM_MAP).map((s) => `\t${s}`),
    "END;",
  ].join("\n");
  const update = [
    "CREATE TRIGGER `listings_search_au_text` AFTER UPDATE OF title, description ON `listings` BEGIN",
    ...["listings_fts", "listings_fts_trigram", "listings_title_trigram"].map(
      (table) => `\tDELETE FROM ${table} WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);`,
    ),
    ...indexWrites("rid", "new.title", "new.description", FROM_MAP).map((s) => `\t${s}`),
    "END;",
  ].join("\n");
  const statements = [
    "DROP TRIGGER `listings_search_ai`;",
    insert,
    "DROP TRIGGER `listings_search_au_text`;",
    update,
    "DELETE FROM listings_fts;",
    "DELETE FROM listings_fts_trigram;",
    "DELETE FROM listings_title_trigram;",
    ...indexWrites("s.rid", "l.title", "l.description", "listing_search_map s JOIN listings l ON l.id = s.listing_id"),
  ];
  return `${header}${statements.join(BREAK)}\n`;
}
