// The edge cache for visitors (docs/decisions/101-edge-cache.md): the keys the Worker stores its
// anonymous page and API answers under in `caches.default`, the tags they carry, and the purge that
// takes them out again when something a visitor must see at once has changed.
import type { Bindings } from "../env";
import { isLocal } from "../env";

/** Every stored answer carries this tag: "purge everything we cached", never the static assets. */
export const ALL_TAG = "lb-all";
/** Home and search (pages and APIs): any listing may be on any of them. */
export const LISTS_TAG = "lb-listings";
export const listingTag = (id: string) => `lb-listing-${id}`;
export const userTag = (id: string) => `lb-user-${id}`;
/** What an answer about one listing shows: the listing, and its seller (more of their listings, their rating). */
export const listingAnswerTags = (listing: { id: string; user_id: string }) => [listingTag(listing.id), userTag(listing.user_id)];

/**
 * Parameters that ad and mail links append and no page reads (the SPA reads them from the address
 * bar, never from the HTML): dropped from a page's key so one campaign does not split the cache.
 * API keys keep every parameter: an unknown one may be a validation error there.
 */
const TRACKING_PARAMS = /^(utm_[a-z_]+|fbclid|gclid|gbraid|wbraid|dclid|msclkid|mc_cid|mc_eid|_ga|_gl)$/i;

/**
 * The key an answer is stored under: the URL with its query parameters sorted by name (a stable
 * sort, so repeated parameters keep their order) and encoded one way, so `?q=lego&sort=new` and
 * `?sort=new&q=lego` are one entry; pages also drop tracking parameters. Never the request's
 * headers: the key is the same for every visitor. A page's key also carries the deployed version
 * (`version`, the Worker version's id): its HTML names the build's hashed scripts, which the next
 * deploy replaces, so a page stored before a deploy is never served after it.
 */
export function edgeCacheKey(url: URL, { page, version }: { page: boolean; version: string }): Request {
  const params = new URLSearchParams(url.search);
  if (page) for (const name of [...new Set(params.keys())]) if (TRACKING_PARAMS.test(name)) params.delete(name);
  params.sort();
  const query = params.toString();
  const path = page ? `/__version/${encodeURIComponent(version)}${url.pathname}` : url.pathname;
  return new Request(`${url.origin}${path}${query ? `?${query}` : ""}`, { method: "GET" });
}

// ---- Purge marks ------------------------------------------------------------------------------------
// `cache.delete` takes one exact key and reaches only this data centre, and the Cache API cannot list
// its keys. So without Cloudflare's purge API (locally, in the tests, or a deployment without the
// token) a purge writes a mark per tag — when it happened — into the same cache (under APP_ORIGIN, so
// requests on any host and the cron find it), and a stored answer is served only while none of its
// tags was purged after the data it shows was read. Blind writes and reads, nothing to serialise: an
// earlier index of keys per tag was read-modify-write and chained concurrent requests on one promise,
// which workerd cancels when the requests are separate (a visitor got a 500). With the purge API,
// tags in Cache-Tag reach every data centre and the marks are not read.

/**
 * How long a mark is kept: at least as long as any answer is stored (an hour: the config and the
 * photos). A mark is written after the answers it outdates, so it outlives them.
 */
const MARK_TTL_SECONDS = 3600;
/**
 * The newest mark this isolate has written or read, per tag. Two purges of one tag at once write
 * their marks in either order, so the later purge's mark could be overwritten by the earlier one's
 * (an e2e run served a listing still hidden after the moderator showed it again). Plain numbers, no
 * promise shared between requests: a purge writes the newest it knows, and a reader takes the newer
 * of the stored mark and this one. Between isolates an overwritten mark is bounded by the answer's
 * s-maxage, as before.
 */
const newestMark = new Map<string, number>();

function noteMark(tag: string, at: number): number {
  const newest = Math.max(newestMark.get(tag) ?? 0, at);
  newestMark.set(tag, newest);
  return newest;
}
/** When the stored answer's data was read (epoch ms): the request's start, before it asked D1. */
export const AS_OF_HEADER = "X-Edge-As-Of";

function hasPurgeApi(env: Bindings): boolean {
  return Boolean(env.CACHE_PURGE_ZONE_ID && env.CACHE_PURGE_TOKEN);
}

function markKey(env: Bindings, tag: string): Request {
  return new Request(`${env.APP_ORIGIN.replace(/\/$/, "")}/__edge-cache/purged/${encodeURIComponent(tag)}`, { method: "GET" });
}

async function purgedAt(cache: Cache, env: Bindings, tag: string): Promise<number> {
  const hit = await cache.match(markKey(env, tag));
  const at = hit ? Number(await hit.text()) : 0;
  return noteMark(tag, Number.isFinite(at) ? at : 0);
}

/**
 * Store an answer (its headers say for how long and carry its Cache-Tag) with the time its data was
 * read, `asOf`: a purge of one of its tags at or after that time makes it stale.
 */
export async function storeAnswer(key: Request, response: Response, asOf: number): Promise<void> {
  const stored = new Response(response.body, response);
  stored.headers.set(AS_OF_HEADER, String(asOf));
  await caches.default.put(key, stored);
}

/**
 * The stored answer for `key`, unless a purge of one of its tags came at or after its data was read
 * (then it is deleted here and the caller asks the handler). With the purge API a purge has already
 * removed it everywhere, so no mark is read.
 */
export async function storedAnswer(env: Bindings, key: Request): Promise<Response | undefined> {
  const cache = caches.default;
  const hit = await cache.match(key);
  if (!hit || hasPurgeApi(env)) return hit;
  const asOf = Number(hit.headers.get(AS_OF_HEADER));
  const tags = (hit.headers.get("Cache-Tag") ?? "").split(",").filter(Boolean);
  const marks = await Promise.all(tags.map((tag) => purgedAt(cache, env, tag)));
  if (Number.isFinite(asOf) && marks.every((at) => at < asOf)) return hit;
  await hit.body?.cancel();
  await cache.delete(key);
  return undefined;
}

async function purgeLocally(env: Bindings, tags: string[]): Promise<void> {
  const cache = caches.default;
  const now = Date.now();
  await Promise.all(
    tags.map((tag) =>
      cache.put(
        markKey(env, tag),
        new Response(String(noteMark(tag, now)), { headers: { "Cache-Control": `public, s-maxage=${MARK_TTL_SECONDS}` } }),
      ),
    ),
  );
}

/** Cloudflare's purge API takes at most 100 tags per request. */
const TAGS_PER_PURGE = 100;

/** Purge by tag in every data centre (the zone's cache holds what `cache.put` stored, Cache-Tag included). */
async function purgeEverywhere(env: Bindings, tags: string[]): Promise<void> {
  const zone = env.CACHE_PURGE_ZONE_ID;
  const token = env.CACHE_PURGE_TOKEN;
  if (!zone || !token) {
    if (!isLocal(env))
      console.error(
        "Edge cache purge reached only this data centre: set CACHE_PURGE_ZONE_ID and CACHE_PURGE_TOKEN (docs/deploy.md); elsewhere the old answer lives until its s-maxage ends.",
        tags.slice(0, 5),
      );
    return;
  }
  for (let i = 0; i < tags.length; i += TAGS_PER_PURGE) {
    const res = await fetch(`https://api.cloudflare.com/client/v4/zones/${encodeURIComponent(zone)}/purge_cache`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ tags: tags.slice(i, i + TAGS_PER_PURGE) }),
    });
    if (!res.ok) console.error("Edge cache purge failed", res.status, await res.text().catch(() => ""));
    else await res.body?.cancel();
  }
}

/**
 * How long after a purge it is repeated where the database has read replicas (production). A visitor's
 * miss right after the change may read a replica that has not applied it yet and store the old answer
 * again (for the route's s-maxage, up to five minutes); replicas normally apply a change well under a
 * second after the primary (decision 110), so a second purge this much later takes out what such a
 * miss stored.
 */
export const REPLICA_LAG_ALLOWANCE_MS = 5_000;

/**
 * Take every stored answer with one of these tags out of the edge cache: in every data centre through
 * Cloudflare's purge API when it is configured, and by a mark here (read only without the API). Awaited by the
 * request that made the change, so its answer comes after the purge; a failure is logged, never
 * undoes the change (the answer then lives until its s-maxage runs out). Given the request's
 * execution context, the purge is repeated after the replicas' lag (outside local mode, which has none).
 */
export async function purgeEdgeCache(env: Bindings, tags: string[], afterReplicaLag?: Pick<ExecutionContext, "waitUntil">): Promise<void> {
  const unique = [...new Set(tags)];
  if (!unique.length) return;
  await purgeNow(env, unique);
  if (afterReplicaLag && !isLocal(env))
    afterReplicaLag.waitUntil(new Promise((resolve) => setTimeout(resolve, REPLICA_LAG_ALLOWANCE_MS)).then(() => purgeNow(env, unique)));
}

async function purgeNow(env: Bindings, tags: string[]): Promise<void> {
  try {
    await Promise.all([purgeLocally(env, tags), purgeEverywhere(env, tags)]);
  } catch (error) {
    console.error("Edge cache purge failed", tags.slice(0, 5), error);
  }
}
