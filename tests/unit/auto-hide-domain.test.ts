// Who counts towards auto-hiding a listing (domain/auto-hide.ts; docs/decisions/082): only
// established reporters in good standing, one person once however many accounts, addresses in one
// block or plus-addresses they use, nobody whose reports on the listing a moderator already
// found unfounded, and more of them for a seller with completed deals.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AUTO_HIDE_MIN_ACCOUNT_AGE_DAYS,
  AUTO_HIDE_REPORTERS,
  AUTO_HIDE_REPORTERS_TRUSTED_SELLER,
  autoHideThreshold,
  countIndependentReporters,
  isEstablishedReporter,
  normaliseEmail,
  shouldAutoHide,
  type ReporterEvidence,
} from "../../domain/auto-hide";

const NOW = "2026-11-25T12:00:00.000Z";
const DAY = 86_400_000;
const daysAgo = (d: number) => new Date(Date.parse(NOW) - d * DAY).toISOString();

let n = 0;
/** An established reporter in good standing on a network and with an e-mail of their own. */
function reporter(over: Partial<ReporterEvidence> = {}): ReporterEvidence {
  n += 1;
  return {
    reportId: `r${n}`,
    reporterId: `u${n}`,
    network: `net${n}`,
    email: `person${n}@example.no`,
    emailConfirmedAt: daysAgo(30),
    accountCreatedAt: daysAgo(30),
    completedDeals: 0,
    suspendedUntil: null,
    deleted: false,
    ...over,
  };
}

describe("normaliseEmail", () => {
  it.each([
    ["Ola@Example.no", "ola@example.no"],
    ["ola+1@example.no", "ola@example.no"],
    ["ola+spam+more@example.no", "ola@example.no"],
    ["o.la@example.no", "o.la@example.no"],
    ["o.la+x@gmail.com", "ola@gmail.com"],
    ["O.L.A@GoogleMail.com", "ola@gmail.com"],
    ["  ola@example.no ", "ola@example.no"],
    ["+x@example.no", "+x@example.no"],
    ["no-at-sign", "no-at-sign"],
  ])("%s → %s", (raw, key) => {
    expect(normaliseEmail(raw)).toBe(key);
  });
});

describe("isEstablishedReporter", () => {
  const cases: [string, Partial<ReporterEvidence>, boolean][] = [
    ["confirmed, 30 days old", {}, true],
    ["exactly the minimum age", { accountCreatedAt: daysAgo(AUTO_HIDE_MIN_ACCOUNT_AGE_DAYS) }, true],
    [
      "a minute short of the minimum age",
      { accountCreatedAt: new Date(Date.parse(daysAgo(AUTO_HIDE_MIN_ACCOUNT_AGE_DAYS)) + 60_000).toISOString() },
      false,
    ],
    ["made two seconds ago", { accountCreatedAt: NOW, emailConfirmedAt: NOW }, false],
    ["new but with a completed deal", { accountCreatedAt: daysAgo(1), completedDeals: 1 }, true],
    ["old but never confirmed", { emailConfirmedAt: null }, false],
    ["new, unconfirmed, with a deal", { accountCreatedAt: daysAgo(1), emailConfirmedAt: null, completedDeals: 2 }, false],
    ["suspended until tomorrow", { suspendedUntil: daysAgo(-1) }, false],
    ["suspended until a minute from now", { suspendedUntil: new Date(Date.parse(NOW) + 60_000).toISOString() }, false],
    ["a suspension that ended yesterday", { suspendedUntil: daysAgo(1) }, true],
    ["deleted account", { deleted: true }, false],
    ["reporter gone (account deleted, id set null)", { reporterId: null }, false],
    ["no creation time known", { accountCreatedAt: null }, false],
  ];
  it.each(cases)("%s → %s", (_name, over, expected) => {
    expect(isEstablishedReporter(reporter(over), NOW)).toBe(expected);
  });
});

describe("countIndependentReporters", () => {
  it("three established people on their own networks count three", () => {
    expect(countIndependentReporters([reporter(), reporter(), reporter()], [], NOW)).toBe(3);
  });

  it("fresh, unconfirmed, suspended and deleted reporters do not count", () => {
    const open = [
      reporter(),
      reporter({ accountCreatedAt: daysAgo(0) }),
      reporter({ emailConfirmedAt: null }),
      reporter({ suspendedUntil: daysAgo(-3) }),
      reporter({ deleted: true }),
    ];
    expect(countIndependentReporters(open, [], NOW)).toBe(1);
  });

  it("accounts on one network count once", () => {
    const open = [reporter({ network: "same" }), reporter({ network: "same" }), reporter({ network: "same" })];
    expect(countIndependentReporters(open, [], NOW)).toBe(1);
  });

  it("plus-addresses and letter case of one mailbox count once", () => {
    const open = [
      reporter({ email: "kari@example.no" }),
      reporter({ email: "Kari+1@example.no" }),
      reporter({ email: "kari+2@EXAMPLE.no" }),
    ];
    expect(countIndependentReporters(open, [], NOW)).toBe(1);
  });

  it("Gmail's dots are one mailbox; other providers' dots are not", () => {
    expect(countIndependentReporters([reporter({ email: "kari.n@gmail.com" }), reporter({ email: "karin@gmail.com" })], [], NOW)).toBe(1);
    expect(countIndependentReporters([reporter({ email: "kari.n@example.no" }), reporter({ email: "karin@example.no" })], [], NOW)).toBe(2);
  });

  it("links chain: A shares a network with B, B a mailbox with C — one person", () => {
    const open = [
      reporter({ network: "n-ab", email: "a@example.no" }),
      reporter({ network: "n-ab", email: "bc@example.no" }),
      reporter({ network: "n-c", email: "bc+x@example.no" }),
      reporter(),
    ];
    expect(countIndependentReporters(open, [], NOW)).toBe(2);
  });

  it("the same reporter twice (two open reports) counts once", () => {
    const a = reporter();
    expect(countIndependentReporters([a, { ...a, reportId: "again" }, reporter()], [], NOW)).toBe(2);
  });

  it("a network nobody knows (reports filed before networks were kept) links nobody", () => {
    expect(
      countIndependentReporters([reporter({ network: null }), reporter({ network: null }), reporter({ network: null })], [], NOW),
    ).toBe(3);
  });

  it("an ineligible account does not link two eligible ones", () => {
    const open = [
      reporter({ network: "x" }),
      reporter({ network: "x", email: "y@example.no", accountCreatedAt: daysAgo(0) }),
      reporter({ email: "y@example.no" }),
    ];
    expect(countIndependentReporters(open, [], NOW)).toBe(2);
  });

  it("reporters whose reports on the listing were dismissed no longer count, nor their network or mailbox", () => {
    const [a, b, c, d] = [reporter(), reporter(), reporter(), reporter()];
    const dismissed = [a, b, c].map((r) => ({ reporterId: r.reporterId, network: r.network, email: r.email }));
    expect(countIndependentReporters([a, b, c, d], dismissed, NOW)).toBe(1);
    const sameNetwork = reporter({ network: a.network });
    const sameMailbox = reporter({ email: b.email!.replace("@", "+ny@") });
    expect(countIndependentReporters([sameNetwork, sameMailbox, d], dismissed, NOW)).toBe(1);
  });

  it("a dismissed report with no network or reporter left matches nothing by those", () => {
    const dismissed = [{ reporterId: null, network: null, email: null }];
    expect(countIndependentReporters([reporter({ network: null }), reporter()], dismissed, NOW)).toBe(2);
  });

  it("is the number of groups whatever the order of the reports", () => {
    const pool = [
      reporter({ network: "p" }),
      reporter({ network: "p" }),
      reporter({ email: "q@example.no" }),
      reporter({ email: "Q+2@example.no" }),
      reporter(),
      reporter({ accountCreatedAt: daysAgo(1) }),
    ];
    fc.assert(
      fc.property(fc.shuffledSubarray(pool, { minLength: pool.length, maxLength: pool.length }), (shuffled) => {
        expect(countIndependentReporters(shuffled, [], NOW)).toBe(3);
      }),
    );
  });

  it("counts at most the distinct eligible reporters, at least one if there is any, and ignores ineligible reports entirely", () => {
    const arb = fc.record({
      reporterId: fc.constantFrom("u1", "u2", "u3", "u4", "u5"),
      network: fc.constantFrom("n1", "n2", "n3", null),
      email: fc.constantFrom("a@x.no", "a+1@x.no", "b@x.no", "c@x.no", "d@x.no"),
      age: fc.integer({ min: 0, max: 40 }),
      deals: fc.integer({ min: 0, max: 2 }),
      suspended: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(arb, { maxLength: 8 }), (rows) => {
        const toEvidence = (r: (typeof rows)[number], i: number): ReporterEvidence =>
          reporter({
            reportId: `x${i}`,
            reporterId: r.reporterId,
            network: r.network,
            email: r.email,
            accountCreatedAt: daysAgo(r.age),
            completedDeals: r.deals,
            suspendedUntil: r.suspended ? daysAgo(-1) : null,
          });
        const open = rows.map(toEvidence);
        const count = countIndependentReporters(open, [], NOW);
        const eligible = open.filter((r) => isEstablishedReporter(r, NOW));
        expect(count).toBeLessThanOrEqual(new Set(eligible.map((r) => r.reporterId)).size);
        expect(count >= 1).toBe(eligible.length > 0);
        expect(countIndependentReporters(eligible, [], NOW)).toBe(count);
      }),
    );
  });
});

describe("autoHideThreshold and shouldAutoHide", () => {
  it("a seller without completed deals needs three, one with completed deals needs more", () => {
    expect(autoHideThreshold(0)).toBe(AUTO_HIDE_REPORTERS);
    expect(AUTO_HIDE_REPORTERS).toBe(3);
    expect(autoHideThreshold(1)).toBe(AUTO_HIDE_REPORTERS_TRUSTED_SELLER);
    expect(autoHideThreshold(40)).toBe(AUTO_HIDE_REPORTERS_TRUSTED_SELLER);
    expect(AUTO_HIDE_REPORTERS_TRUSTED_SELLER).toBeGreaterThan(AUTO_HIDE_REPORTERS);
  });

  it("hides at the threshold, not below it", () => {
    const three = [reporter(), reporter(), reporter()];
    expect(shouldAutoHide({ open: three.slice(0, 2), dismissed: [], sellerCompletedDeals: 0, now: NOW })).toBe(false);
    expect(shouldAutoHide({ open: three, dismissed: [], sellerCompletedDeals: 0, now: NOW })).toBe(true);
    expect(shouldAutoHide({ open: three, dismissed: [], sellerCompletedDeals: 1, now: NOW })).toBe(false);
    const five = [...three, reporter(), reporter()];
    expect(shouldAutoHide({ open: five, dismissed: [], sellerCompletedDeals: 3, now: NOW })).toBe(true);
  });

  it("three fresh accounts from one address never hide anything", () => {
    const fresh = (i: number) => reporter({ network: "one", email: `a+${i}@example.no`, accountCreatedAt: NOW, emailConfirmedAt: NOW });
    expect(shouldAutoHide({ open: [fresh(1), fresh(2), fresh(3)], dismissed: [], sellerCompletedDeals: 0, now: NOW })).toBe(false);
  });
});
