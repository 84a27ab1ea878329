// What search understands of Norwegian (docs/decisions/151-search-language.md), one rule at a time
// through GET /api/search: inflected forms, compounds both ways, typos with "Mente du …?", everyday
// words, words that only look like compounds, each ranked below what the query finds as typed; the
// index follows a title changed without the listing form (the cron's "search-text" step); and a saved
// search is told of a new listing by the same rules.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createListing, createSavedSearch, createUser, deleteAllListings, type ListingRow } from "../../factories";
import { asVisitor, Client } from "../support/http";
import { matchListings } from "../../../worker/features/saved-searches/matching";
import { fillSearchText } from "../../../worker/features/search/search-text";

interface Result {
  rows: { id: string; title: string; search_rank: number }[];
  total: number;
  suggestion: string | null;
}

async function search(q: string): Promise<Result> {
  const res = await new Client().get(`/api/search?q=${encodeURIComponent(q)}`, asVisitor());
  expect(res.status, q).toBe(200);
  return (await res.json()) as Result;
}

const titles = async (q: string) => (await search(q)).rows.map((r) => r.title);

const listings: Record<string, ListingRow> = {};

beforeAll(async () => {
  await deleteAllListings();
  const seller = await createUser();
  // Oldest first: the language matches are the newest, so only the tiers put the exact ones first.
  const rows: [key: string, title: string, description?: string][] = [
    ["lolDukker", "LOL dukker, 4 stk"],
    ["stickers", "Klistremerker", "Passer i en dinosaurbok"],
    ["sykkel", "Sykkel 20 tommer"],
    ["toydyr", "Tøydyr i pose"],
    ["babyDukke", "Baby Born dukke med klær"],
    ["dinoBooks", "Bøker om dinosaurer", "Tre bøker"],
    ["trehjul", "Trehjulssykkel fra Tiny"],
    ["sparke", "Sparkesykkel med LED-hjul"],
    ["playmobil", "Playmobil politistasjon"],
    ["politibil", "Politibil med lys"],
    ["kosedyr", "Kosedyr: enhjørning"],
    ["lego", "Lego Technic gravemaskin"],
    ["gravemaskin", "Gravemaskin i metall"],
    ["kaninHus", "Kaniner og hus fra Sylvanian"],
    ["kanon", "Piratskip med kanon"],
  ];
  for (const [key, title, description] of rows) listings[key] = await createListing({ userId: seller.id, title, description });
});

describe("inflection: the stem, at index and query time alike", () => {
  it("a plural finds the singular in a title, below the title that has the plural as typed", async () => {
    const found = await search("dukker");
    expect(found.rows.map((r) => r.title).slice(0, 2)).toEqual(["LOL dukker, 4 stk", "Baby Born dukke med klær"]);
    expect(found.rows.map((r) => r.search_rank)).toEqual([8, 4]);
  });

  it("a definite form finds the indefinite one, and an irregular plural its singular (sykler → sykkel)", async () => {
    expect(await titles("dukken")).toContain("Baby Born dukke med klær");
    expect(await titles("sykkelen")).toContain("Sykkel 20 tommer");
    expect(await titles("sykler")).toEqual(
      expect.arrayContaining(["Sykkel 20 tommer", "Trehjulssykkel fra Tiny", "Sparkesykkel med LED-hjul"]),
    );
    expect(await titles("bok")).toContain("Bøker om dinosaurer");
  });
});

describe("compounds both ways", () => {
  it("a compound no title has finds its parts apart (dinosaurbok → Bøker om dinosaurer), above the compound in a description", async () => {
    const found = await search("dinosaurbok");
    expect(found.rows.map((r) => [r.title, r.search_rank])).toEqual([
      ["Bøker om dinosaurer", 1],
      ["Klistremerker", 0],
    ]);
    expect(found.suggestion).toBeNull();
  });

  it("a word finds the compounds it ends (sykkel → Trehjulssykkel), below the word itself", async () => {
    const found = await search("sykkel");
    expect(found.rows.map((r) => [r.title, r.search_rank])).toEqual([
      ["Sykkel 20 tommer", 8],
      ["Sparkesykkel med LED-hjul", 7],
      ["Trehjulssykkel fra Tiny", 7],
    ]);
  });

  it("a word that only ends like another is not a compound of it: Playmobil is no bil", async () => {
    const found = await search("bil");
    expect(found.rows[0].title).toBe("Politibil med lys");
    // Still a match, but below every title that has the word.
    expect(found.rows.find((r) => r.title === "Playmobil politistasjon")?.search_rank ?? 0).toBe(0);
  });
});

describe("typos", () => {
  it("one edit in a word of five letters or more, two in a long one, and 'Mente du …?' when the typed words find nothing", async () => {
    const oneEdit = await search("gravemasin");
    expect(oneEdit.rows.map((r) => r.title)).toEqual(expect.arrayContaining(["Gravemaskin i metall", "Lego Technic gravemaskin"]));
    expect(oneEdit.suggestion).toBe("gravemaskin");
    const twoEdits = await search("trehjulsykel");
    expect(twoEdits.rows.map((r) => r.title)).toEqual(["Trehjulssykkel fra Tiny"]);
    expect(twoEdits.suggestion).toBe("trehjulssykkel");
    // Two letters swapped in a four-letter word.
    expect((await search("lgeo")).rows.map((r) => r.title)).toEqual(["Lego Technic gravemaskin"]);
  });

  it("never corrects a word the titles have, and an exact match needs no suggestion", async () => {
    // "kanin" is one edit from "kanon", but the titles have "kaniner".
    expect(await titles("kanin")).toEqual(["Kaniner og hus fra Sylvanian"]);
    expect((await search("gravemaskin")).suggestion).toBeNull();
    // A short word is never corrected: "sykel" is five letters, "syke" four.
    expect((await search("syke")).rows).toEqual([]);
  });
});

describe("everyday words", () => {
  it("finds the other words of a synonym group (tøydyr → Kosedyr), below the word as typed", async () => {
    expect(await titles("tøydyr")).toEqual(["Tøydyr i pose", "Kosedyr: enhjørning"]);
  });
});

describe("the index follows the title", () => {
  it("a title changed without its search text is found by its new words, its stems once the cron's step has written them", async () => {
    const listing = await createListing({ title: "Dukkevogn i tre" });
    const rankOf = async (q: string) => (await search(q)).rows.find((r) => r.id === listing.id)?.search_rank;
    expect(await rankOf("dukkevogner")).toBe(4);
    await env.DB.prepare("UPDATE listings SET title = ?1 WHERE id = ?2").bind("Traktor med henger", listing.id).run();
    // The old stems are gone at once, the new words are found as written… (each query once: the
    // edge cache keeps an answer)
    expect(await rankOf("dukkevogna")).toBeUndefined();
    expect(await rankOf("dukkevogn")).toBeUndefined();
    expect(await rankOf("traktorer")).toBe(0);
    // …its whole words at once (the word index follows the title)…
    expect(await rankOf("traktor")).toBe(8);
    // …and as stems once the cron's step has written the search text.
    expect(await fillSearchText(env.DB)).toBeGreaterThanOrEqual(1);
    expect(await rankOf("traktorene")).toBe(4);
  });
});

describe("saved-search alerts, by the same rules", () => {
  it("a saved 'sykler' is told of a new Trehjulssykkel, 'dinosaurbok' of Bøker om dinosaurer, 'bilene' of a Lekebil", async () => {
    const searcher = (await createUser()).id;
    const seller = (await createUser()).id;
    const bikes = await createSavedSearch(searcher, "q=sykler", { name: "Sykler" });
    const books = await createSavedSearch(searcher, "q=dinosaurbok", { name: "Dinosaurbøker" });
    const cars = await createSavedSearch(searcher, "q=bilene", { name: "Biler" });
    const trike = await createListing({ userId: seller, title: "Trehjulssykkel, rød" });
    const dino = await createListing({ userId: seller, title: "To bøker om dinosaurer" });
    // Only its stemmed title has "bil": the text as written has no form that starts with "bile".
    const car = await createListing({ userId: seller, title: "Lekebil i tre" });
    await matchListings(env.DB, [trike.id, dino.id, car.id]);
    const matched = async (savedSearchId: string) =>
      (
        await env.DB.prepare("SELECT listing_id FROM saved_search_matches WHERE saved_search_id = ?1")
          .bind(savedSearchId)
          .all<{ listing_id: string }>()
      ).results.map((r) => r.listing_id);
    expect(await matched(bikes.id)).toEqual([trike.id]);
    expect(await matched(books.id)).toEqual([dino.id]);
    expect(await matched(cars.id)).toEqual([car.id]);
  });
});
