// Pure domain rules (no I/O). They run in workerd here because that is where the Worker uses them;
// Intl data in workerd is what production formats with.
import { describe, expect, it } from "vitest";
import { formatPrice, relativeTime } from "../../domain/format";
import { listingFormSchema } from "../../domain/schemas/listing";
import { idPrefixFromSlug, listingSlug, slugifyTitle } from "../../domain/slug";
import { normalizeAgeRange, normalizeCategory } from "../../domain/taxonomy";
import { DAY, HOUR, MINUTE } from "../factories/clock";

describe("listingSlug / idPrefixFromSlug", () => {
  const id = "3f2a9c1e-7b4d-4e2a-9c3b-1234567890ab";

  it("folds æ→ae, ø→o, å→a and ends with the first 6 hex characters of the id", () => {
    expect(listingSlug("Ærlig gammel båt fra Trøndelag", id)).toBe("aerlig-gammel-bat-fra-trondelag-3f2a9c");
    expect(listingSlug("BØKER & Blåbær!!", id)).toBe("boker-blabaer-3f2a9c");
  });

  it("strips other diacritics and punctuation, and never yields an empty title part", () => {
    expect(slugifyTitle("Crème brûlée – München")).toBe("creme-brulee-munchen");
    expect(slugifyTitle("  --Lego   Duplo--  ")).toBe("lego-duplo");
    expect(slugifyTitle("!!!")).toBe("annonse");
  });

  it("extends the id part when asked (collisions)", () => {
    expect(listingSlug("Lego", id, 8)).toBe("lego-3f2a9c1e");
  });

  it("recovers the id prefix from the last part, and rejects slugs without one", () => {
    expect(idPrefixFromSlug(listingSlug("Bøker om dinosaurer", id))).toBe("3f2a9c");
    expect(idPrefixFromSlug("lego-3F2A9C1E")).toBe("3f2a9c1e");
    expect(idPrefixFromSlug("lego-duplo")).toBeNull();
    expect(idPrefixFromSlug("lego-3f2a9")).toBeNull();
    expect(idPrefixFromSlug("")).toBeNull();
  });
});

describe("relativeTime", () => {
  const now = new Date("2026-06-15T12:00:00Z");
  const at = (msAgo: number) => relativeTime(new Date(now.getTime() - msAgo), now);

  it.each([
    [0, "Akkurat nå"],
    [59 * MINUTE + 59_000, "Akkurat nå"],
    [HOUR, "1t siden"],
    [5 * HOUR + 30 * MINUTE, "5t siden"],
    [24 * HOUR - 1, "23t siden"],
    [DAY, "I går"],
    [2 * DAY - 1, "I går"],
    [2 * DAY, "2d siden"],
    [7 * DAY - 1, "6d siden"],
  ])("%i ms ago → %s", (ms, expected) => {
    expect(at(ms)).toBe(expected);
  });

  it("shows a Norwegian date from 7 days on", () => {
    expect(at(7 * DAY)).toBe("8. juni 2026");
    expect(relativeTime("2026-03-01T12:00:00Z", now)).toBe("1. mars 2026");
  });

  it("uses the Oslo calendar day for dates", () => {
    // 23:30 UTC on 31 Dec is already 1 January in Oslo.
    expect(relativeTime("2025-12-31T23:30:00Z", now)).toBe("1. januar 2026");
  });

  it("accepts ISO strings", () => {
    expect(relativeTime(new Date(now.getTime() - 3 * HOUR).toISOString(), now)).toBe("3t siden");
  });
});

describe("formatPrice", () => {
  it('says "Gratis" for free listings and for a missing price', () => {
    expect(formatPrice(null, true)).toBe("Gratis");
    expect(formatPrice(500, true)).toBe("Gratis");
    expect(formatPrice(null, false)).toBe("Gratis");
  });

  it("groups thousands with a no-break space (Intl nb-NO) and appends kr", () => {
    const text = formatPrice(1250, false);
    expect(text).toMatch(/^1[\u00a0\u202f]250 kr$/);
    expect(text.replace(/[\u00a0\u202f]/g, " ")).toBe("1 250 kr");
    expect(formatPrice(0, false)).toBe("0 kr");
    expect(formatPrice(99, false)).toBe("99 kr");
    expect(formatPrice(1_000_000, false).replace(/[\u00a0\u202f]/g, " ")).toBe("1 000 000 kr");
  });
});

describe("taxonomy normalisation", () => {
  it.each([
    ["cars", "biler"],
    ["dolls", "dukker"],
    ["puzzles", "puslespill"],
    ["games", "spill"],
    ["Lego", "lego"],
    [" ute-lek ", "ute-lek"],
    ["biler", "biler"],
  ])("category %j → %j", (input, expected) => {
    expect(normalizeCategory(input)).toBe(expected);
  });

  it("rejects unknown categories", () => {
    expect(normalizeCategory("weapons")).toBeNull();
    expect(normalizeCategory("")).toBeNull();
  });

  it.each([
    ["0-2 år", "0-2 år"],
    ["2-5 år", "3-5 år"],
    ["3-5 år", "3-5 år"],
    ["5-8 år", "6-8 år"],
    ["8-12 år", "9-12 år"],
    ["9+ år", "9-12 år"],
    ["12+ år", "12+ år"],
  ])("age range %j → %j", (input, expected) => {
    expect(normalizeAgeRange(input)).toBe(expected);
  });

  it("rejects unknown age ranges", () => {
    expect(normalizeAgeRange("100 år")).toBeNull();
  });
});

describe("listingFormSchema", () => {
  const valid = {
    title: "Lego Duplo togbane",
    description: "Komplett",
    category: "lego",
    age_range: "3-5 år",
    condition_rating: 4,
    price: 300,
    is_free: false,
    is_trade_offer: true,
    postal_code: "0150",
    images: ["u1/a.jpg"],
  };

  const fieldErrors = (input: unknown) => {
    const result = listingFormSchema.safeParse(input);
    expect(result.success).toBe(false);
    return Object.fromEntries(result.error!.issues.map((i) => [i.path.join("."), i.message]));
  };

  it("accepts a valid form", () => {
    const form = listingFormSchema.parse(valid);
    expect(form).toMatchObject({ title: "Lego Duplo togbane", category: "lego", price: 300, is_trade_offer: true });
  });

  it('rejects a title under 3 characters with "Tittel må være minst 3 tegn"', () => {
    expect(fieldErrors({ ...valid, title: "ab" }).title).toBe("Tittel må være minst 3 tegn");
    expect(fieldErrors({ ...valid, title: "  ab  " }).title).toBe("Tittel må være minst 3 tegn");
  });

  it("rejects a short or non-numeric postal code", () => {
    expect(fieldErrors({ ...valid, postal_code: "015" }).postal_code).toBe("Postnummer må være minst 4 siffer");
    expect(fieldErrors({ ...valid, postal_code: "abcd" }).postal_code).toBe("Postnummer må være minst 4 siffer");
  });

  it("requires category and age group with the spec's messages", () => {
    const errors = fieldErrors({ ...valid, category: "våpen", age_range: "100 år" });
    expect(errors.category).toBe("Velg en kategori");
    expect(errors.age_range).toBe("Velg aldersgruppe");
  });

  it("stores old category and age aliases as the new keys", () => {
    const form = listingFormSchema.parse({ ...valid, category: "cars", age_range: "9+ år" });
    expect(form.category).toBe("biler");
    expect(form.age_range).toBe("9-12 år");
  });

  it("makes a free listing's price null whatever was sent", () => {
    expect(listingFormSchema.parse({ ...valid, is_free: true, price: 500 }).price).toBeNull();
    expect(listingFormSchema.parse({ ...valid, is_free: true, price: "" }).price).toBeNull();
  });

  it("treats an empty price on a non-free listing as 0 and parses numeric strings", () => {
    expect(listingFormSchema.parse({ ...valid, price: "" }).price).toBe(0);
    expect(listingFormSchema.parse({ ...valid, price: null }).price).toBe(0);
    const { price: _omitted, ...withoutPrice } = valid;
    expect(listingFormSchema.parse(withoutPrice).price).toBe(0);
    expect(listingFormSchema.parse({ ...valid, price: "1250" }).price).toBe(1250);
  });

  it("rejects negative, fractional and non-numeric prices", () => {
    for (const price of [-1, 12.5, "tolv"]) {
      expect(fieldErrors({ ...valid, price }).price, String(price)).toBeDefined();
    }
  });

  it("strips server-owned keys a client might send", () => {
    const form = listingFormSchema.parse({
      ...valid,
      user_id: "someone-else",
      status: "sold",
      is_hidden: true,
      seo_slug: "x",
      stripe_account_id: "acct_x",
      role: "admin",
    }) as Record<string, unknown>;
    for (const key of ["user_id", "status", "is_hidden", "seo_slug", "stripe_account_id", "role"]) {
      expect(form, key).not.toHaveProperty(key);
    }
  });

  it("keeps the seller's payment settings (the server applies them only for a seller who can take payments)", () => {
    const form = listingFormSchema.parse({ ...valid, payment_enabled: false, pricing_mode: "vipps" });
    expect(form).toMatchObject({ payment_enabled: false, pricing_mode: "vipps" });
    expect(listingFormSchema.safeParse({ ...valid, pricing_mode: "standard" }).success).toBe(false);
  });

  it("allows at most 5 images", () => {
    expect(fieldErrors({ ...valid, images: ["1", "2", "3", "4", "5", "6"] }).images).toBe("For mange bilder");
  });
});
