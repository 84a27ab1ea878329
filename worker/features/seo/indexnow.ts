import { appMode, type Bindings } from "../../env";
import { listedListingSql } from "../listings/visibility";

/**
 * The old sitemap "ping" endpoints are retired. On the production host only, and only when an
 * IndexNow key is configured, recently changed listing URLs are submitted through IndexNow;
 * otherwise search engines find the sitemap through robots.txt (docs/decisions/008-seo-edge.md).
 * The key file is served at /{key}.txt by the SEO routes.
 */
export async function notifySearchEngines(env: Bindings, origin: string): Promise<void> {
  if (appMode(env) !== "production" || !env.INDEXNOW_KEY || !env.INDEXNOW_ENDPOINT) return;
  const host = new URL(origin).host;
  const since = new Date(Date.now() - 2 * 3600_000).toISOString();
  const { results } = await env.DB.prepare(
    `SELECT seo_slug FROM listings WHERE ${listedListingSql()} AND updated_at >= ?1 ORDER BY updated_at DESC LIMIT 10000`,
  )
    .bind(since)
    .all<{ seo_slug: string }>();
  if (results.length === 0) return;
  try {
    await fetch(env.INDEXNOW_ENDPOINT, {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify({
        host,
        key: env.INDEXNOW_KEY,
        keyLocation: `${origin}/${env.INDEXNOW_KEY}.txt`,
        urlList: results.map((r) => `${origin}/annonse/${encodeURIComponent(r.seo_slug)}`),
      }),
    });
  } catch (err) {
    console.warn("IndexNow notification failed", err);
  }
}
