// The first screen's data inside the page (docs/decisions/020-shell-preload.md): the shell the
// Worker serves for a page carries the answers to the API requests that page makes first, so the
// SPA renders them without a second round trip. Written as
//   <script id="preloaded-api" type="application/json">{"/api/home": {...}, "/api/config": {...}}</script>
// keyed by the exact API path (and query) the SPA would request; web/api/preloaded.ts hands each
// entry to the first query that asks for that path. The largest image of the first screen is
// preloaded with a <link rel="preload">.
import { apiSearchQuery, parseFilters } from "../../../domain/searchUrl";
import { searchParamsSchema } from "../../../domain/schemas/search";
import type { ListingCard } from "../../../domain/schemas/listing";
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { escapeHtml, jsonForScript } from "../../lib/html";
import { getListingDetail, homeSections } from "../listings/listings";
import { searchListings } from "../search/search";
import { siteConfig } from "./site-config";
import { listingAnswerTags } from "../../lib/edge-cache";
import type { ShellWrites } from "./shell-text";

export interface Preload {
  /** API path (with query) → the JSON that path answers for a visitor. */
  api: Record<string, unknown>;
  /** The image the first screen shows largest (its LCP element), if any. */
  image?: string;
  /** The page's own JavaScript (its lazily loaded route module and what that imports). */
  modules?: string[];
  /** What the page shows, for the edge cache's purge (when the preload read it). */
  tags?: string[];
}

/**
 * Which lazily loaded page module (web/router.tsx) renders a path. Only pages that people open
 * directly are listed; any other page loads its code as before, one round trip later.
 */
const PAGE_MODULES: [RegExp, string][] = [
  [/^\/$/, "HomePage"],
  [/^\/search\/?$/, "SearchPage"],
  [/^\/annonse\/[^/]+\/?$/, "SlugListingPage"],
  [/^\/listing\/[^/]+\/?$/, "ListingByIdPage"],
  [/^\/bruker\/[^/]+\/?$/, "PublicProfilePage"],
  [/^\/auth\/?$/, "AuthPage"],
  [/^\/auth\/callback\/?$/, "CallbackPage"],
  [/^\/om-oss\/?$/, "AboutPage"],
  [/^\/kontakt\/?$/, "ContactPage"],
  [/^\/personvern\/?$/, "PrivacyPage"],
  // Opened from saved-search alert e-mails.
  [/^\/lagrede-sok\/?$/, "SavedSearchesPage"],
  [/^\/lagrede-sok\/avmeld\/?$/, "UnsubscribePage"],
];

/** route-chunks.json from the client build (vite.config.ts), read once per isolate; {} when absent. */
let routeChunks: Promise<Record<string, string[]>> | undefined;

function loadRouteChunks(env: Bindings, url: URL): Promise<Record<string, string[]>> {
  routeChunks ??= env.ASSETS.fetch(new Request(new URL("/route-chunks.json", url)))
    .then(async (res) => (res.ok ? ((await res.json()) as Record<string, string[]>) : {}))
    .catch(() => ({}));
  return routeChunks;
}

/** The JavaScript files of the page at `url`, to preload with the entry. */
export async function pageModules(env: Bindings, url: URL): Promise<string[]> {
  const name = PAGE_MODULES.find(([pattern]) => pattern.test(url.pathname))?.[1];
  if (!name) return [];
  const files = (await loadRouteChunks(env, url))[name];
  return Array.isArray(files) ? files.filter((f) => typeof f === "string" && /^\/assets\/[\w.-]+\.js$/.test(f)) : [];
}

/** Data that is the same for every visitor, so the page stays one response for all. */
type PagePreloader = (db: Db, url: URL) => Promise<Preload>;

/** Where the image route serves a listing photo (the web's listingImageUrl). */
export function listingImagePath(key: string): string {
  return `/images/${key.split("/").map(encodeURIComponent).join("/")}`;
}

function firstImage(cards: readonly Pick<ListingCard, "images">[]): string | undefined {
  const key = cards[0]?.images.find((k) => k.length > 0);
  return key ? listingImagePath(key) : undefined;
}

/** The pages whose first screen is preloaded; every other page gets the site configuration only. */
const PRELOADERS: { pattern: RegExp; load: PagePreloader }[] = [
  {
    pattern: /^\/$/,
    load: async (db) => {
      const home = await homeSections(db);
      return { api: { "/api/home": home }, image: firstImage(home.newest) };
    },
  },
  {
    pattern: /^\/search\/?$/,
    load: async (db, url) => {
      // The same canonical query the SPA derives from the address (domain/searchUrl.ts).
      const query = apiSearchQuery(parseFilters(url.search));
      const params = searchParamsSchema.safeParse(Object.fromEntries(new URLSearchParams(query)));
      if (!params.success) return { api: {} };
      const result = await searchListings(db, params.data);
      return { api: { [`/api/search?${query}`]: result }, image: firstImage(result.rows) };
    },
  },
  {
    pattern: /^\/listing\/([^/]+)\/?$/,
    load: async (db, url) => {
      let id: string;
      try {
        id = decodeURIComponent(url.pathname.split("/")[2] ?? "");
      } catch {
        // A malformed escape (/listing/%E0%A4%A) is no listing's id: the page says so, not a 500.
        return { api: {} };
      }
      try {
        // The visitors' view (a finished deal's too, read only; the owner of a hidden one asks the API).
        const listing = await getListingDetail(db, id, null);
        return {
          api: { [`/api/listings/${encodeURIComponent(id)}`]: listing },
          image: firstImage([listing]),
          tags: listingAnswerTags(listing),
        };
      } catch (err) {
        if (err instanceof AppError) return { api: {} };
        throw err;
      }
    },
  },
];

/**
 * What the page at `url` gets inlined: its own first-screen data and the site configuration. `db` is
 * the request's D1 session, the same the API the page would otherwise call reads through
 * (docs/decisions/110-read-replicas.md).
 */
export async function preloadFor(env: Bindings, db: Db, url: URL, { pageData = true }: { pageData?: boolean } = {}): Promise<Preload> {
  const entry = pageData ? PRELOADERS.find((p) => p.pattern.test(url.pathname)) : undefined;
  const [page, modules] = await Promise.all([entry ? entry.load(db, url) : { api: {} }, pageModules(env, url)]);
  return { ...page, api: { ...page.api, "/api/config": siteConfig(env) }, modules };
}

/** A preload's parts of the page (shell-text.ts): the photo first in <head>, the JSON at its end, before the app's script runs. */
export function preloadWrites(preload: Preload): Required<Pick<ShellWrites, "headStart" | "headEnd">> {
  return {
    // First in <head>: the browser starts on the photo at once (the app's code follows the first paint, decision 112).
    headStart: preload.image ? `<link rel="preload" as="image" href="${escapeHtml(preload.image)}" fetchpriority="high">` : "",
    headEnd:
      // The page's own chunks, which the app loader asks for with the entry once the page has painted.
      (preload.modules?.length ? `<script id="page-modules" type="application/json">${jsonForScript(preload.modules)}</script>` : "") +
      `<script id="preloaded-api" type="application/json">${jsonForScript(preload.api)}</script>`,
  };
}
