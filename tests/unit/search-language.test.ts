// The pure rules of what search understands (domain/search-language.ts, decision 151).
import { describe, expect, it } from "vitest";
import {
  compoundSplits,
  editDistance,
  irregularForms,
  isCorrection,
  notCompoundsOf,
  rawForms,
  searchTextOf,
  stemWord,
  synonymsOf,
  typoCandidateKeys,
  typoKey,
  understandTerms,
  type Vocabulary,
} from "../../domain/search-language";

describe("stemWord: the same stem for a word's forms, at index and query time", () => {
  it.each([
    ["dukke", "dukker", "dukken", "dukkene"],
    ["traktor", "traktorer", "traktoren"],
    ["dukkehus", "dukkehuset", "dukkehusene"],
    ["trampoline", "trampolinen"],
  ])("%s", (...forms) => {
    expect(new Set(forms.map(stemWord)).size).toBe(1);
  });

  it("takes irregular forms from the list, also as a compound's last part", () => {
    expect(["sykkel", "sykler", "sykkelen", "syklene"].map(stemWord)).toEqual(["sykkel", "sykkel", "sykkel", "sykkel"]);
    expect(stemWord("sparkesykler")).toBe("sparkesykkel");
    expect(stemWord("boker")).toBe("bok");
    expect(stemWord("togbane")).toBe(stemWord("togbaner"));
    // Snowball would take the s of "boks" for a genitive.
    expect(stemWord("boks")).not.toBe(stemWord("bok"));
  });

  it("keeps words with digits and never cuts below three letters", () => {
    expect(stemWord("ps4")).toBe("ps4");
    expect(stemWord("ski")).toBe("ski");
  });

  it("names the forms the stem does not start, and how raw text is searched for a word", () => {
    expect(irregularForms("sykkel")).toEqual(["sykler", "syklene", "syklar"]);
    expect(rawForms("lekebiler")).toEqual(["lekebiler", "lekebil"]);
    // A short stem only with the endings that start other forms: never "boks" for "boker".
    expect(rawForms("kjoler")).toEqual(["kjoler", "kjole", "kjola"]);
    expect(rawForms("lego")).toEqual(["lego"]);
  });
});

describe("searchTextOf: what the language index holds of a title", () => {
  it("the title's words stemmed with a space around each, and its words for the vocabulary", () => {
    const text = JSON.parse(searchTextOf("Brio togbane – 40 skinner, Bøker!", ["BRIO"])) as { stems: string; words: string[][] };
    expect(text.stems).toBe(` brio ${stemWord("togbane")} 40 ${stemWord("skinner")} bok brio `);
    expect(text.words).toContainEqual(["boker", "boker", "bok", "bøker"]);
    expect(text.words).toContainEqual(["skinner", "skiner", stemWord("skinner"), "skinner"]);
    // Once each, letters only, three or more.
    expect(text.words.map((w) => w[0])).toEqual(["brio", "togbane", "skinner", "boker"]);
  });
});

describe("typos", () => {
  it("one edit from five letters, two from eight, a swap in four, nothing shorter", () => {
    expect(isCorrection("dulpo", "duplo")).toBe(true);
    expect(isCorrection("gravemasin", "gravemaskin")).toBe(true);
    expect(isCorrection("trehjulsykel", "trehjulssykkel")).toBe(true);
    expect(isCorrection("barnsykel", "barnesykkel")).toBe(true);
    expect(isCorrection("brannbil", "brannbil")).toBe(false);
    expect(isCorrection("dukkevgnn", "dukkevogner")).toBe(false);
    expect(isCorrection("lgeo", "lego")).toBe(true);
    expect(isCorrection("lege", "lego")).toBe(false);
    expect(isCorrection("bil", "bol")).toBe(false);
    expect(editDistance("lgeo", "lego")).toBe(1);
  });

  it("finds a long word's candidates under one key: doubled letters written once", () => {
    expect(typoKey("trehjulssykkel")).toBe(typoKey("trehjulsykel"));
    expect(typoCandidateKeys("puslspil")).toContain(typoKey("puslespill"));
    expect(typoCandidateKeys("shleich")).toContain(typoKey("schleich"));
    expect(typoCandidateKeys("bil")).toEqual([]);
  });
});

describe("compounds and everyday words", () => {
  it("splits a word in two, the first part maybe with a joining s or e", () => {
    const splits = compoundSplits("bondegardsdyr").map((s) => `${s.modifier}|${s.head}`);
    expect(splits).toContain(`${stemWord("bondegard")}|dyr`);
    expect(compoundSplits("dinosaurbok").map((s) => `${s.modifier}|${s.head}`)).toContain("dinosaur|bok");
    // "leke-" adds nothing on a toy marketplace.
    expect(compoundSplits("lekebat").map((s) => `${s.modifier}|${s.head}`)).toContain("|bat");
    expect(compoundSplits("bil")).toEqual([]);
  });

  it("knows everyday words both ways, and one-way groups only from their first word", () => {
    expect(synonymsOf("tøydyr".replace("ø", "o"))).toContain(stemWord("kosedyr"));
    expect(synonymsOf("kosedyr")).toContain(stemWord("toydyr"));
    expect(synonymsOf("hotwheels")).toEqual(["hot wheel"]);
    expect(synonymsOf("barnevogn")).toContain(stemWord("vogn"));
    expect(synonymsOf("dukkevogn")).not.toContain(stemWord("barnevogn"));
  });

  it("knows the words that only look like compounds of a shorter one", () => {
    expect(notCompoundsOf("bil").raw).toContain("playmobil");
    expect(notCompoundsOf("playmobil").raw).toEqual([]);
    expect(notCompoundsOf("boker").stems).toContain("boks");
  });
});

describe("understandTerms", () => {
  const vocabulary: Vocabulary = {
    known: new Set(["lego"]),
    stems: new Set(["dinosaur", "bok"]),
    candidates: new Map([
      ["lgeo", [{ word: "lego", display: "lego", listings: 9 }]],
      ["dinosaurbok", [{ word: "dinosaurer", display: "dinosaurer", listings: 1 }]],
    ]),
  };

  it("splits an unknown compound into known parts rather than correcting it", () => {
    const [t] = understandTerms(["dinosaurbok"], vocabulary);
    expect(t.splits).toEqual([{ modifier: "dinosaur", head: "bok" }]);
    expect(t.corrected).toEqual([]);
  });

  it("corrects an unknown word, and never a known one", () => {
    expect(understandTerms(["lgeo"], vocabulary)[0]).toMatchObject({ corrected: ["lego"], correction: "lego" });
    expect(understandTerms(["lego"], vocabulary)[0]).toMatchObject({ corrected: [], correction: null });
    expect(understandTerms(["lgeo"], null)[0].corrected).toEqual([]);
  });

  it("does not require small words among others in the stemmed title", () => {
    expect(understandTerms(["klaer", "til", "dukker"], null).map((t) => t.stopword)).toEqual([false, true, false]);
    expect(understandTerms(["til"], null)[0].stopword).toBe(false);
  });
});
