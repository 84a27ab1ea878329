import type { Bindings } from "../env";
import { getDb } from "../db/client";
import { purgeExpired } from "../services/housekeeping";
import { notifySearchEngines } from "../services/indexnow";
import { generateSitemap } from "../services/sitemap";
import { purgeAnalytics } from "../services/analytics-housekeeping";

/**
 * Hourly cron: regenerate the sitemap into the private bucket, purge what has expired (sessions,
 * e-mail codes, old rate-limit rows, analytics working sets and raw events past their retention) and,
 * on the production host, notify IndexNow.
 */
export async function runScheduled(env: Bindings): Promise<void> {
  const origin = env.APP_ORIGIN.replace(/\/$/, "");
  await generateSitemap(env, origin);
  await purgeExpired(getDb(env.DB));
  await purgeAnalytics(env, new Date());
  await notifySearchEngines(env, origin);
}
