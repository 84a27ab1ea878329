// The search service's real query builder (worker/features/search/plan.ts `buildSearchPlan`), as
// production runs it (docs/security.md "Requests"): whatever a visitor
// types, every MATCH parameter is made of quoted strings (plus the builder's own `*` and `title :`
// column filter), the quoted strings are exactly the folded search terms, and D1 accepts every
// statement of the plan.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { searchTerms } from "../../../domain/search";
import { searchParamsSchema } from "../../../domain/schemas/search";
import { buildSearchPlan, type SearchPlan } from "../../../worker/features/search/plan";
import { searchListings } from "../../../worker/features/search/search";
import { notCompoundsOf, rawForms, understandTerms } from "../../../domain/search-language";
import { createListing, createUser } from "../../factories";
import { listingAttributes } from "../../../domain/listing-fields";

// Pieces of FTS5 syntax and awkward text, combined with arbitrary strings below.
const hostileToken = fc.constantFrom(
  '"',
  '""',
  "'",
  "*",
  "**",
  "^",
  "-",
  "+",
  ":",
  "(",
  ")",
  "()",
  "{",
  "}",
  "[",
  "]",
  ",",
  ".",
  "\\",
  "/",
  "%",
  "_",
  ";",
  "--",
  "NEAR",
  "NEAR(",
  "NEAR/3",
  "AND",
  "OR",
  "NOT",
  "and",
  "or",
  "not",
  "MATCH",
  "title:",
  "description:",
  "{title description}:",
  "-title:",
  "rowid:",
  "^title",
  "listings_fts:",
  "lego*",
  '"lego"',
  "'lego'",
  "ø",
  "æ",
  "å",
  "Ø",
  "Æ",
  "Å",
  "ü",
  "ß",
  "ﬁ",
  "İ",
  "ǅ",
  "日本語",
  "😀",
  "👨‍👩‍👧",
  "\u0301",
  "e\u0301",
  "\u200b",
  "\u00a0",
  "\u0000",
  "\t",
  "\n",
  "١٢٣",
  "½",
  "²",
  "x".repeat(300),
  "a b c d e f g h i j k l m n o p",
);

const queryText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.array(fc.oneof(hostileToken, fc.string({ maxLength: 6 })), { maxLength: 10 }).map((parts) => parts.join(" ")),
  fc.array(hostileToken, { maxLength: 8 }).map((parts) => parts.join("")),
);

const QUOTED = '"(?:[^"]|"")*"\\*?';
/** What the builder may write into MATCH: quoted strings joined by its own operators, parentheses and title column filter. */
const TOKEN = new RegExp(`${QUOTED}|\\(|\\)|AND|OR|NOT|title :|stems :|\\s+`, "gu");

const params = (q: string, extra: Record<string, string> = {}) => searchParamsSchema.parse({ q, ...extra });

/** Every MATCH parameter of every statement in the plan. */
function matchExpressions(plan: SearchPlan): string[] {
  // Each bound expression once per statement (the count reads its matches in two steps with the same one).
  return [plan.rows, plan.count].flatMap((s) =>
    [...new Set([...s.sql.matchAll(/MATCH \?(\d+)/g)].map((m) => Number(m[1])))].map((n) => String(s.params[n - 1])),
  );
}

/** The expression's tokens, each a quoted string or the builder's own syntax; throws on anything else. */
function tokens(expression: string): string[] {
  const found = [...expression.matchAll(TOKEN)].map((m) => m[0]);
  expect(found.join("")).toBe(expression);
  return found.filter((t) => t.startsWith('"'));
}

/**
 * The strings inside the quotes, with doubled quotes undone, stars dropped and the builder's word
 * boundaries (a space before or after, see migrations/0008_search_scale.sql) trimmed: a term never
 * has a space at either end.
 */
function unquoted(expression: string): string[] {
  return tokens(expression).map((q) => q.replace(/\*$/, "").slice(1, -1).replace(/""/g, '"').trim());
}

/** What a query's terms may bring into MATCH (domain/search-language.ts): the terms, their stems, forms, everyday words, and the words they are not part of. */
function allowedStrings(terms: string[]): Set<string> {
  const allowed = new Set<string>(terms);
  for (const t of understandTerms(terms, null)) {
    for (const s of [t.stem, ...t.forms, ...t.related, ...rawForms(t.term)]) allowed.add(s);
    const not = notCompoundsOf(t.term);
    for (const s of [...not.raw, ...not.stems]) allowed.add(s);
  }
  return allowed;
}

beforeAll(async () => {
  // Indexed rows, so MATCH really walks both indexes.
  await createListing({ title: "Legoklosser og bøker", description: "Ærlig talt en fin båt" });
  await createListing({ title: "NEAR AND OR NOT", description: 'title: "quoted" (parens) *' });
});

describe("buildSearchPlan", () => {
  it("quotes every term: operators, column filters, NEAR and * from the visitor are text", () => {
    const plan = buildSearchPlan(params('title: NEAR(lego "duplo") OR -bøker*'));
    // "or" is two letters, so this query matches word prefixes in the word index (decision 004); its
    // title tiers look for whole words, then word starts, in the title index.
    expect(matchExpressions(plan)).toEqual([
      '" title " " near " " lego " " duplo " " or " " boker "',
      '" title" " near" " lego" " duplo" " or" " boker"',
      '"title"* "near"* "lego"* "duplo"* "or"* "boker"*',
      '"title"* "near"* "lego"* "duplo"* "or"* "boker"*',
    ]);
  });

  it("finds the title word starts of a query with a one-letter term in the word index", () => {
    expect(matchExpressions(buildSearchPlan(params("lego 3")))).toEqual(['title : ("lego"* "3"*)', '"lego"* "3"*', '"lego"* "3"*']);
  });

  it("uses the trigram index without stars when every term has three letters or more", () => {
    const plan = buildSearchPlan(params("NEAR legoklosser"));
    expect(matchExpressions(plan)).toEqual([
      // Whole words of the title are tokens of the word index; then the title as written: a word's
      // end, a word's start or end, anywhere.
      'title : ("near" AND "legoklosser")',
      '"near " AND "legoklosser "',
      '(" near" OR "near ") AND (" legoklosser" OR "legoklosser ")',
      '"near" AND "legoklosser"',
      // The stemmed title: whole stemmed words in the word index, then the same as above.
      'stems : ("near" AND "legokloss")',
      '"near " AND "legokloss "',
      '"near" AND "legokloss"',
      // With the everyday words for "legoklosser" (legokloss, byggekloss, duplokloss and kloss): in a
      // trigram index every text that holds "legokloss" holds "kloss", so "kloss" alone is asked.
      '"near" AND "kloss"',
      // Title and description as written, with the stem and the everyday words.
      '"near" AND "kloss"',
      // The count: both indexes.
      '"near" AND "kloss"',
      '"near" AND "kloss"',
    ]);
    // Whole words in the word index, title word boundaries and substrings in the title index, stems
    // in the stemmed title, everything in the two-column one.
    expect(plan.ranks).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect([...plan.rows.sql.matchAll(/(\w+) MATCH/g)].map((m) => m[1])).toEqual([
      "listings_words",
      ...Array(3).fill("listings_title_trigram"),
      "listings_words",
      ...Array(3).fill("listings_stems"),
      "listings_fts_trigram",
    ]);
  });

  it("never puts a search term into the SQL text itself", () => {
    const plan = buildSearchPlan(params("droptable lego", { postal: "0150", categories: "lego" }));
    for (const s of [plan.rows, plan.count]) {
      expect(s.sql).not.toMatch(/droptabl|0150/);
      // The term, or its stem ("droptabl"), is bound.
      expect(s.params.filter((p) => typeof p === "string" && p.includes("droptabl")).length).toBeGreaterThan(0);
    }
  });

  it("the filters' index (listing_search_filters_idx) holds every column a search filters a text match on", async () => {
    const every = {
      categories: "lego",
      conditions: "4",
      ages: "0-2 år",
      trade: "true",
      postal: "0150",
      ...Object.fromEntries(listingAttributes().map((a) => [a.key, "Brio"])),
    };
    // "Gis bort" and a price range do not go together (a free listing's price is 0): one plan each.
    const plans = [
      buildSearchPlan(params("lego", { ...every, free: "true" })),
      buildSearchPlan(params("lego", { ...every, min: "10", max: "500" })),
    ];
    const filtered = new Set(plans.flatMap((plan) => [...plan.count.sql.matchAll(/\bs\.(\w+)/g)].map((m) => m[1])));
    expect(filtered.size).toBeGreaterThan(9);
    const { results } = await env.DB.prepare("SELECT name FROM pragma_index_info('listing_search_filters_idx')").all<{ name: string }>();
    const indexed = results.map((r) => r.name);
    for (const column of filtered) expect(indexed, column).toContain(column);
  });

  it("binds no LIKE pattern: SQLite plans such a statement again each time the pattern is bound (~6 ms for the tiers at a million listings)", () => {
    for (const q of ["", "traktor", "lego duplo", "ab"]) {
      const plan = buildSearchPlan(params(q, { postal: "0150", categories: "lego", free: "true", max: "500" }));
      for (const s of [plan.rows, plan.count, plan.typed].filter((s) => s !== null)) expect(s.sql).not.toMatch(/\bLIKE\b|\bGLOB\b/i);
    }
  });

  it("for any input, MATCH gets only quoted strings: the folded search terms and what search-language makes of them", () => {
    fc.assert(
      fc.property(queryText, (q) => {
        const parsed = params(q.slice(0, 200));
        const terms = searchTerms(parsed.q);
        const allowed = allowedStrings(terms);
        for (const expression of matchExpressions(buildSearchPlan(parsed))) {
          const strings = unquoted(expression);
          for (const s of strings) expect(allowed, expression).toContain(s);
        }
        // The first tier holds every term as typed.
        if (terms.length) expect(unquoted(matchExpressions(buildSearchPlan(parsed))[0])).toEqual(expect.arrayContaining(terms));
      }),
      { numRuns: 500 },
    );
  });

  it("for any input, D1 runs the whole plan", { timeout: 120_000 }, async () => {
    const db = env.DB;
    await fc.assert(
      fc.asyncProperty(queryText, fc.constantFrom(undefined, "newest", "price_asc"), async (q, sort) => {
        const p = params(q.slice(0, 200), sort ? { sort } : {});
        try {
          await searchListings(db, p);
        } catch (err) {
          throw new Error(`search for ${JSON.stringify(q)} failed: ${String(err)}`);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("searchListings with FTS5 syntax typed as text", () => {
  it("finds listings whose words look like operators, and applies no column filter the visitor typed", async () => {
    const seller = await createUser();
    const trap = await createListing({ userId: seller.id, title: "Not a trap", description: "title near or and" });
    const inDescription = await createListing({ userId: seller.id, title: "Dukkehus", description: "Passer til togbane, se title" });
    const ids = async (q: string) => (await searchListings(env.DB, params(q))).rows.map((r) => r.id);
    for (const q of ['not "a" trap', "title: near", "NEAR(or and)", "-trap*"]) expect(await ids(q), q).toContain(trap.id);
    // As a column filter, `title:togbane` would search titles only and miss this listing; as text it
    // is two words, both in its description.
    expect(await ids("title:togbane")).toEqual([inDescription.id]);
  });
});
