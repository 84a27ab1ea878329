// domain/format.ts writes numbers, dates and times by hand (a first Intl formatter costs a phone
// 20–75 ms of blocked main thread): here every one of them is held to Intl's own text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatDate,
  formatDateTime,
  formatMinorUnits,
  formatNumber,
  formatPrice,
  formatTime,
  osloDay,
  osloHour,
} from "../../domain/format";

const TZ = "Europe/Oslo";
const intlNumber = (n: number, min: number, max: number) =>
  new Intl.NumberFormat("nb-NO", { minimumFractionDigits: min, maximumFractionDigits: max }).format(n);
const intlDate = new Intl.DateTimeFormat("nb-NO", { day: "numeric", month: "long", year: "numeric", timeZone: TZ });
const intlDateTime = new Intl.DateTimeFormat("nb-NO", {
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: TZ,
});
const intlTime = new Intl.DateTimeFormat("nb-NO", { hour: "2-digit", minute: "2-digit", timeZone: TZ });
const intlDay = new Intl.DateTimeFormat("en-CA", { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit" });
const intlHour = new Intl.DateTimeFormat("en-GB", { timeZone: TZ, hour: "2-digit", hourCycle: "h23" });

const FRACTIONS: [number, number][] = [
  [0, 0],
  [0, 3],
  [1, 1],
  [2, 2],
];

describe("formatNumber writes what Intl nb-NO writes", () => {
  it.each([
    [1250, "1\u00a0250"],
    [-5, "\u22125"],
    [1234567.891, "1\u00a0234\u00a0567,891"],
    [0.1 + 0.2, "0,3"],
    [1e21, "1\u00a0000\u00a0000\u00a0000\u00a0000\u00a0000\u00a0000\u00a0000"],
    [1.5e-7, "0"],
    [Number.NaN, "NaN"],
    [Number.NEGATIVE_INFINITY, "\u2212∞"],
  ])("%d → %s", (n, text) => expect(formatNumber(n)).toBe(text));

  it("rounds half away from zero on the shortest decimal form (2.5 → 3, 1.05 → 1,1, 12.345 → 12,35)", () => {
    expect(formatNumber(2.5, 0, 0)).toBe("3");
    expect(formatNumber(-2.5, 0, 0)).toBe("\u22123");
    expect(formatNumber(1.05, 1, 1)).toBe("1,1");
    expect(formatNumber(12.345, 2, 2)).toBe("12,35");
    expect(formatNumber(9.995, 2, 2)).toBe("10,00");
  });

  for (const [min, max] of FRACTIONS) {
    it(`any double, ${min}–${max} fraction digits`, () => {
      fc.assert(
        fc.property(fc.double(), (n) => formatNumber(n, min, max) === intlNumber(n, min, max)),
        { numRuns: 3000 },
      );
    });
    it(`any integer and any price with øre, ${min}–${max} fraction digits`, () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.integer({ min: -2e9, max: 2e9 }),
            fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 100),
          ),
          (n) => {
            return formatNumber(n, min, max) === intlNumber(n, min, max);
          },
        ),
        { numRuns: 3000 },
      );
    });
  }

  it("prices and minor units", () => {
    expect(formatPrice(1250, false)).toBe("1\u00a0250 kr");
    expect(formatMinorUnits(125050)).toBe("1\u00a0250,50 kr");
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e9 }), (ore) => formatMinorUnits(ore) === `${intlNumber(ore / 100, 2, 2)} kr`));
  });
});

describe("Oslo's wall clock without Intl", () => {
  // Instants around every summer-time change from 1996, when Norway took the EU rule.
  const changes: Date[] = [];
  for (let year = 1996; year <= 2200; year++)
    for (const month of [2, 9]) {
      const last = new Date(Date.UTC(year, month + 1, 0, 1));
      const change = last.getTime() - last.getUTCDay() * 86_400_000;
      for (const delta of [-3_600_001, -60_001, -1, 0, 1, 59_999, 3_599_999, 3_600_000]) changes.push(new Date(change + delta));
    }

  const same = (d: Date) => {
    expect(formatDate(d)).toBe(intlDate.format(d));
    expect(formatDateTime(d)).toBe(intlDateTime.format(d));
    expect(formatTime(d)).toBe(intlTime.format(d));
    expect(osloDay(d)).toBe(intlDay.format(d));
    expect(osloHour(d)).toBe(Number(intlHour.format(d)));
  };

  it("matches Intl at every summer-time change, a millisecond and an hour either side", () => {
    for (const d of changes) same(d);
  });

  it("matches Intl at any instant 1996–2500", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("1996-01-01T00:00:00Z"), max: new Date("2500-12-31T23:59:59Z"), noInvalidDate: true }), (d) => {
        same(d);
      }),
      { numRuns: 5000 },
    );
  });

  it("an invalid date still throws as Intl does", () => {
    expect(() => formatDate(new Date("nonsense"))).toThrow(RangeError);
  });
});
