// The one path by which a change to a listing reaches the edge cache (docs/decisions/116). Every
// service that writes a listing's state (status, hidden, content, payment settings) calls one of these
// after its write and before it returns, whatever started it: a route, a webhook, a result page's
// verification, the cron. So the stored pages and API answers that show the listing are gone before
// anyone is told of the change, and no route has to know which of its writes a visitor sees.
import { waitUntil } from "cloudflare:workers";
import type { Bindings } from "../env";
import { LISTS_TAG, listingAnswerTags, purgeEdgeCache, userTag } from "./edge-cache";

/**
 * The request's (or cron run's) context for the purge's repeat after the replicas' lag; none when
 * the code runs outside one (a test calling a service directly).
 */
const laterInThisInvocation: Pick<ExecutionContext, "waitUntil"> = {
  waitUntil(task) {
    try {
      waitUntil(task);
    } catch {
      // Outside an invocation nothing can wait: the repeat is left out, the first purge stands.
    }
  },
};

/**
 * These listings changed: home and search (any listing may be on them), each listing's pages and
 * APIs, and its seller's profile and pages (which show it among "more from the seller").
 */
export async function listingsChanged(env: Bindings, listings: readonly { id: string; user_id: string }[]): Promise<void> {
  if (listings.length === 0) return;
  await purgeEdgeCache(env, [LISTS_TAG, ...listings.flatMap(listingAnswerTags)], laterInThisInvocation);
}

/** As listingsChanged, for a caller that knows only the listings' ids (one D1 statement for their sellers). */
export async function listingsChangedById(env: Bindings, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const { results } = await env.DB.prepare("SELECT id, user_id FROM listings WHERE id IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify([...new Set(ids)]))
    .all<{ id: string; user_id: string }>();
  await listingsChanged(env, results);
}

/**
 * Something every listing of one seller shows changed (whether they can take payments, which decides
 * the listing page's buy bar): every page tagged with the seller, and home and search.
 */
export async function sellerListingsChanged(env: Bindings, sellerId: string): Promise<void> {
  await purgeEdgeCache(env, [LISTS_TAG, userTag(sellerId)], laterInThisInvocation);
}
