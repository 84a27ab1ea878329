import type { Bindings } from "../env";
import { reconcilePendingPayments } from "../services/payments/results";
import { generateSitemap } from "../services/sitemap";

/**
 * Hourly cron: regenerate the sitemap into R2 and purge what has expired (sessions, e-mail codes,
 * rate-limit windows older than a day, unused uploads are left to the listings housekeeping), and
 * settle payments whose webhook never arrived.
 */
export async function runScheduled(env: Bindings): Promise<void> {
  const origin = env.APP_ORIGIN.replace(/\/$/, "");
  await generateSitemap(env, origin);
  const now = new Date();
  const iso = now.toISOString();
  const dayAgoSeconds = Math.floor(now.getTime() / 1000) - 86_400;
  await env.DB.batch([
    env.DB.prepare("DELETE FROM sessions WHERE expires_at < ?1 OR (revoked_at IS NOT NULL AND revoked_at < ?2)").bind(iso, new Date(now.getTime() - 7 * 86_400_000).toISOString()),
    env.DB.prepare("DELETE FROM email_codes WHERE expires_at < ?1").bind(iso),
    env.DB.prepare("DELETE FROM rate_limits WHERE window_start < ?1").bind(dayAgoSeconds),
  ]);
  await notifySearchEngines(env, origin);
  await reconcilePendingPayments(env, now);
}

/**
 * The old sitemap "ping" endpoints are retired. On the production host only, and only when an
 * IndexNow key is configured, the sitemap URL is submitted through IndexNow; otherwise search
 * engines find the sitemap through robots.txt (docs/decisions/008-seo-edge.md). The key file is
 * served at /{key}.txt by the SEO routes.
 */
async function notifySearchEngines(env: Bindings, origin: string): Promise<void> {
  if (env.APP_ENV !== "production" || !env.INDEXNOW_KEY || !env.INDEXNOW_ENDPOINT) return;
  const host = new URL(origin).host;
  const since = new Date(Date.now() - 2 * 3600_000).toISOString();
  const { results } = await env.DB.prepare(
    "SELECT seo_slug FROM listings WHERE status = 'active' AND is_hidden = 0 AND updated_at >= ?1 ORDER BY updated_at DESC LIMIT 10000",
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
