// Hourly cron part for analytics: keep D1's working sets small and raw events no longer than the
// privacy page says (docs/decisions/036-analytics-pipeline.md).
import { RAW_EVENTS_PREFIX } from "../../../domain/analytics";
import { osloDay } from "../../../domain/format";
import type { Bindings } from "../../env";

/** Processed message ids and per-view rows are kept two days; the rollups keep the figures. */
export const ANALYTICS_WORKING_SET_DAYS = 2;
/** Raw events in R2 are deleted after 90 days (privacy page, "Hvor lenge vi lagrer opplysningene"). */
export const RAW_EVENTS_RETENTION_DAYS = 90;
/** How many days past the retention the cron looks at, so a few missed runs are caught up. */
const RAW_CATCH_UP_DAYS = 7;

export async function purgeAnalytics(env: Bindings, now: Date = new Date()): Promise<{ rawObjectsDeleted: number }> {
  const cutoff = new Date(now.getTime() - ANALYTICS_WORKING_SET_DAYS * 86_400_000);
  await env.DB.batch([
    env.DB.prepare("DELETE FROM analytics_processed_messages WHERE processed_at < ?1").bind(cutoff.toISOString()),
    env.DB.prepare("DELETE FROM analytics_listing_views WHERE day < ?1").bind(osloDay(cutoff)),
  ]);

  let rawObjectsDeleted = 0;
  for (let age = RAW_EVENTS_RETENTION_DAYS + 1; age <= RAW_EVENTS_RETENTION_DAYS + RAW_CATCH_UP_DAYS; age++) {
    const day = osloDay(new Date(now.getTime() - age * 86_400_000));
    const prefix = `${RAW_EVENTS_PREFIX}day=${day}/`;
    let cursor: string | undefined;
    do {
      const listed = await env.PRIVATE.list({ prefix, cursor, limit: 1000 });
      const keys = listed.objects.map((o) => o.key);
      if (keys.length) await env.PRIVATE.delete(keys);
      rawObjectsDeleted += keys.length;
      cursor = listed.truncated ? listed.cursor : undefined;
    } while (cursor);
  }
  return { rawObjectsDeleted };
}
