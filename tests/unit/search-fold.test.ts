// The query fold (domain/search.ts) must fold exactly as the index triggers do
// (migrations/0013_search_keyboard_spellings.sql): the keyboard spellings oe, aa, ae meet ø, å, æ.
import { describe, expect, it } from "vitest";
import { foldNorwegian, searchTerms } from "../../domain/search";

describe("foldNorwegian", () => {
  it("folds ø/å/æ and their keyboard spellings oe/aa/ae to the same text", () => {
    expect(foldNorwegian("bøker")).toBe("boker");
    expect(foldNorwegian("boeker")).toBe("boker");
    expect(foldNorwegian("BOEKER")).toBe("boker");
    expect(foldNorwegian("Bøker")).toBe("boker");
    expect(foldNorwegian("båt")).toBe("bat");
    expect(foldNorwegian("baat")).toBe("bat");
    expect(foldNorwegian("Haakon")).toBe(foldNorwegian("Håkon"));
    expect(foldNorwegian("ærlig")).toBe("aerlig");
    expect(foldNorwegian("aerlig")).toBe("aerlig");
    expect(foldNorwegian("Æ Ø Å")).toBe("ae o a");
  });

  it("folds a real oe/aa the same way everywhere, so the word still meets itself", () => {
    // "Saab" and "Joel" become "sab" and "jol" in the index and in the query alike.
    expect(foldNorwegian("Saab")).toBe("sab");
    expect(foldNorwegian("Joel")).toBe("jol");
    expect(foldNorwegian("Michael")).toBe("michael");
    // ø followed by e, and runs of a: left to right, like SQLite's replace().
    expect(foldNorwegian("øe")).toBe("o");
    expect(foldNorwegian("aaa")).toBe("aa");
  });

  it("search terms are folded, lowercased and split on anything but letters and digits", () => {
    expect(searchTerms("Boeker om DINOSAURER")).toEqual(["boker", "om", "dinosaurer"]);
    expect(searchTerms("mø-ebler")).toEqual(["mo", "ebler"]);
    expect(searchTerms("Blåbær-saft")).toEqual(["blabaer", "saft"]);
  });
});
