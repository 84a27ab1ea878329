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
 * headers: the key is the same for every visitor.
 */
export function edgeCacheKey(url: URL, { page }: { page: boolean }): Request {
  const params = new URLSearchParams(url.search);
  if (page) for (const name of [...new Set(params.keys())]) if (TRACKING_PARAMS.test(name)) params.delete(name);
  params.sort();
  const query = params.toString();
  return new Request(`${url.origin}${url.pathname}${query ? `?${query}` : ""}`, { method: "GET" });
}

// ---- The local tag index -------------------------------------------------------------------------
// `cache.delete` takes one exact key and reaches only this data centre, and the Cache API cannot list
// its keys. So without Cloudflare's purge API (locally, in the tests, or a deployment without the
// token) the Worker writes each stored answer's key into one index entry per tag (in the same cache,
// under APP_ORIGIN, so requests on any host and the cron find it); a purge deletes every key its tags
// list. With the purge API, tags in Cache-Tag reach every data centre and no index is kept.

/** How long an index entry itself is kept: longer than any answer is stored. */
const INDEX_TTL_SECONDS = 3600;
/** An index lists at most this many keys (the newest); only answers still stored are listed. */
const INDEX_MAX_KEYS = 2000;

function hasPurgeApi(env: Bindings): boolean {
  return Boolean(env.CACHE_PURGE_ZONE_ID && env.CACHE_PURGE_TOKEN);
}

function indexKey(env: Bindings, tag: string): Request {
  return new Request(`${env.APP_ORIGIN.replace(/\/$/, "")}/__edge-cache/tags/${encodeURIComponent(tag)}`, { method: "GET" });
}

interface IndexEntry {
  key: string;
  /** When the answer's s-maxage ends (epoch ms): after that the key is dropped from the index. */
  until: number;
}

async function readIndex(cache: Cache, env: Bindings, tag: string): Promise<IndexEntry[]> {
  const hit = await cache.match(indexKey(env, tag));
  if (!hit) return [];
  try {
    const entries = (await hit.json()) as IndexEntry[];
    return Array.isArray(entries) ? entries : [];
  } catch {
    return [];
  }
}

function writeIndex(cache: Cache, env: Bindings, tag: string, entries: IndexEntry[]): Promise<void> {
  return cache.put(
    indexKey(env, tag),
    new Response(JSON.stringify(entries), {
      headers: { "Content-Type": "application/json", "Cache-Control": `public, s-maxage=${INDEX_TTL_SECONDS}` },
    }),
  );
}

/**
 * Index updates are read-modify-write; within one isolate they run one after another so two answers
 * stored at once do not drop each other's key. (Between isolates a key can still be lost; that answer
 * then lives until its s-maxage runs out, and production's tag purge does not depend on the index.)
 */
let indexQueue: Promise<unknown> = Promise.resolve();
function serialised<T>(task: () => Promise<T>): Promise<T> {
  const run = indexQueue.then(task, task);
  indexQueue = run.catch(() => undefined);
  return run;
}

/**
 * Store an answer (its headers say for how long: `seconds`, and its Cache-Tag) and, without the purge
 * API, list its key under each of its tags.
 */
export async function storeAnswer(env: Bindings, key: Request, response: Response, tags: string[], seconds: number): Promise<void> {
  const cache = caches.default;
  await cache.put(key, response);
  if (hasPurgeApi(env)) return;
  const now = Date.now();
  await serialised(async () => {
    for (const tag of tags) {
      const live = (await readIndex(cache, env, tag)).filter((e) => e.key !== key.url && e.until > now);
      live.push({ key: key.url, until: now + seconds * 1000 });
      await writeIndex(cache, env, tag, live.slice(-INDEX_MAX_KEYS));
    }
  });
}

async function purgeLocally(env: Bindings, tags: string[]): Promise<void> {
  const cache = caches.default;
  await serialised(async () => {
    for (const tag of tags) {
      const entries = await readIndex(cache, env, tag);
      await Promise.all(entries.map((e) => cache.delete(new Request(e.key, { method: "GET" }))));
      await cache.delete(indexKey(env, tag));
    }
  });
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
 * Take every stored answer with one of these tags out of the edge cache: in every data centre through
 * Cloudflare's purge API when it is configured, else here (the index; the index is also read with the
 * API, for answers stored before the token was set). Awaited by the
 * request that made the change, so its answer comes after the purge; a failure is logged, never
 * undoes the change (the answer then lives until its s-maxage runs out).
 */
export async function purgeEdgeCache(env: Bindings, tags: string[]): Promise<void> {
  const unique = [...new Set(tags)];
  if (!unique.length) return;
  try {
    await Promise.all([purgeLocally(env, unique), purgeEverywhere(env, unique)]);
  } catch (error) {
    console.error("Edge cache purge failed", unique.slice(0, 5), error);
  }
}
