import type { Bindings } from "../env";
import { purgeExpired } from "../features/auth/housekeeping";
import { notifySearchEngines } from "../features/seo/indexnow";
import { reconcilePendingPayments } from "../features/payments/results";
import { runOrderCron } from "../features/payments/orders";
import { generateSitemap } from "../features/seo/sitemap";
import { purgeAnalytics } from "../features/analytics/housekeeping";
import { runSavedSearchCron } from "../features/saved-searches/alerts";
import { ALL_TAG, purgeEdgeCache } from "../lib/edge-cache";

/**
 * Hourly cron: regenerate the sitemap into the private bucket, purge what has expired (sessions,
 * e-mail codes, old rate-limit rows, analytics working sets and raw events past their retention),
 * on the production host notify IndexNow, settle payments whose webhook never arrived, release or
 * retry held money, and run the
 * saved searches' catch-up matching, pending alerts, daily digest (from 18:00 Oslo) and purge.
 */
export async function runScheduled(env: Bindings): Promise<void> {
  const origin = env.APP_ORIGIN.replace(/\/$/, "");
  const now = new Date();
  await generateSitemap(env, origin);
  await purgeExpired(env.DB, now);
  await purgeAnalytics(env, now);
  await notifySearchEngines(env, origin);
  // A payment settled here may have sold a listing: the edge cache shows it at once (decision 101).
  if ((await reconcilePendingPayments(env, now)) > 0) await purgeEdgeCache(env, [ALL_TAG]);
  // Held money (decision 105): reminders, automatic releases 48 h after a handover, and provider
  // calls not yet acknowledged.
  await runOrderCron(env, now);
  await runSavedSearchCron(env, now);
}
