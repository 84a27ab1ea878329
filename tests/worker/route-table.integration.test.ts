// One route table (domain/routes.ts) drives the Worker's real 404s, robots.txt and the sitemap's open
// pages; the SPA router is built from it too (tests/web/route-table.test.tsx). These tests check that
// the Worker's three answers agree with the table for every route.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PAGE_ROUTE_IDS, PAGE_ROUTES, isKnownRoute, type PageRoute, type PageRouteId } from "../../domain/routes";
import { generateSitemap } from "../../worker/features/seo/sitemap";
import { createListing, createUser } from "../factories";
import { Client } from "./support/http";

/** A concrete path for a route pattern: every `:param` becomes a plausible segment. */
const samplePath = (id: PageRouteId) => PAGE_ROUTES[id].path.replace(/:[A-Za-z]+/g, "abc123");

/** Google's robots.txt rule: the longest matching prefix wins, Allow on a tie; `*` is any run. */
function crawlable(robots: string, path: string): boolean {
  let best: { length: number; allow: boolean } | null = null;
  for (const line of robots.split("\n")) {
    const match = /^(Allow|Disallow):\s*(\S+)/.exec(line);
    if (!match) continue;
    const [, kind, rule] = match;
    const re = new RegExp(
      `^${rule
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*")}`,
    );
    if (!re.test(path)) continue;
    const allow = kind === "Allow";
    if (!best || rule.length > best.length || (rule.length === best.length && allow)) best = { length: rule.length, allow };
  }
  return best?.allow ?? true;
}

describe("the Worker agrees with the route table", () => {
  // The two edge-rendered pages answer 404 for a parameter that names nothing; they have their own test below.
  it.each(PAGE_ROUTE_IDS.filter((id) => id !== "listingBySlug" && id !== "publicProfile"))("%s: the SPA shell with 200", async (id) => {
    const path = samplePath(id);
    // The tests run the Worker in local mode, where the local-only pages exist too.
    expect(isKnownRoute(path, { local: true })).toBe(true);
    const res = await new Client().get(path, { headers: { Accept: "text/html" } });
    expect(res.status, path).toBe(200);
    expect(await res.text()).toContain("data-test-shell");
  });

  it("listingBySlug: the edge-rendered page for a listing", async () => {
    const listing = await createListing();
    const res = await new Client().get(PAGE_ROUTES.listingBySlug.path.replace(":slug", listing.seoSlug));
    expect(res.status).toBe(200);
    await res.text();
  });

  it("publicProfile: the edge-rendered page for a user, a real 404 for an unknown one", async () => {
    const user = await createUser();
    const res = await new Client().get(PAGE_ROUTES.publicProfile.path.replace(":id", user.id));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("data-test-shell");
    const unknown = await new Client().get(samplePath("publicProfile"), { headers: { Accept: "text/html" } });
    expect(unknown.status).toBe(404);
    await unknown.text();
  });

  it.each(["/finnes-ikke", "/search/mer", "/annonse", "/auth/callback/x", "/profile/abc", "/chat"])(
    "%s is not a route: 404",
    async (path) => {
      expect(isKnownRoute(path)).toBe(false);
      const res = await new Client().get(path, { headers: { Accept: "text/html" } });
      expect(res.status).toBe(404);
      await res.text();
    },
  );

  it("local-only pages are not routes in production", () => {
    const localOnly = PAGE_ROUTE_IDS.filter((id) => (PAGE_ROUTES[id] as PageRoute).localOnly);
    expect(localOnly).toEqual(["testNotifications"]);
    for (const id of localOnly) expect(isKnownRoute(samplePath(id))).toBe(false);
    // The production answer itself (a 404 shell) is in conversations-api.integration.test.ts.
  });

  it("robots.txt lets crawlers reach exactly the indexed routes", async () => {
    const robots = await (await new Client().get("/robots.txt")).text();
    const wrong = PAGE_ROUTE_IDS.filter((id) => crawlable(robots, samplePath(id)) !== PAGE_ROUTES[id].indexed).map(
      (id) => `${samplePath(id)} (${PAGE_ROUTES[id].indexed ? "indexed, but disallowed" : "private, but allowed"})`,
    );
    expect(wrong, robots).toEqual([]);
    // The account pages the old hand-written list forgot.
    expect(crawlable(robots, "/my-listings")).toBe(false);
    expect(crawlable(robots, "/favoritter")).toBe(false);
  });

  it("the sitemap lists the indexed routes without parameters, and no other page", async () => {
    await generateSitemap(env, "https://lekebytte.no");
    const xml = await (await new Client().get("/sitemap.xml")).text();
    const locs = [...xml.matchAll(/<loc>https:\/\/lekebytte\.no([^<]*)<\/loc>/g)]
      .map((m) => m[1])
      .filter((p) => !p.startsWith("/annonse/"));
    const expected = PAGE_ROUTE_IDS.filter((id) => PAGE_ROUTES[id].indexed && !PAGE_ROUTES[id].path.includes(":")).map(
      (id) => PAGE_ROUTES[id].path,
    );
    expect(locs.sort()).toEqual(expected.sort());
    expect(expected).toEqual(expect.arrayContaining(["/", "/search", "/om-oss", "/kontakt", "/personvern"]));
  });
});
