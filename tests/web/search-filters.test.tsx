import { describe, expect, it } from "vitest";
import {
  activeFilterCount,
  apiSearchQuery,
  EMPTY_FILTERS,
  filterChips,
  parseFilters,
  serializeFilters,
} from "../../web/routes/search/searchFilters";
import { listingAttributes, type ListingAttributeKey } from "../../domain/listing-fields";
import { attributeFilters } from "../../domain/listing-field-rules";

describe("search filters in the URL", () => {
  it("reads every filter, maps old keys and orders lists like the taxonomy", () => {
    const f = parseFilters(
      "?q=+lego+duplo+&categories=cars,lego,ukjent&conditions=3,5,9&ages=9%2B%20%C3%A5r,0-2%20%C3%A5r&min=100&max=500&trade=true&postal=01x50&sort=price_asc",
    );
    expect(f).toEqual({
      q: "lego duplo",
      categories: ["lego", "biler"],
      conditions: [5, 3],
      ages: ["0-2 år", "9-12 år"],
      min: 100,
      max: 500,
      free: false,
      trade: true,
      postal: "0150",
      ...attributeFilters(() => undefined),
      sort: "price_asc",
    });
  });

  it("treats 0 and 10000 as no bound, reorders a reversed range and ignores an unknown sort", () => {
    expect(parseFilters("?min=0&max=10000")).toMatchObject({ min: null, max: null });
    expect(parseFilters("?min=800&max=200")).toMatchObject({ min: 200, max: 800 });
    expect(parseFilters("?min=abc&sort=cheapest")).toMatchObject({ min: null, sort: null });
    expect(parseFilters("")).toEqual(EMPTY_FILTERS);
  });

  it("writes one canonical query with readable commas and no defaults", () => {
    const f = parseFilters("?trade=true&categories=biler,lego&ages=3-5%20%C3%A5r&min=0&max=400");
    expect(serializeFilters(f)).toBe("categories=lego,biler&ages=3-5%20%C3%A5r&max=400&trade=true");
    expect(parseFilters(serializeFilters(f))).toEqual(f);
    expect(serializeFilters(EMPTY_FILTERS)).toBe("");
  });

  it("free-only drops the price bounds from the URL and from the chips", () => {
    const f = { ...EMPTY_FILTERS, free: true, min: 100, max: 300 };
    expect(serializeFilters(f)).toBe("free=true");
    expect(filterChips(f).map((c) => c.label)).toEqual(["Kun gratis"]);
    expect(activeFilterCount(f)).toBe(1);
  });

  it("one chip per value, and removing a chip drops only that value", () => {
    const f = parseFilters("?categories=lego,dukker&conditions=4&min=100&postal=03&trade=true");
    const chips = filterChips(f);
    expect(chips.map((c) => c.label)).toEqual(["Lego", "Dukker", "Meget god", "Fra 100 kr", "Åpen for bytte", "Postnummer 03"]);
    expect(activeFilterCount(f)).toBe(6);
    expect(chips[0].without(f).categories).toEqual(["dukker"]);
    expect(chips[3].without(f)).toMatchObject({ min: null, max: null });
  });

  it("adds paging for the API", () => {
    expect(apiSearchQuery(parseFilters("?q=bil&free=true"), 50)).toBe("q=bil&free=true&limit=50&offset=50");
    expect(apiSearchQuery(EMPTY_FILTERS)).toBe("limit=50&offset=0");
  });
});

describe.each(listingAttributes().map((a) => ({ ...a, name: a.label })))("the declared field $name in the URL", (a) => {
  const key = a.key as ListingAttributeKey;
  const value = a.suggestions[0];

  it("reads as the stored spelling, writes back before the sort, and has a chip that removes it", () => {
    const f = parseFilters(`?${key}=${encodeURIComponent(`  ${value.toLowerCase()} `)}&sort=newest`);
    expect(f[key]).toBe(value);
    expect(serializeFilters(f)).toBe(`${key}=${encodeURIComponent(value)}&sort=newest`);
    expect(parseFilters(serializeFilters(f))).toEqual(f);
    const chip = filterChips(f).find((c) => c.label === `${a.label}: ${value}`);
    expect(chip?.without(f)[key]).toBe("");
    expect(activeFilterCount(f)).toBe(1);
  });
});
