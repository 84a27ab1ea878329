// Visitors are served from the edge cache (docs/decisions/101-edge-cache.md). The page and API
// handlers stay as they are; this middleware answers an anonymous GET from `caches.default` when it
// can, stores what the handler answered when that is the same for every visitor, and labels each
// answer with what browsers and CDNs may do with it. purgeAfterWrites takes stored answers out when a
// request changes what they show.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { hasSessionCookie } from "../lib/cookies";
import {
  ALL_TAG,
  AS_OF_HEADER,
  LISTS_TAG,
  edgeCacheKey,
  listingAnswerTags,
  listingTag,
  purgeEdgeCache,
  storeAnswer,
  storedAnswer,
  userTag,
} from "../lib/edge-cache";
import { resolveSlug } from "../features/listings/listings";
import { IMAGE_CACHE_SECONDS } from "../../domain/limits";
import { PHOTO_VARIANTS } from "../../domain/photos";
import { VARIANT_CACHE_CONTROL } from "../lib/photo-variants";

/** `/images/{owner}/{photo}/{variant}`: a photo key has one slash, so no photo itself matches. */
const PHOTO_VARIANT_PATH = new RegExp(`^/images/[^/]+/[^/]+/(?:${PHOTO_VARIANTS.map((v) => v.name.replace(".", "\\.")).join("|")})$`);

/** Lists change with every new listing: a minute at most; what a visitor must see at once is purged. */
const LIST_SECONDS = 60;
/** One listing or profile: changes to it purge it, so it may stay longer. */
const DETAIL_SECONDS = 300;
/** The edge may answer from an entry this long past its s-maxage while it asks again (CDNs only). */
const STALE_SECONDS = 60;
/**
 * What a browser is told about a cached page or API answer: store it but ask again every time, so a
 * hidden listing never lives on in a browser (decision 050). Only CDN-Cache-Control carries s-maxage and
 * stale-while-revalidate: a browser honours stale-while-revalidate in Cache-Control too.
 */
const BROWSER_REVALIDATES = "public, no-cache";
export const SIGNED_IN = "private, no-store";

interface EdgeRoute {
  pattern: RegExp;
  /** A page (its key drops tracking parameters) or an API answer (keeps every parameter). */
  page: boolean;
  seconds: number;
  /** Cache-Control for browsers when not the default. */
  browser?: string;
  /** The stored answer's tags besides ALL_TAG, from the path's match (a D1 look-up on a miss only). */
  tags: (c: Context<AppEnv>, match: RegExpMatchArray) => Promise<string[]>;
  /**
   * The answer is the same for a signed-in reader: the handler marks an answer that depends on who
   * asks private (never stored), so a session is answered from the cache and its public answers
   * are stored. Only listing photos: every other route's answer changes with a session.
   */
  sameForSessions?: true;
}

const lists = async () => [LISTS_TAG];

/** A listing's own tag and its seller's: its page shows up to four more of the seller's listings and their rating. */
async function listingTags(c: Context<AppEnv>, id: string | null): Promise<string[]> {
  if (!id) return [];
  const row = await c.var.db.prepare("SELECT user_id FROM listings WHERE id = ?1").bind(id).first<{ user_id: string }>();
  return row ? listingAnswerTags({ id, user_id: row.user_id }) : [listingTag(id)];
}

/** The path's id or slug; a malformed escape is kept as written (the handler answered it already). */
function param(match: RegExpMatchArray): string {
  try {
    return decodeURIComponent(match[1] ?? "");
  } catch {
    return match[1] ?? "";
  }
}

/** The anonymous first screens (and the APIs they call) that are the same for every visitor. */
export const EDGE_ROUTES: EdgeRoute[] = [
  { pattern: /^\/$/, page: true, seconds: LIST_SECONDS, tags: lists },
  { pattern: /^\/search\/?$/, page: true, seconds: LIST_SECONDS, tags: lists },
  {
    pattern: /^\/annonse\/([^/]+)\/?$/,
    page: true,
    seconds: DETAIL_SECONDS,
    tags: async (c, m) => listingTags(c, await resolveSlug(c.var.db, param(m))),
  },
  { pattern: /^\/listing\/([^/]+)\/?$/, page: true, seconds: DETAIL_SECONDS, tags: (c, m) => listingTags(c, param(m)) },
  { pattern: /^\/bruker\/([^/]+)\/?$/, page: true, seconds: DETAIL_SECONDS, tags: async (_c, m) => [userTag(param(m))] },
  { pattern: /^\/api\/home\/?$/, page: false, seconds: LIST_SECONDS, tags: lists },
  { pattern: /^\/api\/search\/?$/, page: false, seconds: LIST_SECONDS, tags: lists },
  {
    pattern: /^\/api\/listings\/by-slug\/([^/]+)\/?$/,
    page: false,
    seconds: DETAIL_SECONDS,
    tags: async (c, m) => listingTags(c, await resolveSlug(c.var.db, param(m))),
  },
  { pattern: /^\/api\/listings\/([^/]+)\/?$/, page: false, seconds: DETAIL_SECONDS, tags: (c, m) => listingTags(c, param(m)) },
  { pattern: /^\/api\/users\/([^/]+)\/?$/, page: false, seconds: DETAIL_SECONDS, tags: async (_c, m) => [userTag(param(m))] },
  // The site configuration is a constant of the deployment: browsers keep it five minutes, as before.
  { pattern: /^\/api\/config\/?$/, page: false, seconds: 3600, browser: "public, max-age=300", tags: async () => [] },
  // A public photo's smaller copy (decision 123): stored and tagged as the photo is, but browsers keep
  // it a year without asking again, since its address never names other bytes.
  {
    pattern: PHOTO_VARIANT_PATH,
    page: false,
    seconds: IMAGE_CACHE_SECONDS,
    browser: VARIANT_CACHE_CONTROL,
    sameForSessions: true,
    tags: async () => [],
  },
  // A public listing photo (decision 007): without the cache every view asked D1 whether it may be
  // shown and read R2. Tagged by the handler with the listings that show it; a photo only some may
  // see is private and never stored. Browsers keep it an hour, as before.
  {
    pattern: /^\/images\/.+$/,
    page: false,
    seconds: IMAGE_CACHE_SECONDS,
    browser: `public, max-age=${IMAGE_CACHE_SECONDS}`,
    sameForSessions: true,
    tags: async () => [],
  },
];

/** An answer every visitor may get: a 200 without a cookie of its own that the handler did not call private. */
function sameForEveryone(res: Response): boolean {
  const cacheControl = res.headers.get("Cache-Control") ?? "";
  return (
    res.status === 200 &&
    !res.headers.has("Set-Cookie") &&
    !/\b(private|no-store)\b/i.test(cacheControl) &&
    res.headers.get("Vary")?.trim() !== "*"
  );
}

/**
 * A whole answer, fit to be kept for everyone: never empty, and a page is an HTML document to its
 * closing tag. The page handlers build pages from our own request for the shell, so this never refuses
 * one; it is the cache's own guard in case a page is ever built from an answer that is not the whole
 * shell (a 304 or a range answered to a visitor's headers, docs/security.md).
 */
function isWhole(route: EdgeRoute, res: Response, body: ArrayBuffer): boolean {
  if (body.byteLength === 0) return false;
  if (!route.page) return true;
  if (!/^text\/html\b/i.test(res.headers.get("Content-Type") ?? "")) return false;
  const end = new TextDecoder().decode(body.slice(Math.max(0, body.byteLength - 64)));
  return /<\/html>\s*$/i.test(end);
}

/** A strong validator of the stored bytes: the same answer has the same tag, a changed one a new tag. */
async function etagOf(body: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  return `"${[...digest.subarray(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

/** If-None-Match against the stored answer's ETag: any of its tags, compared weakly (RFC 9110 13.1.2). */
function matchesEtag(ifNoneMatch: string | undefined, etag: string | null): boolean {
  if (!ifNoneMatch || !etag) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

function publicHeaders(headers: Headers, route: EdgeRoute, status: "HIT" | "MISS"): Headers {
  const out = new Headers(headers);
  out.set("Cache-Control", route.browser ?? BROWSER_REVALIDATES);
  out.set("CDN-Cache-Control", `public, s-maxage=${route.seconds}, stale-while-revalidate=${STALE_SECONDS}`);
  out.delete("Cache-Tag");
  out.delete(AS_OF_HEADER);
  out.set("X-Edge-Cache", status);
  // The stored answer's D1 time says nothing about this one.
  if (status === "HIT") out.delete("Server-Timing");
  return out;
}

/**
 * On the whole app, after withDb. Any other answer without a Cache-Control of its own gets
 * `private, no-store` (privateByDefault, outside this middleware).
 */
export const edgeCache = createMiddleware<AppEnv>(async (c, next) => {
  const method = c.req.method;
  const url = new URL(c.req.url);
  const route = method === "GET" || method === "HEAD" ? EDGE_ROUTES.find((r) => r.pattern.test(url.pathname)) : undefined;
  if (!route) return next();
  if (c.env.EDGE_CACHE === "off") {
    await next();
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("Cache-Control", SIGNED_IN);
    c.res.headers.set("X-Edge-Cache", "OFF");
    return;
  }

  // A session may change the answer (an owner's hidden listing, a moderator's view): never from the
  // cache, never into it, and never kept by anyone else either.
  if (!route.sameForSessions && (hasSessionCookie(c) || c.req.header("Authorization") !== undefined)) {
    await next();
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("Cache-Control", SIGNED_IN);
    c.res.headers.set("X-Edge-Cache", "BYPASS");
    return;
  }

  const key = edgeCacheKey(url, { page: route.page, version: c.env.CF_VERSION_METADATA.id });
  // Before anything is read from D1: a purge at or after this makes what the handler answers stale.
  const asOf = Date.now();
  const hit = await storedAnswer(c.env, key);
  if (hit) {
    const headers = publicHeaders(hit.headers, route, "HIT");
    // What the browser has is this stored answer (its own ETag): no body.
    if (matchesEtag(c.req.header("If-None-Match"), hit.headers.get("ETag"))) {
      await hit.body?.cancel();
      return new Response(null, { status: 304, headers });
    }
    return new Response(method === "HEAD" ? null : hit.body, { status: hit.status, headers });
  }

  await next();
  const res = c.res;
  // A HEAD has no body to store; it is answered from a stored GET when there is one.
  if (method === "HEAD" || !sameForEveryone(res)) {
    c.res = new Response(res.body, res);
    c.res.headers.set("X-Edge-Cache", "BYPASS");
    return;
  }
  const match = url.pathname.match(route.pattern) as RegExpMatchArray;
  // The handler's own tags when it set them (it read the listing and its seller already), else a look-up.
  const tags = [ALL_TAG, ...(c.get("edgeTags") ?? (await route.tags(c, match)))];
  // Read once, answered and stored from the same bytes (the page is a rewritten stream).
  const body = await res.arrayBuffer();
  if (!isWhole(route, res, body)) {
    // Never kept for anyone: a broken answer reaches only the request that made it.
    console.error("Edge cache: an incomplete answer was not stored", url.pathname, res.headers.get("Content-Type"), body.byteLength);
    c.res = undefined;
    c.res = new Response(body, res);
    c.res.headers.set("Cache-Control", SIGNED_IN);
    c.res.headers.set("X-Edge-Cache", "BYPASS");
    return;
  }
  const stored = new Headers(res.headers);
  stored.set("Cache-Control", `public, s-maxage=${route.seconds}`);
  stored.set("Cache-Tag", tags.join(","));
  // The answer's own validator (a photo brings R2's): conditional requests are answered against it.
  if (!stored.has("ETag")) stored.set("ETag", await etagOf(body));
  // Stored before the answer goes out: the visitor's next request finds it.
  await storeAnswer(key, new Response(body, { status: 200, headers: stored }), asOf);
  const headers = publicHeaders(stored, route, "MISS");
  // Unset first: assigning over an answer copies the old answer's headers onto the new one.
  c.res = undefined;
  c.res = matchesEtag(c.req.header("If-None-Match"), stored.get("ETag"))
    ? new Response(null, { status: 304, headers })
    : new Response(body, { status: 200, headers });
});

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * API routers whose writes change no cached page or API answer by themselves: signing in, chat,
 * favourites (no count is shown), analytics, saved searches, uploads (a photo shows once the listing
 * is saved), newsletter, contact form, development tools; and the listings, trades, give-aways,
 * reports (which may hide a listing by themselves) and payments with their webhooks, whose writes
 * change what visitors see only through listings (a sale, a refund, a seller's payment account),
 * which their services purge (decision 116), as every service that changes a listing does, whatever
 * calls it. The others purge everything this Worker cached after a successful write: what they
 * change is more than listings (moderation of users and reviews, reviews, account changes). A new
 * router purges until it is named here.
 */
const WRITES_THAT_CHANGE_NO_PAGE =
  /^\/api\/(analytics|auth|conversations|favourites|saved-searches|images|newsletter|contact|dev|test-notifications|listings|trade-offers|giveaways|reports|payments)(\/|$)/;

/** Where the purge's repeat runs (decision 110): the request's context; none when the app is called without one. */
function laterIn(c: Context<AppEnv>): Pick<ExecutionContext, "waitUntil"> | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}

/** On /api before every router: the purge runs after the change and before its answer goes out. */
export const purgeAfterWrites = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (!MUTATING.has(c.req.method) || c.res.status >= 400) return;
  if (WRITES_THAT_CHANGE_NO_PAGE.test(new URL(c.req.url).pathname)) return;
  await purgeEdgeCache(c.env, [ALL_TAG], laterIn(c));
});
