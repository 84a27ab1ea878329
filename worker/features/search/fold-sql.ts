// The search index's triggers as SQL, made from the query's own fold lists (domain/search.ts
// LETTER_FOLDS, SPELLING_FOLDS) and the listing's declared fields (domain/listing-fields.ts): each
// field is indexed with the title's words and kept, folded, in listing_search_map for its filter.
// The language index (decision 151) is written from listings.search_text, which the Worker makes
// with the title: the stemmed title in listings_stems, the title's words in search_words.
// The latest migration that starts with SEARCH_INDEX_MARKER is this file's output, held to it by
// tests/unit/search-fold-sql.test.ts; a change of the folding or the fields is a new migration
// (`npm run listing-fields:migrate`).
import { listingAttributes } from "../../../domain/listing-fields";
import { LETTER_FOLDS, SPELLING_FOLDS } from "../../../domain/search";

/** The first line of every migration this file writes. */
export const SEARCH_INDEX_MARKER = "-- Made by worker/features/search/fold-sql.ts";

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

/** The text the title indexes hold for the listing `row` (`new`, `l`): its title, then each declared field. */
function titleText(row: string): string {
  const fields = listingAttributes().map((a) => `coalesce(${row}.${a.key}, '')`);
  return [`${row}.title`, ...fields].join(" || ' ' || ");
}

/** The listing's language text (listings.search_text, domain/search-language.ts `searchTextOf`); '{}' before it is written. */
const languageText = (row: string) => `coalesce(${row}.search_text, '{}')`;

/** The text index writes for the listing `row` (`new` or `l`) read from `from`: the three folded indexes and the stemmed titles. */
function indexWrites(rid: string, row: string, from: string, stale?: string): string[] {
  const text = `${foldSql(titleText(row))}, ${foldSql(`coalesce(${row}.description, '')`)}`;
  return [
    `INSERT INTO listings_fts(rowid, title, description) SELECT ${rid}, ${text} FROM ${from};`,
    `INSERT INTO listings_fts_trigram(rowid, title, description) SELECT ${rid}, ${text} FROM ${from};`,
    `INSERT INTO listings_title_trigram(rowid, title) SELECT ${rid}, ${titleWordsSql(titleText(row))} FROM ${from};`,
    `INSERT INTO listings_stems(rowid, title) SELECT ${rid}, ${stemsOf(row, stale)} FROM ${from};`,
    wordIndexWrite(rid, row, from, stale),
  ];
}

/** The listing's stemmed title from its language text: '' before it is written, or when `stale`. */
function stemsOf(row: string, stale?: string): string {
  const stems = `coalesce(${languageText(row)} ->> '$.stems', '')`;
  return stale ? `CASE WHEN ${stale} THEN '' ELSE ${stems} END` : stems;
}

/** The word index's row for the listing `row`: the title's words and its stemmed words, as tokens. */
function wordIndexWrite(rid: string, row: string, from: string, stale?: string): string {
  return `INSERT INTO listings_words(rowid, title, stems) SELECT ${rid}, ${foldSql(titleText(row))}, ${stemsOf(row, stale)} FROM ${from};`;
}

/**
 * The title's whole words and whole stemmed words as tokens (decision 151, "Ranking"): a word is one
 * short doclist here, where the trigram phrase " word " reads the long doclists of every word that
 * starts or ends alike. Contentless: the text is in the tables above.
 */
const WORD_INDEX =
  "CREATE VIRTUAL TABLE `listings_words` USING fts5(title, stems, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1);";

/** The delete trigger: the listing out of every text index, then out of the map. */
function deleteTrigger(): string {
  return [
    "CREATE TRIGGER `listings_search_ad` AFTER DELETE ON `listings` BEGIN",
    ...SEARCH_TEXT_TABLES.map(
      (table) => `\tDELETE FROM ${table} WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);`,
    ),
    "\tDELETE FROM listing_search_map WHERE listing_id = old.id;",
    "END;",
  ].join("\n");
}

/**
 * The vocabulary's upsert for the words of the listing `row` (`new`), each counted once per listing
 * that has it: on insert every word, on an edit the words the old text did not have. A word never
 * leaves the vocabulary (a correction or a split is only a way to search: what it finds is still the
 * index's answer).
 */
function vocabularyUpsert(row: string, notIn?: string, stale?: string): string {
  const except = notIn
    ? `(j.value ->> 0) NOT IN (SELECT o.value ->> 0 FROM json_each(${languageText(notIn)}, '$.words') o) AND NOT (${stale})`
    : "1";
  return `INSERT INTO search_words(word, key, stem, display, listings) SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, 1 FROM json_each(${languageText(row)}, '$.words') j WHERE ${except} ON CONFLICT(word) DO UPDATE SET listings = listings + 1;`;
}

/** The language index (docs/decisions/151-search-language.md): the listing's column, the stemmed titles, the vocabulary. */
function languageIndexStatements(): string[] {
  return [
    "ALTER TABLE `listings` ADD `search_text` text;",
    'CREATE INDEX `listings_search_text_missing_idx` ON `listings` (`id`) WHERE "listings"."search_text" IS NULL;',
    "CREATE VIRTUAL TABLE `listings_stems` USING fts5(title, tokenize = 'trigram remove_diacritics 1');",
    [
      "CREATE TABLE `search_words` (",
      "	`word` text PRIMARY KEY NOT NULL,",
      "	`key` text NOT NULL,",
      "	`stem` text NOT NULL,",
      "	`display` text NOT NULL,",
      "	`listings` integer NOT NULL",
      ") WITHOUT ROWID;",
    ].join("\n"),
    "CREATE INDEX `search_words_key_idx` ON `search_words` (`key`);",
    "CREATE INDEX `search_words_stem_idx` ON `search_words` (`stem`);",
  ];
}

/** The FTS5 tables keyed by listing_search_map.rid. */
const SEARCH_TEXT_TABLES = ["listings_fts", "listings_fts_trigram", "listings_title_trigram", "listings_stems", "listings_words"] as const;

const BREAK = "\n--> statement-breakpoint\n";
const EVERY_LISTING = "listing_search_map s JOIN listings l ON l.id = s.listing_id";
const FROM_MAP = "listing_search_map WHERE listing_id = new.id";
const MAP_COLUMNS = "listing_id, is_public, category, age_range, condition_rating, price, is_free, is_trade_offer, postal_code, created_at";
const MAP_VALUES =
  "new.id, (new.status = 'active' AND new.is_hidden = 0), new.category, new.age_range, new.condition_rating, coalesce(new.price, 0), new.is_free, new.is_trade_offer, new.postal_code, new.created_at";

export interface SearchIndexChange {
  /** Declared fields listing_search_map has no column for yet: added, each with its filter's index. */
  newColumns: readonly string[];
  /** Refill the text indexes from every listing (after a change of the folding). */
  rebuild: boolean;
  /** Create the language index (migration 0031): listings.search_text, listings_stems, search_words. */
  languageIndex?: boolean;
  /** Create the word index (migration 0032), filled from every listing. */
  wordIndex?: boolean;
}

/**
 * The statements of a search-index migration (everything after its header comment): new filter
 * columns, the insert and update triggers, and the rebuild when asked. A field added to `listings` in
 * the migration before is null on every listing, so its new column needs no backfill.
 */
export function searchIndexStatements(change: SearchIndexChange): string {
  const fields = listingAttributes().map((a) => a.key);
  const columns = [MAP_COLUMNS, ...fields].join(", ");
  const values = [MAP_VALUES, ...fields.map((k) => foldSql(`new.${k}`))].join(", ");
  const insert = [
    "CREATE TRIGGER `listings_search_ai` AFTER INSERT ON `listings` BEGIN",
    `\tINSERT INTO listing_search_map(${columns}) VALUES (${values});`,
    ...indexWrites("rid", "new", FROM_MAP).map((s) => `\t${s}`),
    `\t${vocabularyUpsert("new")}`,
    "END;",
  ].join("\n");
  // The map's own columns follow every update (0001's trigger, with the fields added).
  const mapUpdate = [
    "CREATE TRIGGER `listings_search_au` AFTER UPDATE ON `listings` BEGIN",
    "\tUPDATE listing_search_map SET is_public = (new.status = 'active' AND new.is_hidden = 0), category = new.category, age_range = new.age_range,",
    "\t\tcondition_rating = new.condition_rating, price = coalesce(new.price, 0), is_free = new.is_free, is_trade_offer = new.is_trade_offer,",
    `\t\tpostal_code = new.postal_code, created_at = new.created_at${fields.map((k) => `, ${k} = ${foldSql(`new.${k}`)}`).join("")}`,
    "\tWHERE listing_id = old.id;",
    "END;",
  ].join("\n");
  // A title changed without its search_text (an UPDATE that is not the listing form's) leaves the
  // stemmed title empty and search_text null, for the cron's "search-text" step to write again.
  const stale = `new.search_text IS old.search_text AND (${["title", ...fields].map((k) => `new.${k} IS NOT old.${k}`).join(" OR ")})`;
  const textUpdate = [
    `CREATE TRIGGER \`listings_search_au_text\` AFTER UPDATE OF ${["title", "description", ...fields, "search_text"].join(", ")} ON \`listings\` BEGIN`,
    ...SEARCH_TEXT_TABLES.map(
      (table) => `\tDELETE FROM ${table} WHERE rowid = (SELECT rid FROM listing_search_map WHERE listing_id = old.id);`,
    ),
    ...indexWrites("rid", "new", FROM_MAP, stale).map((s) => `\t${s}`),
    `\t${vocabularyUpsert("new", "old", stale)}`,
    `\tUPDATE listings SET search_text = NULL WHERE id = new.id AND ${stale};`,
    "END;",
  ].join("\n");
  const statements = [
    ...(change.languageIndex ? languageIndexStatements() : []),
    ...(change.wordIndex ? [WORD_INDEX, wordIndexWrite("s.rid", "l", EVERY_LISTING)] : []),
    ...(change.languageIndex || change.wordIndex ? ["DROP TRIGGER `listings_search_ad`;", deleteTrigger()] : []),
    ...change.newColumns.flatMap((k) => [
      `ALTER TABLE \`listing_search_map\` ADD \`${k}\` text;`,
      `CREATE INDEX \`listing_search_public_${k}_idx\` ON \`listing_search_map\` (\`is_public\`, \`${k}\`, \`created_at\`);`,
    ]),
    // 0013's migration predates the fields and kept 0001's map trigger.
    ...(fields.length ? ["DROP TRIGGER `listings_search_au`;", mapUpdate] : []),
    "DROP TRIGGER `listings_search_ai`;",
    insert,
    "DROP TRIGGER `listings_search_au_text`;",
    textUpdate,
    ...(change.rebuild ? searchIndexRebuild() : []),
  ];
  return `${statements.join(BREAK)}\n`;
}

/**
 * The text indexes written again from listing_search_map and listings, as the triggers write them: a
 * migration's rebuild, and what a restore runs after loading the rows (scripts/backup/restore-d1.ts),
 * since a backup holds no virtual table. The vocabulary (search_words) is a table of its own, in the
 * backup like any other.
 */
export function searchIndexRebuild(): string[] {
  return [...SEARCH_TEXT_TABLES.map((table) => `DELETE FROM ${table};`), ...indexWrites("s.rid", "l", EVERY_LISTING)];
}

/** A migration file split into its header comment (the leading `--` lines) and its statements. */
export function splitMigration(text: string): { header: string; statements: string } {
  const lines = text.split("\n");
  const first = lines.findIndex((line) => !line.startsWith("--"));
  return { header: lines.slice(0, first).join("\n"), statements: lines.slice(first).join("\n") };
}
