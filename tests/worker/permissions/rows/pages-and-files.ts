// Permission-matrix rows (../run.ts): local mode's mail and statistics, crawlers' files, the API's own
// 404, the listing page and every page of the route table (PAGE_ROWS).
import { PAGE_ROUTE_IDS, PAGE_ROUTES, type PageRouteId } from "../../../../domain/routes";
import { type Row, all, s } from "../matrix";
import { sitemapInTwoFiles } from "../run";
import type { World } from "../world";

export const FILE_ROWS: Row[] = [
  // Local mode only (production answers 404: deploy-safety.integration.test.ts); the tests run local.
  { route: "GET /api/dev/mail", request: () => ({ path: "/api/dev/mail" }), expected: all(200) },
  { route: "GET /api/dev/mail.json", request: () => ({ path: "/api/dev/mail.json" }), expected: all(200) },
  { route: "GET /dev/mail", request: () => ({ path: "/dev/mail" }), expected: all(200) },
  { route: "GET /dev/mail.json", request: () => ({ path: "/dev/mail.json" }), expected: all(200) },
  { route: "GET /api/dev/analytics/summary", request: () => ({ path: "/api/dev/analytics/summary" }), expected: all(200) },
  { route: "GET /api/dev/d1-usage", request: () => ({ path: "/api/dev/d1-usage" }), expected: all(200) },
  // The sessions step: it only removes what has expired, whoever asks.
  { route: "POST /api/dev/cron/:step", request: () => ({ path: "/api/dev/cron/sessions", method: "POST", json: {} }), expected: all(200) },

  {
    route: "POST /api/dev/saved-searches/match",
    request: async (w) => ({ path: "/api/dev/saved-searches/match", method: "POST", json: { listingIds: [(await w.listing()).id] } }),
    expected: all(200),
  },

  // The API reference (worker/lib/openapi.ts), served in local mode only, as the tests run.
  { route: "GET /api/openapi.json", request: () => ({ path: "/api/openapi.json" }), expected: all(200) },

  // Crawlers' files and the API's own 404.
  { route: "GET /robots.txt", request: () => ({ path: "/robots.txt" }), expected: all(200) },
  { route: "GET /sitemap.xml", request: () => ({ path: "/sitemap.xml" }), expected: all(200) },
  {
    route: "GET /:file{sitemap-[0-9]+\\.xml}",
    // A moderator's decision drops the stored sitemap; write it again in two files, whatever ran before.
    request: async () => {
      await sitemapInTwoFiles();
      return { path: "/sitemap-1.xml" };
    },
    expected: all(200),
  },
  // No INDEXNOW_KEY in the tests: the key file does not exist.
  { route: "GET /:file{[A-Za-z0-9-]{8,128}\\.txt}", request: () => ({ path: "/abcdef123456.txt" }), expected: all(404) },
  { route: "ALL /api/*", variant: "an unknown API path", request: () => ({ path: "/api/finnes-ikke" }), expected: all(404) },
  {
    route: "GET /annonse/:slug",
    variant: "public listing",
    request: async (w) => ({ path: `/annonse/${(await w.listing()).seoSlug}` }),
    expected: all(200),
  },
  {
    route: "GET /annonse/:slug",
    variant: "hidden listing",
    request: async (w) => ({ path: `/annonse/${(await w.hiddenListing()).seoSlug}` }),
    expected: s(404, 404, 200, 200, 200, 200),
  },
  {
    route: "GET /*",
    variant: "an unknown page",
    request: () => ({ path: "/finnes-ikke", headers: { Accept: "text/html" } }),
    expected: all(404),
  },
  { route: "HEAD /*", request: () => ({ path: "/search", method: "HEAD" }), expected: all(200) },
];

/** A concrete path for a page pattern, with ids the owner really has where the page takes one. */
async function pagePath(id: PageRouteId, w: World): Promise<string> {
  const params: Record<string, () => Promise<string>> = {
    slug: async () => (await w.listing()).seoSlug,
    id: async () => (await w.listing()).id,
    listingId: async () => (await w.listing()).id,
    conversationId: async () => (await w.conversation()).id,
  };
  // The public profile's id is a user's: the owner's.
  if (id === "publicProfile") return PAGE_ROUTES[id].path.replace(":id", w.owner.id);
  let path: string = PAGE_ROUTES[id].path;
  for (const [, name] of path.matchAll(/:([A-Za-z]+)/g)) path = path.replace(`:${name}`, await params[name]());
  return path;
}

// Every page of the route table: the SPA shell with 200 for everyone (login-required pages ask the
// API, which enforces; the Worker's part is the real 404 for unknown paths and the listing page).
export const PAGE_ROWS: Row[] = PAGE_ROUTE_IDS.map((id) => ({
  route: `PAGE ${id}`,
  request: async (w) => ({ path: await pagePath(id, w), headers: { Accept: "text/html" } }),
  expected: all(200),
}));
PAGE_ROWS.push({
  route: "PAGE listingBySlug",
  variant: "hidden listing",
  request: async (w) => ({ path: `/annonse/${(await w.hiddenListing()).seoSlug}`, headers: { Accept: "text/html" } }),
  expected: s(404, 404, 200, 200, 200, 200),
});
PAGE_ROWS.push({
  route: "PAGE listingBySlug",
  variant: "trade: the deal's listing",
  request: async (w) => ({ path: `/annonse/${(await w.dealListing("trade")).seoSlug}`, headers: { Accept: "text/html" } }),
  expected: all(200),
});
