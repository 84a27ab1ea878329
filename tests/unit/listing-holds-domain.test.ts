// What an edit may change while the listing is held (domain/listing-holds.ts, decision 086): every
// (hold, changed field) case against one explicit table, several fields at once, and the diff.
import { describe, expect, it } from "vitest";
import {
  changedEditFields,
  changesPurchaseTerms,
  heldEditRefusal,
  holdsForbidding,
  LISTING_EDIT_FIELDS,
  LISTING_HOLD_EDIT_TEXTS as T,
  type ListingEditField,
  type ListingHold,
} from "../../domain/listing-holds";
import { listingAttributes } from "../../domain/listing-fields";

/** Written out by hand: the (hold, field) pairs an edit may change. Everything else is refused. */
const ALLOWED = new Set(["none/*", "giveaway/title", "giveaway/description", "paid/*"]);
/** …except these, which no hold lets through: how the toy changes hands once a buyer has paid. */
const REFUSED = new Set(["paid/canPickUp", "paid/canShip", "paid/parcelSize"]);

const HOLDS: (ListingHold | "none")[] = ["none", "trade", "giveaway", "paid"];
const CASES = HOLDS.flatMap((hold) => LISTING_EDIT_FIELDS.map((field) => ({ hold, field, key: `${hold}/${field}` })));

describe("one changed field under each hold", () => {
  it("covers 4 holds × (15 core fields and every declared one)", () => {
    expect(CASES).toHaveLength(4 * (15 + listingAttributes().length));
  });

  it.each(CASES)("$key", ({ hold, field, key }) => {
    const allowed = !REFUSED.has(key) && (ALLOWED.has(key) || ALLOWED.has(`${hold}/*`));
    const refusal = heldEditRefusal(hold === "none" ? [] : [hold], [field]);
    expect(refusal).toBe(allowed ? null : T[hold as ListingHold]);
  });
});

describe("several fields and several holds", () => {
  it.each([
    { holds: [], changed: ["price", "isFree", "images"], refusal: null },
    { holds: ["giveaway"], changed: ["title", "description"], refusal: null },
    { holds: ["giveaway"], changed: ["title", "price"], refusal: T.giveaway },
    { holds: ["giveaway"], changed: ["isFree", "price"], refusal: T.giveaway },
    { holds: ["trade"], changed: ["description"], refusal: T.trade },
    { holds: ["trade", "giveaway"], changed: ["title"], refusal: T.trade },
    { holds: ["trade"], changed: [], refusal: null },
    { holds: ["giveaway"], changed: [], refusal: null },
    { holds: ["paid"], changed: ["title", "price", "images"], refusal: null },
    { holds: ["paid"], changed: ["title", "canShip", "parcelSize"], refusal: T.paid },
    { holds: ["trade", "paid"], changed: ["parcelSize"], refusal: T.trade },
  ] as { holds: ListingHold[]; changed: ListingEditField[]; refusal: string | null }[])(
    "$holds changing $changed",
    ({ holds, changed, refusal }) => {
      expect(heldEditRefusal(holds, changed)).toBe(refusal);
    },
  );

  it("names the holds the Worker's UPDATE must rule out", () => {
    expect(holdsForbidding([])).toEqual([]);
    expect(holdsForbidding(["title"])).toEqual(["trade"]);
    expect(holdsForbidding(["title", "conditionRating"])).toEqual(["trade", "giveaway"]);
    expect(holdsForbidding(["canPickUp"])).toEqual(["trade", "giveaway", "paid"]);
  });

  it("the texts are Norwegian sentences", () => {
    for (const text of Object.values(T)) expect(text).toMatch(/^[A-ZÆØÅ].*\.$/);
  });
});

describe("changedEditFields", () => {
  const before = {
    title: "Duplo",
    description: null,
    price: 100,
    isFree: false,
    images: ["a", "b"],
    paymentEnabled: true,
    canPickUp: true,
    canShip: false,
    parcelSize: null,
  };
  it.each([
    [{ title: "Duplo" }, []],
    [{ title: "Duplo tog" }, ["title"]],
    [{ description: "" }, ["description"]],
    [{ description: null }, []],
    [{ price: 900, isFree: false }, ["price"]],
    [{ images: ["a", "b"] }, []],
    [{ images: ["b", "a"] }, ["images"]],
    [{ images: ["a"] }, ["images"]],
    [{ paymentEnabled: false }, ["paymentEnabled"]],
    [{ canPickUp: true, canShip: false, parcelSize: null }, []],
    [{ canPickUp: true, canShip: true, parcelSize: "medium" }, ["canShip", "parcelSize"]],
  ] as [Record<string, unknown>, ListingEditField[]][])("%j → %j", (after, changed) => {
    expect(changedEditFields(before, after)).toEqual(changed);
  });
});

describe("changesPurchaseTerms", () => {
  // A buyer mid-checkout chose to pick up or to have it sent: a change of the ways closes the checkout.
  it.each([
    [["title", "description", "images"], false],
    [["price"], true],
    [["canPickUp"], true],
    [["canShip", "parcelSize"], true],
    [["parcelSize"], true],
  ] as [ListingEditField[], boolean][])("%j → %s", (changed, closes) => {
    expect(changesPurchaseTerms(changed)).toBe(closes);
  });
});
