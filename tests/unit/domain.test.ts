// Pure domain rules (no I/O), in Node (decision 093). The Worker's formatting with workerd's Intl data
// stays covered where it renders: the edge-rendered pages in tests/worker.
import { describe, expect, it } from "vitest";
import { formatPrice, genitive, relativeTime } from "../../domain/format";
import { DESCRIPTION_MAX_LENGTH } from "../../domain/limits";
import {
  canOwnerMove,
  isListedListing,
  isPublicListing,
  LISTED_LISTING_STATUSES,
  OWNER_STATUSES,
  OWNER_TRANSITIONS,
  PUBLIC_LISTING_STATUSES,
} from "../../domain/listing-lifecycle";
import { isOwnPhotoKey, photoKeyOwner } from "../../domain/photos";
import { listingFormSchema, listingStatusSchema, PRICE_MESSAGE, PRICE_TOO_HIGH_MESSAGE } from "../../domain/schemas/listing";
import { LISTING_STATUSES } from "../../domain/taxonomy";
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

describe("genitive", () => {
  it.each([
    ["Ola Hansen", "Ola Hansens"],
    ["Kari", "Karis"],
    ["Hans", "Hans'"],
    ["Lars Johannes", "Lars Johannes'"],
    ["Marx", "Marx'"],
    ["Inez", "Inez'"],
    ["INGRID BERGS", "INGRID BERGS'"],
    ["  Nora  ", "Noras"],
    ["Anonym", "Anonyms"],
  ])("%s → %s", (name, expected) => {
    expect(genitive(name)).toBe(expected);
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

  // Names every object has through its prototype are no aliases (a search for ?ages=valueOf once
  // bound a function into its SQL and answered 500).
  it.each(["valueOf", "toString", "constructor", "__proto__", "hasOwnProperty", "isPrototypeOf"])(
    "%j is neither a category nor an age range",
    (input) => {
      expect(normalizeCategory(input)).toBeNull();
      expect(normalizeAgeRange(input)).toBeNull();
    },
  );
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

  it.each(["0x10", "0b11", "0o7", "1e3", "12.5", "1,5", "-1", "+5", " 1 2", "١٢٣", "Infinity", "NaN", "10kr"])(
    "reads the price %j as digits only: refused with a Norwegian message, never converted",
    (price) => {
      expect(fieldErrors({ ...valid, price }).price).toBe(PRICE_MESSAGE);
    },
  );

  it("accepts digits with surrounding spaces and leading zeros, and JSON integers", () => {
    expect(listingFormSchema.parse({ ...valid, price: " 250 " }).price).toBe(250);
    expect(listingFormSchema.parse({ ...valid, price: "007" }).price).toBe(7);
    expect(listingFormSchema.parse({ ...valid, price: 0 }).price).toBe(0);
    expect(fieldErrors({ ...valid, price: "1000001" }).price).toBe(PRICE_TOO_HIGH_MESSAGE);
    expect(fieldErrors({ ...valid, price: "9".repeat(30) }).price).toBe(PRICE_MESSAGE);
  });

  it("strips NUL and other control characters from the title; line breaks and tabs become spaces", () => {
    const form = listingFormSchema.parse({ ...valid, title: "\u0000Lego\u0007 Duplo\ttog\nbane\u001b[31m\u009b\u202e" });
    expect(form.title).toBe("Lego Duplo tog bane[31m");
    expect(fieldErrors({ ...valid, title: "\u0000\u0001ab\u0002" }).title).toBe("Tittel må være minst 3 tegn");
  });

  it("keeps newlines and tabs in descriptions, strips the other control characters and counts what is stored", () => {
    const form = listingFormSchema.parse({ ...valid, description: "Linje 1\r\nLinje\t2\u0000\u0008\rLinje 3\u2066" });
    expect(form.description).toBe("Linje 1\nLinje\t2\nLinje 3");
    expect(listingFormSchema.parse({ ...valid, description: "\u0000\u0001  " }).description).toBeNull();
    const long = "a".repeat(DESCRIPTION_MAX_LENGTH);
    expect(listingFormSchema.parse({ ...valid, description: `${long}\u0000\u0000` }).description).toHaveLength(DESCRIPTION_MAX_LENGTH);
    expect(fieldErrors({ ...valid, description: `${long}x` }).description).toBe("Beskrivelsen kan være maks 5000 tegn");
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

describe("listing lifecycle", () => {
  it("lets the seller move active ⇄ reserved, either to sold or given away, and back to active", () => {
    const moves = LISTING_STATUSES.flatMap((from) => OWNER_STATUSES.filter((to) => canOwnerMove(from, to)).map((to) => `${from}→${to}`));
    expect(moves.sort()).toEqual(
      [
        "active→reserved",
        "active→sold",
        "active→given_away",
        "reserved→active",
        "reserved→sold",
        "reserved→given_away",
        "sold→active",
        "given_away→active",
      ].sort(),
    );
    expect(OWNER_TRANSITIONS.traded).toEqual([]);
    expect(OWNER_TRANSITIONS.deleted).toEqual([]);
  });

  it("accepts only the seller's states on the status endpoint, with a Norwegian message", () => {
    for (const status of OWNER_STATUSES) expect(listingStatusSchema.parse({ status })).toEqual({ status });
    for (const status of ["deleted", "traded", "ACTIVE", "", 1]) {
      const result = listingStatusSchema.safeParse({ status });
      expect(result.success, String(status)).toBe(false);
      expect(result.error!.issues[0].message).toBe("Ugyldig status");
    }
  });

  it("calls active and reserved public, active alone listed, and nothing hidden either", () => {
    expect(PUBLIC_LISTING_STATUSES).toEqual(["active", "reserved"]);
    expect(LISTED_LISTING_STATUSES).toEqual(["active"]);
    for (const status of LISTING_STATUSES) {
      expect(isPublicListing({ status, is_hidden: false }), status).toBe(status === "active" || status === "reserved");
      expect(isListedListing({ status, is_hidden: false }), status).toBe(status === "active");
      expect(isPublicListing({ status, is_hidden: true }), status).toBe(false);
      expect(isListedListing({ status, is_hidden: true }), status).toBe(false);
    }
  });
});

describe("photo keys", () => {
  const owner = "3f2a9c1e-7b4d-4e2a-9c3b-1234567890ab";

  it("accepts the keys uploads get, under their owner", () => {
    expect(photoKeyOwner(`${owner}/1700000000000-a1b2c3d4e5f6.jpg`)).toBe(owner);
    expect(isOwnPhotoKey(owner, `${owner}/1700000000000-a1b2c3d4e5f6.webp`)).toBe(true);
    expect(isOwnPhotoKey("00000000-0000-4000-8000-000000000000", `${owner}/1.png`)).toBe(false);
  });

  it.each([
    "sitemaps/sitemap.xml",
    `${owner}/../x.jpg`,
    `${owner}/a/b.jpg`,
    `${owner}/.jpg`,
    `${owner}/x.jpg.txt`,
    `${owner}/x.JPG`,
    `${owner}/x.gif`,
    `${owner}/x%2F.jpg`,
    `${owner}\\x.jpg`,
    `${owner.toUpperCase()}/x.jpg`,
    `/${owner}/x.jpg`,
    `${owner}/${"a".repeat(101)}.jpg`,
    `${owner}/x.jpg\n`,
  ])("refuses %j", (key) => {
    expect(photoKeyOwner(key)).toBeNull();
  });
});
