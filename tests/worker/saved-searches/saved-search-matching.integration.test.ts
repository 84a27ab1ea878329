// Matching new listings against saved searches (docs/decisions/040-saved-search-matching.md): every
// filter as /search applies it, the text through the search's own FTS5 matching, checked against
// the real search service (worker/features/search/search.ts `searchListings`) on hand-picked and on
// generated cases; own and older listings never match; a listing matches a search once, also when
// two runs race; and the number of statements does not grow with the number of saved searches.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { parseFilters, serializeFilters, type SearchFilters } from "../../../domain/searchUrl";
import { AGE_RANGES, CATEGORY_KEYS } from "../../../domain/taxonomy";
import { app } from "../../../worker/app";
import type { Bindings } from "../../../worker/env";
import { countingD1 } from "../../../worker/features/saved-searches/statement-counter";
import { matchListings, matchRidRange } from "../../../worker/features/saved-searches/matching";
import { indexKeys, specOfQuery } from "../../../worker/features/saved-searches/match-index";
import { searchListings } from "../../../worker/features/search/search";
import { createListing, createSavedSearch, createUser, type ListingOverrides, type ListingRow } from "../../factories";
import { ORIGIN } from "../support/http";
import { listingAttributes } from "../../../domain/listing-fields";
import { attributeFilters } from "../../../domain/listing-field-rules";

const db = () => env.DB;

/** What /search returns for a saved query, among the given listings (every match, no paging). */
async function searchIds(query: string, among: Set<string>): Promise<Set<string>> {
  const f = parseFilters(query);
  const result = await searchListings(db(), { ...f, sort: f.sort ?? undefined, limit: 2000, offset: 0 });
  return new Set(result.rows.map((r) => r.id).filter((id) => among.has(id)));
}

async function storedMatches(savedSearchId: string): Promise<Set<string>> {
  const rows = await env.DB.prepare("SELECT listing_id FROM saved_search_matches WHERE saved_search_id = ?1")
    .bind(savedSearchId)
    .all<{ listing_id: string }>();
  return new Set(rows.results.map((r) => r.listing_id));
}

const sorted = (s: Set<string>) => [...s].sort();

describe("each filter, as /search applies it", () => {
  const listings: Record<string, ListingRow> = {};
  let searcher: string;
  let seller: string;

  const CASES: [query: string, expected: string[]][] = [
    ["categories=lego", ["legoDuplo", "legoklosser", "free", "cheap", "priced100", "priced500", "trade", "postal5003", "nydelig", "sunny"]],
    ["categories=biler,dukker", ["car", "bokerDoll"]],
    ["conditions=5", ["car"]],
    ["conditions=2,3", ["bokerDoll"]],
    [`ages=${encodeURIComponent("0-2 år")}`, ["bokerDoll"]],
    ["free=true", ["free"]],
    ["min=100&max=500", ["legoDuplo", "legoklosser", "priced100", "priced500", "car"]],
    ["max=99", ["free", "cheap"]],
    ["free=true&min=1000&categories=lego", ["free"]],
    ["trade=true", ["trade"]],
    ["postal=50", ["postal5003"]],
    [
      "postal=0150",
      ["legoDuplo", "legoklosser", "free", "cheap", "priced100", "priced500", "trade", "car", "bokerDoll", "nydelig", "sunny"],
    ],
    ["q=klosser", ["legoklosser"]],
    ["q=boker", ["bokerDoll"]],
    ["q=bøker", ["bokerDoll"]],
    ["q=lego+duplo", ["legoDuplo"]],
    ["q=ny", ["nydelig"]],
    ["q=duplo&categories=biler", []],
    ["q=brannbil&max=500", ["car"]],
    ['q="lego" OR NEAR(x', []],
  ];

  beforeAll(async () => {
    searcher = (await createUser()).id;
    seller = (await createUser()).id;
    const make = (o: ListingOverrides) =>
      createListing({ userId: seller, category: "lego", conditionRating: 4, ageRange: "6-8 år", price: 250, postalCode: "0150", ...o });
    // An older listing, published before the searches were saved: never a match.
    await make({ title: "Gammel Lego Duplo", price: 100 });
    for (const [i, [query]] of CASES.entries()) await createSavedSearch(searcher, query, { name: `Tilfelle ${i}` });
    listings.legoDuplo = await make({ title: "Lego Duplo brannstasjon" });
    listings.legoklosser = await make({ title: "Legoklosser i boks", description: "Mange klosser" });
    listings.free = await make({ title: "Gis bort: kasse", isFree: true, price: null });
    listings.cheap = await make({ title: "Småbiter", price: 99 });
    listings.priced100 = await make({ title: "Hundrelapp", price: 100 });
    listings.priced500 = await make({ title: "Femhundrelapp", price: 500 });
    listings.trade = await make({ title: "Byttes", isTradeOffer: true, price: 700 });
    listings.postal5003 = await make({ title: "Fra Bergen", postalCode: "5003", price: 800 });
    listings.car = await make({ title: "Brannbil med lyd", category: "biler", conditionRating: 5, price: 300 });
    listings.bokerDoll = await make({ title: "Bøker og dukke", category: "dukker", conditionRating: 2, ageRange: "0-2 år", price: 1200 });
    listings.nydelig = await make({ title: "Nydelig bamse", price: 600 });
    listings.sunny = await make({ title: "Sunny", description: "Bonny og Funny", price: 650 });
    await matchListings(
      db(),
      Object.values(listings).map((l) => l.id),
    );
  });

  it.each(CASES)("%s", async (query, expected) => {
    const id = (await env.DB.prepare("SELECT id FROM saved_searches WHERE user_id = ?1 AND query = ?2")
      .bind(searcher, serializeFilters(parseFilters(query)))
      .first<{ id: string }>())!.id;
    const ids = new Set(Object.values(listings).map((l) => l.id));
    const matched = await storedMatches(id);
    expect(sorted(matched)).toEqual(sorted(new Set(expected.map((k) => listings[k].id))));
    // …and exactly what /search shows for the same query among these listings.
    expect(sorted(matched)).toEqual(sorted(await searchIds(query, ids)));
  });
});

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const some = <T>(xs: readonly T[], p: number): T[] => xs.filter(() => next() < p);
  return { next, pick, some };
}

const TITLES = [
  "Lego Duplo",
  "Legoklosser",
  "Bøker for barn",
  "Brio tog med skinner",
  "Sparkesykkel",
  "Nydelig dukke",
  "Ærlig bamse",
  "Brannbil",
  "Traktor",
  "Sykkelhjelm",
  "Puslespill 100 brikker",
  "Ny barnevogn",
  "Lekekjøkken",
];
const DESCRIPTIONS = [
  "",
  "Pent brukt",
  "Som ny, lite brukt",
  "Mangler to klosser",
  "Fra røykfritt hjem",
  "Passer til Duplo",
  "Bøker om tog og biler",
];
const TERMS = [
  "lego",
  "duplo",
  "klosser",
  "boker",
  "bøker",
  "tog",
  "ny",
  "ærlig",
  "bil",
  "brann",
  "sykkel",
  "ki",
  "hjem",
  "lego duplo",
  "tog bil",
  "røykfritt",
  "x",
];
const PRICES = [null, 0, 50, 99, 100, 250, 500, 501, 1200, 9999, 15000];
const POSTALS = ["0150", "0151", "0250", "5003", "7010"];

describe("generated searches and listings", () => {
  it("every match is what /search returns for the saved query, and nothing /search returns is missed", async () => {
    const r = random(20261116);
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser()));
    const sellers = users.slice(0, 3);
    const newListing = (o: ListingOverrides = {}) => {
      const price = r.pick(PRICES);
      return createListing({
        userId: r.pick(sellers).id,
        title: r.pick(TITLES),
        description: r.pick(DESCRIPTIONS),
        category: r.pick(CATEGORY_KEYS.slice(0, 5)),
        ageRange: r.pick(AGE_RANGES),
        conditionRating: 1 + Math.floor(r.next() * 5),
        isFree: price === null,
        price,
        isTradeOffer: r.next() < 0.3,
        postalCode: r.pick(POSTALS),
        // Each declared field (domain/listing-fields.ts): empty, or one of three of its suggestions.
        ...Object.fromEntries(listingAttributes().map((a) => [a.key, r.next() < 0.5 ? r.pick(a.suggestions.slice(0, 3)) : null])),
        ...o,
      });
    };
    for (let i = 0; i < 15; i++) await newListing();

    const searches: { id: string; query: string; userId: string }[] = [];
    for (let i = 0; searches.length < 120 && i < 400; i++) {
      const f: SearchFilters = {
        q: r.next() < 0.6 ? r.pick(TERMS) : "",
        categories: r.next() < 0.35 ? r.some(CATEGORY_KEYS.slice(0, 5), 0.35) : [],
        conditions: r.next() < 0.2 ? r.some([1, 2, 3, 4, 5], 0.5) : [],
        ages: r.next() < 0.2 ? r.some(AGE_RANGES, 0.4) : [],
        min: r.next() < 0.25 ? r.pick([50, 100, 500]) : null,
        max: r.next() < 0.25 ? r.pick([99, 500, 1200]) : null,
        free: r.next() < 0.15,
        trade: r.next() < 0.15,
        postal: r.next() < 0.2 ? r.pick(["0", "01", "015", "0150", "5"]) : "",
        ...attributeFilters((key) => {
          const field = listingAttributes().find((a) => a.key === key)!;
          // Typed in lower case at times: the filter is the stored spelling, compared folded.
          return r.next() < 0.15 ? r.pick(field.suggestions.slice(0, 3).flatMap((s) => [s, s.toLowerCase()])) : undefined;
        }),
        sort: null,
      };
      const user = r.pick(users);
      const saved = await createSavedSearch(user.id, serializeFilters(f)).catch(() => null); // empty or a repeat for that user
      if (saved) searches.push({ id: saved.id, query: saved.query, userId: user.id });
    }
    // Text-keyed, facet-keyed and mixed searches are all among them.
    const keyKinds = new Set(searches.map((s) => indexKeys(specOfQuery(s.query))[0].slice(0, 2)));
    expect([...keyKinds].sort()).toEqual(expect.arrayContaining(["t:", "c:", "p:", "$:"]));

    const fresh: ListingRow[] = [];
    for (let i = 0; i < 70; i++) fresh.push(await newListing());
    // A hidden and a reserved listing are not listed, so they match nothing.
    fresh.push(await newListing({ isHidden: true }), await newListing({ status: "reserved" }));
    const freshIds = new Set(fresh.map((l) => l.id));
    const stats = await matchListings(db(), [...freshIds]);
    expect(stats.listings).toBe(70);

    let total = 0;
    for (const s of searches) {
      const own = new Set(fresh.filter((l) => l.userId === s.userId).map((l) => l.id));
      const expected = new Set([...(await searchIds(s.query, freshIds))].filter((id) => !own.has(id)));
      expect(sorted(await storedMatches(s.id)), s.query).toEqual(sorted(expected));
      total += expected.size;
    }
    const generated = new Set(searches.map((s) => s.id));
    expect(stats.pairs.filter((p) => generated.has(p.savedSearchId))).toHaveLength(total);
    expect(total).toBeGreaterThan(100);
  });
});

describe("who and what matches", () => {
  it("never the searcher's own listing, nor one published before the search was saved", async () => {
    const searcher = await createUser();
    const seller = await createUser();
    const before = await createListing({ userId: seller.id, title: "Duplo tog" });
    const search = await createSavedSearch(searcher.id, "q=duplo");
    const own = await createListing({ userId: searcher.id, title: "Duplo tog" });
    const other = await createListing({ userId: seller.id, title: "Duplo tog" });
    await matchListings(db(), [before.id, own.id, other.id]);
    expect(sorted(await storedMatches(search.id))).toEqual([other.id]);
  });

  it("stores an alert as pending, or off when the search has no alert", async () => {
    const searcher = await createUser();
    const on = await createSavedSearch(searcher.id, "q=kikkert", { alert: "daily" });
    const off = await createSavedSearch(searcher.id, "q=kikkert&trade=true", { alert: "off" });
    const listing = await createListing({ title: "Kikkert", isTradeOffer: true });
    await matchListings(db(), [listing.id]);
    const states = await env.DB.prepare("SELECT saved_search_id, alert_state FROM saved_search_matches WHERE listing_id = ?1")
      .bind(listing.id)
      .all();
    expect(states.results).toEqual(
      expect.arrayContaining([
        { saved_search_id: on.id, alert_state: "pending" },
        { saved_search_id: off.id, alert_state: "off" },
      ]),
    );
  });

  it("matches a listing once per search, also when two runs race, and the cron's range run agrees", async () => {
    const searcher = await createUser();
    const search = await createSavedSearch(searcher.id, "q=stylter");
    const listings = await Promise.all([createListing({ title: "Stylter" }), createListing({ title: "Stylter str 20" })]);
    const ids = listings.map((l) => l.id);
    const runs = await Promise.all([matchListings(db(), ids), matchListings(db(), ids), matchListings(db(), ids)]);
    const ofSearch = (pairs: { savedSearchId: string; listingId: string }[]) =>
      pairs
        .filter((p) => p.savedSearchId === search.id)
        .map((p) => p.listingId)
        .sort();
    for (const run of runs) expect(ofSearch(run.pairs)).toEqual([...ids].sort());
    // Every pair (of every search these listings match) was inserted by exactly one of the runs.
    expect(runs.reduce((n, r) => n + r.inserted, 0)).toBe(runs[0].matches);
    const rids = await env.DB.prepare("SELECT rid FROM listing_search_map WHERE listing_id IN (?1, ?2)")
      .bind(ids[0], ids[1])
      .all<{ rid: number }>();
    const range = await matchRidRange(db(), Math.min(...rids.results.map((r) => r.rid)) - 1, Math.max(...rids.results.map((r) => r.rid)));
    expect(ofSearch(range.pairs)).toEqual([...ids].sort());
    expect(range.inserted).toBe(0);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM saved_search_matches WHERE saved_search_id = ?1")
      .bind(search.id)
      .first<{ n: number }>();
    expect(count?.n).toBe(2);
  });
});

describe("the work per batch", () => {
  it("issues the same handful of statements for 5 and for 100 saved searches", async () => {
    const statementsFor = async (searches: number) => {
      const searchers = await Promise.all([createUser(), createUser(), createUser()]);
      const queries = [
        (i: number) => `q=kran${i}`,
        (i: number) => `categories=${CATEGORY_KEYS[i % CATEGORY_KEYS.length]}&min=${i}`,
        (i: number) => `q=kran${i}&postal=0150`,
        (i: number) => `max=${100 + i}&trade=true`,
      ];
      for (let i = 0; i < searches; i++) await createSavedSearch(searchers[i % 3].id, queries[i % queries.length](i));
      const listings = await Promise.all(
        Array.from({ length: 5 }, (_, i) => createListing({ title: `kran${i} med krok`, isTradeOffer: true, price: 50 })),
      );
      const counter = countingD1(env.DB);
      const stats = await matchListings(
        counter.d1,
        listings.map((l) => l.id),
      );
      expect(stats.matches).toBeGreaterThan(0);
      return counter.statements();
    };
    const few = await statementsFor(5);
    const many = await statementsFor(100);
    expect(many).toBe(few);
    // Six, and a vocabulary lookup for the texts of each of steps 2 and 3 (decision 151).
    expect(many).toBeLessThanOrEqual(8);
  });
});

describe("the local benchmark route", () => {
  const post = (body: unknown, environment: Bindings = env) =>
    app.fetch(
      new Request(`${ORIGIN}/api/dev/saved-searches/match`, {
        method: "POST",
        headers: { Origin: ORIGIN, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
      environment,
      createExecutionContext(),
    );

  it("runs the matcher on the given listings in local mode, again after `fresh`, and reports its work", async () => {
    const searcher = await createUser();
    const search = await createSavedSearch(searcher.id, "q=vippehest");
    const listing = await createListing({ title: "Vippehest i tre" });
    const first = await post({ listingIds: [listing.id] });
    expect(first.status).toBe(200);
    // Other tests' searches may match the listing too (a category, a price): count this search's pair.
    type Answer = { statements: number; matches: number; inserted: number; pairs: [string, string][] };
    const answer = (await first.json()) as Answer;
    expect(answer.pairs).toContainEqual([search.id, listing.id]);
    expect(answer.inserted).toBe(answer.matches);
    expect(answer.statements).toBeGreaterThan(0);
    expect(await storedMatches(search.id)).toEqual(new Set([listing.id]));
    const again = (await (await post({ listingIds: [listing.id] })).json()) as Answer;
    expect(again).toMatchObject({ matches: answer.matches, inserted: 0 });
    const fresh = (await (await post({ listingIds: [listing.id], fresh: true })).json()) as Answer;
    expect(fresh).toMatchObject({ matches: answer.matches, inserted: answer.matches });
  });

  it("refuses a missing or too long list with a Norwegian message", async () => {
    for (const body of [{}, { listingIds: [] }, { listingIds: Array.from({ length: 1001 }, (_, i) => `id-${i}`) }]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect((await res.json()) as object).toMatchObject({
        error: { code: "VALIDATION", message: "Oppgi mellom 1 og 1000 annonse-ID-er i listingIds." },
      });
    }
  });

  it("does not exist outside local mode", async () => {
    const listing = await createListing({ title: "Gyngehest" });
    const res = await post(
      { listingIds: [listing.id] },
      { ...env, APP_ENV: "production", JWT_SECRET: "x".repeat(40), APP_ORIGIN: "https://lekebytte.example" },
    );
    expect(res.status).toBe(404);
  });
});
