// The search index folds what it stores with SQL made from the query's own fold lists
// (worker/features/search/fold-sql.ts): the migration that writes the triggers is exactly that SQL.
// After a change of the fold lists, write a new migration from searchTriggersMigration().
import { describe, expect, it } from "vitest";
import { SEARCH_TRIGGERS_MIGRATION, foldSql, searchTriggersMigration, titleWordsSql } from "../../worker/features/search/fold-sql";

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

  it(`migrations/${SEARCH_TRIGGERS_MIGRATION} is the SQL this source makes`, async () => {
    await expect(searchTriggersMigration()).toMatchFileSnapshot(`../../migrations/${SEARCH_TRIGGERS_MIGRATION}`);
  });
});
