// The first screen's data inside the page (docs/decisions/020-shell-preload.md): the shell the
// Worker serves for a page carries the answers to the API requests that page makes first, so the
// SPA renders them without a second round trip. Written as
//   <script id="preloaded-api" type="application/json">{"/api/home": {...}, "/api/config": {...}}</script>
// keyed by the exact API path (and query) the SPA would request; web/api/preloaded.ts hands each
// entry to the first query that asks for that path. The largest image of the first screen is
// preloaded with a <link rel="preload"> that names the same copy of the photo the page will choose
// (decision 123), so it is not loaded twice.
import { cardPhoto, screenPhoto } from "../../../domain/photos";
import { apiSearchQuery, parseFilters } from "../../../domain/searchUrl";
import { searchParamsSchema } from "../../../domain/schemas/search";
import { isBuildScript, PAGE_ROUTES, pageRouteOf, type PageRoute } from "../../../domain/routes";
import type { ListingCard } from "../../../domain/schemas/listing";
import type { Db } from "../../db/client";
import { isLocal, type Bindings } from "../../env";
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
  /** The photo the first screen shows largest (its LCP element), if any, and how the page shows it. */
  image?: PreloadImage;
  /** The page's own JavaScript (its lazily loaded route module and what that imports). */
  modules?: string[];
  /** What the page shows, for the edge cache's purge (when the preload read it). */
  tags?: string[];
}

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
  const route = pageRouteOf(url.pathname, { local: isLocal(env) });
  const name = route ? (PAGE_ROUTES[route] as PageRoute).module : undefined;
  if (!name) return [];
  const files = (await loadRouteChunks(env, url))[name];
  return Array.isArray(files) ? files.filter(isBuildScript) : [];
}

/** Data that is the same for every visitor, so the page stays one response for all. */
type PagePreloader = (db: Db, url: URL) => Promise<Preload>;

/** A listing photo shown on a card (home, search) or on the whole screen (a listing page). */
export interface PreloadImage {
  key: string;
  shownAs: "card" | "screen";
}

function firstImage(cards: readonly Pick<ListingCard, "images">[], shownAs: PreloadImage["shownAs"]): PreloadImage | undefined {
  const key = cards[0]?.images.find((k) => k.length > 0);
  return key ? { key, shownAs } : undefined;
}

/**
 * The preload of the copy the page's <img> will choose: the same srcset and sizes (domain/photos.ts
 * cardPhoto, screenPhoto). No href: a browser that does not know imagesrcset would load a copy the
 * page may not use.
 */
export function imagePreloadLink(image: PreloadImage): string {
  const photo = image.shownAs === "card" ? cardPhoto(image.key) : screenPhoto(image.key);
  return `<link rel="preload" as="image" imagesrcset="${escapeHtml(photo.srcSet)}" imagesizes="${escapeHtml(photo.sizes)}" fetchpriority="high">`;
}

/** The pages whose first screen is preloaded; every other page gets the site configuration only. */
const PRELOADERS: { pattern: RegExp; load: PagePreloader }[] = [
  {
    pattern: /^\/$/,
    load: async (db) => {
      const home = await homeSections(db);
      return { api: { "/api/home": home }, image: firstImage(home.newest, "card") };
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
      return { api: { [`/api/search?${query}`]: result }, image: firstImage(result.rows, "card") };
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
          image: firstImage([listing], "screen"),
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

/** A preload's parts of the page (shell-text.ts): the photo early in <head>, the JSON at its end, before the app's script runs. */
export function preloadWrites(preload: Preload): Required<Pick<ShellWrites, "headStart" | "headEnd">> {
  return {
    // Early in <head>, just after the viewport meta its sizes are read against: the browser starts on
    // the photo at once (the app's code follows the first paint, decision 112).
    headStart: preload.image ? imagePreloadLink(preload.image) : "",
    headEnd:
      // The page's own chunks, which the app loader asks for with the entry once the page has painted.
      (preload.modules?.length ? `<script id="page-modules" type="application/json">${jsonForScript(preload.modules)}</script>` : "") +
      `<script id="preloaded-api" type="application/json">${jsonForScript(preload.api)}</script>`,
  };
}
