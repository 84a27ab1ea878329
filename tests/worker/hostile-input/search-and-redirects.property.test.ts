// Hostile input through the Worker's real fetch (./rules.ts; docs/security.md; docs/decisions/061):
// any search query string, and redirect targets: sign-in's way back, ?next= and the like, and old
// listing slugs never send the browser off the site. Every answer holds the suite's three rules: no
// 5xx, a refusal is a 4xx with a Norwegian message, and a refusal changes nothing stored.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { safeReturnPath, signInPath } from "../../../domain/return-path";
import { createListing, type ListingRow } from "../../factories";
import { asVisitor, Client } from "../support/http";
import { stateChanges, storedState } from "../support/state";
import { judge, RUNS, text } from "./rules";

describe("search text, filters and sort", () => {
  const KEYS = [
    "q",
    "categories",
    "conditions",
    "ages",
    "min",
    "max",
    "free",
    "trade",
    "postal",
    "sort",
    "limit",
    "offset",
    "page",
    "category",
    "__proto__",
    "q[]",
  ];

  beforeAll(async () => {
    await createListing({ title: "Lego Duplo togbane" });
  });

  it("any query string: 200 or a Norwegian 4xx, never a 5xx, nothing stored", async () => {
    const before = await storedState();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...KEYS), text), { maxLength: 8 }), async (pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const status = await judge(await new Client().get(`/api/search?${query}`, asVisitor()));
        expect([200, 400]).toContain(status);
      }),
      RUNS,
    );
    expect(stateChanges(before, await storedState())).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------

// ------------------------------------------------------------------------------------------------

describe("redirect targets", () => {
  let listing: ListingRow;
  beforeAll(async () => {
    listing = await createListing({ title: "Brio tog" });
  });

  /** A Location the browser resolves to our own origin. */
  function sameSite(location: string): boolean {
    if (!location.startsWith("/") || location.startsWith("//") || location.startsWith("/\\")) return false;
    return new URL(location, "http://localhost").origin === "http://localhost";
  }

  const PATHS = ["/", "/auth", "/auth/callback", "/search", "/profile", "/payment-success", "/betaling-fullfort", "/lagrede-sok/avmeld"];

  it("sign-in's way back (/auth?next=, resolved in the browser) is a path on this site or nothing", () => {
    const prefix = fc.constantFrom(
      "",
      "/",
      "//",
      "/\\",
      "\\",
      "/\t/",
      "https:",
      "http://evil.example",
      "javascript:",
      "/%2F/",
      "/auth",
      "/./",
      "/..//",
    );
    fc.assert(
      fc.property(prefix, text, (start, rest) => {
        const next = safeReturnPath(start + rest);
        if (next !== null) {
          expect(sameSite(next), next).toBe(true);
          expect(new URL(next, "http://localhost").pathname, next).not.toMatch(/^\/auth(\/|$)/);
          // What the browser would resolve it to is itself: nothing left for it to reinterpret.
          expect(safeReturnPath(next)).toBe(next);
        }
        const auth = new URL(signInPath(start + rest), "http://localhost");
        expect(auth.pathname).toBe("/auth");
      }),
      { numRuns: 400 },
    );
    for (const hostile of [
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "/auth?next=//evil.example",
    ]) {
      expect(safeReturnPath(hostile), hostile).toBeNull();
    }
    expect(safeReturnPath("/listing/abc?handling=melding")).toBe("/listing/abc?handling=melding");
  });

  it("no page sends the browser off the site, whatever ?next=, ?redirect= or the slug say", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc
            .tuple(fc.constantFrom(...PATHS), fc.constantFrom("next", "redirect", "returnTo", "return_url", "url", "to"), text)
            .map(([path, key, value]) => `${path}?${new URLSearchParams({ [key]: value })}`),
          // Old-slug redirects: anything before the listing's id prefix.
          text.map((prefix) => `/annonse/${encodeURIComponent(prefix)}-${listing.id.slice(0, 6)}`),
          text.map((slug) => `/annonse/${encodeURIComponent(slug)}`),
        ),
        async (path) => {
          const res = await new Client().get(path, { redirect: "manual", headers: { Accept: "text/html" } });
          await judge(res);
          const location = res.headers.get("Location");
          if (res.status >= 300 && res.status < 400) expect(location !== null && sameSite(location), `${path} → ${location}`).toBe(true);
        },
      ),
      RUNS,
    );
  });
});

// ------------------------------------------------------------------------------------------------
