// Property (SECURITY.md "How we test it"): whatever a visitor types, toFtsQuery yields null or a
// MATCH expression FTS5 accepts, on the real D1, for both indexes, with and without prefix stars.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { toFtsQuery } from "../../domain/search";
import { createListing } from "../factories";

// Pieces of FTS5 syntax and awkward text, combined with arbitrary strings below.
const hostileToken = fc.constantFrom(
  '"', '""', "'", "*", "**", "^", "-", "+", ":", "(", ")", "()", "{", "}", "[", "]", ",", ".", "\\", "/", "%", "_", ";", "--",
  "NEAR", "NEAR(", "NEAR/3", "AND", "OR", "NOT", "and", "or", "not", "MATCH",
  "title:", "description:", "{title description}:", "-title:", "rowid:", "^title", "listings_fts:",
  "lego*", '"lego"', "'lego'", "ø", "æ", "å", "Ø", "Æ", "Å", "ü", "ß", "ﬁ", "İ", "ǅ",
  "日本語", "😀", "👨‍👩‍👧", "\u0301", "e\u0301", "\u200b", "\u00a0", "\u0000", "\t", "\n", "١٢٣", "½", "²",
  "x".repeat(300), "a b c d e f g h i j k l m n o p",
);

const queryText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.array(fc.oneof(hostileToken, fc.string({ maxLength: 6 })), { maxLength: 10 }).map((parts) => parts.join(" ")),
  fc.array(hostileToken, { maxLength: 8 }).map((parts) => parts.join("")),
);

const variants = [
  { table: "listings_fts", prefix: true },
  { table: "listings_fts", prefix: false },
  { table: "listings_fts_trigram", prefix: false },
  { table: "listings_fts_trigram", prefix: true },
] as const;

describe("toFtsQuery against FTS5", () => {
  beforeAll(async () => {
    // Some indexed rows, so MATCH really walks the index.
    await createListing({ title: "Legoklosser og bøker", description: "Ærlig talt en fin båt" });
    await createListing({ title: "NEAR AND OR NOT", description: 'title: "quoted" (parens) *' });
  });

  it("returns null or a MATCH expression D1 accepts", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(queryText, async (text) => {
        for (const { table, prefix } of variants) {
          const match = toFtsQuery(text, { prefix });
          if (match === null) continue;
          expect(typeof match).toBe("string");
          try {
            await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?1`).bind(match).first();
          } catch (err) {
            throw new Error(`${table} rejected ${JSON.stringify(match)} (from ${JSON.stringify(text)}): ${String(err)}`);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("returns null when no letter or digit is left", () => {
    for (const text of ["", "   ", '"', "*", "()", "-- ;", "\u200b", "😀"]) {
      expect(toFtsQuery(text), JSON.stringify(text)).toBeNull();
    }
  });

  it("quotes every token, so operators are text", () => {
    expect(toFtsQuery('title: NEAR(lego "duplo") OR -bøker*')).toBe('"title"* "near"* "lego"* "duplo"* "or"* "boker"*');
    expect(toFtsQuery("lego duplo", { prefix: false })).toBe('"lego" "duplo"');
  });
});
