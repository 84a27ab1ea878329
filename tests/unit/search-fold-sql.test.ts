// The search index folds what it stores with SQL made from the query's own fold lists, and indexes and
// filters the listing's declared fields (worker/features/search/fold-sql.ts): the latest migration that
// writes the triggers is exactly that SQL, for the filter columns it adds. After a change of the fold
// lists or the fields, `npm run listing-fields:migrate -- <name>` writes a new one.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { listingAttributes } from "../../domain/listing-fields";
import { SEARCH_INDEX_MARKER, foldSql, searchIndexStatements, splitMigration, titleWordsSql } from "../../worker/features/search/fold-sql";

const dir = path.resolve(import.meta.dirname, "../../migrations");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".sql"))
  .sort();
const text = (file: string) => readFileSync(path.join(dir, file), "utf8");
const latest = files.filter((f) => text(f).startsWith(SEARCH_INDEX_MARKER)).at(-1)!;

/** listing_search_map's columns after every migration before `file`, and whether the language and word indexes exist then. */
function schemaBefore(file: string): { columns: Set<string>; languageIndex: boolean; wordIndex: boolean } {
  const db = new DatabaseSync(":memory:");
  for (const f of files.slice(0, files.indexOf(file)))
    for (const statement of text(f).split("--> statement-breakpoint")) if (statement.trim()) db.exec(statement);
  return {
    columns: new Set((db.prepare("PRAGMA table_info(listing_search_map)").all() as { name: string }[]).map((c) => c.name)),
    languageIndex: db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'listings_stems'").get() !== undefined,
    wordIndex: db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'listings_words'").get() !== undefined,
  };
}

describe("the index's folding in SQL", () => {
  it("folds letters, lowercases, then folds keyboard spellings, as foldNorwegian does", () => {
    expect(foldSql("t")).toBe(
      "replace(replace(lower(replace(replace(replace(replace(replace(replace(t, 'ø', 'o'), 'Ø', 'O'), 'æ', 'ae'), 'Æ', 'AE'), 'å', 'a'), 'Å', 'A')), 'oe', 'o'), 'aa', 'a')",
    );
  });

  it("quotes every separator as an SQL literal", () => {
    expect(titleWordsSql("t")).toContain(`'''', ' ')`);
    expect(titleWordsSql("t")).toMatch(/^' ' \|\| replace\(.* \|\| ' '$/);
  });

  it(`the latest search-index migration (${latest}) is the SQL this source makes: run \`npm run listing-fields:migrate -- <name>\` after a change`, () => {
    const { statements } = splitMigration(text(latest));
    const before = schemaBefore(latest);
    const newColumns = listingAttributes()
      .map((a) => a.key)
      .filter((k) => !before.columns.has(k));
    const rebuild = statements.includes("\nDELETE FROM listings_fts;\n");
    expect(statements).toBe(
      searchIndexStatements({ newColumns, rebuild, languageIndex: !before.languageIndex, wordIndex: !before.wordIndex }),
    );
  });
});
