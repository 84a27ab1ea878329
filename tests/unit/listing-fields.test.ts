// The declared listing fields' rules (domain/listing-fields.ts): what is stored for what a seller
// types, what a search filter compares, and the demo data's value from a title.
import { describe, expect, it } from "vitest";
import { attributeValues, listingAttributes, type ListingAttribute } from "../../domain/listing-fields";
import { attributeFilter, attributeKey, attributeValue, suggestionInTitle } from "../../domain/listing-field-rules";

const field: ListingAttribute = {
  key: "maker",
  label: "Lager",
  placeholder: "",
  maxLength: 12,
  tooLong: "for langt",
  suggestions: ["Lego", "Hot Wheels", "Bæ Bø"],
};

describe("attributeValue: what is stored", () => {
  it.each([
    ["", null],
    ["   ", null],
    ["lego", "Lego"],
    ["  LEGO ", "Lego"],
    ["hot   wheels", "Hot Wheels"],
    ["bae boe", "Bæ Bø"],
    ["Legoland", "Legoland"],
    ["  Mitt   eget  ", "Mitt eget"],
  ])("%j is stored as %j", (typed, stored) => {
    expect(attributeValue(field, typed)).toBe(stored);
  });
});

describe("attributeFilter: what a search compares", () => {
  it("is the stored spelling, cut to the field's length, or empty", () => {
    expect(attributeFilter(field, "lego")).toBe("Lego");
    expect(attributeFilter(field, "x".repeat(20))).toBe("x".repeat(12));
    expect(attributeFilter(field, undefined)).toBe("");
    expect(attributeFilter(field, ["lego"])).toBe("");
  });

  it("compares folded: Norwegian letters, their keyboard spellings and case", () => {
    expect(attributeKey("Bæ Bø")).toBe(attributeKey("bae boe"));
    expect(attributeKey(" HOT  Wheels ")).toBe("hot wheels");
  });
});

describe("each declared field", () => {
  it.each(listingAttributes().map((a) => ({ ...a, name: a.label })))(
    "$name: its suggestions are stored as written, and a title names one",
    (a) => {
      for (const s of a.suggestions) {
        expect(attributeValue(a, s.toLowerCase())).toBe(s);
        expect(s.length).toBeLessThanOrEqual(a.maxLength);
        expect(suggestionInTitle(a, `Fin ${s.toLowerCase()} til salgs`)).not.toBeNull();
      }
      expect(suggestionInTitle(a, "Kosebamse, stor brun")).toBeNull();
    },
  );

  it("absent or empty values read as null", () => {
    const values = attributeValues({});
    expect(Object.values(values).every((v) => v === null)).toBe(true);
    expect(Object.keys(values)).toEqual(listingAttributes().map((a) => a.key));
  });
});
