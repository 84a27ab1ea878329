import type { Bindings } from "../env";
import { getDb } from "../db/client";
import { purgeExpired } from "../services/housekeeping";
import { notifySearchEngines } from "../services/indexnow";
import { generateSitemap } from "../services/sitemap";

/**
 * Hourly cron: regenerate the sitemap into the private bucket, purge what has expired (sessions,
 * e-mail codes, old rate-limit rows) and, on the production host, notify IndexNow.
 */
export async function runScheduled(env: Bindings): Promise<void> {
  const origin = env.APP_ORIGIN.replace(/\/$/, "");
  await generateSitemap(env, origin);
  await purgeExpired(getDb(env.DB));
  await notifySearchEngines(env, origin);
}
