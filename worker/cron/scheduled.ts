import type { Bindings } from "../env";
import { purgeExpired } from "../features/auth/housekeeping";
import { notifySearchEngines } from "../features/seo/indexnow";
import { reconcilePendingPayments } from "../features/payments/results";
import { runOrderCron } from "../features/payments/orders";
import { runShipmentCron } from "../features/shipping/shipment-cron";
import { carrierPortFor } from "../features/shipping/booking-queue";
import { generateSitemap } from "../features/seo/sitemap";
import { purgeAnalytics } from "../features/analytics/housekeeping";
import { runSavedSearchCron } from "../features/saved-searches/alerts";
import { ALL_TAG, purgeEdgeCache } from "../lib/edge-cache";
import { runDriftCron } from "../features/admin/drift-alerts";
import { fillSearchText } from "../features/search/search-text";
import { recordCronOutcomes, type CronOutcome } from "./outcomes";

interface CronStep {
  name: string;
  run(env: Bindings, now: Date, origin: string): Promise<unknown>;
}

/**
 * The hourly cron's steps, money first. Each runs on its own: one that throws is logged and
 * recorded, and the next runs anyway, so a failing sitemap (R2) or analytics purge never holds up
 * a payment's settlement or the release of held money.
 */
export const CRON_STEPS: readonly CronStep[] = [
  {
    // Payments whose webhook never arrived. One settled here may have sold a listing: the edge cache
    // shows it at once (decision 101).
    name: "payments",
    run: async (env, now) => {
      if ((await reconcilePendingPayments(env, now)) > 0) await purgeEdgeCache(env, [ALL_TAG]);
    },
  },
  // Held money (decision 105): reminders, automatic releases 48 h after a handover, and provider
  // calls not yet acknowledged.
  { name: "orders", run: (env, now) => runOrderCron(env, now) },
  // Sent parcels (decision 145): a missed drop-off deadline cancels and refunds in full (a refund
  // the provider does not acknowledge at once is retried by "orders" next hour), silence opens a
  // case; bookings and carrier cancellations not yet answered are repeated with their keys through
  // each parcel's carrier, Bring or Helthjem, when it is configured (carrier-config.ts), and wait for
  // a run that has it otherwise. An unusable setting (named by the start report) leaves that carrier
  // out, not the other carrier nor the database moves (carrier-dispatch.ts).
  { name: "shipments", run: (env, now) => runShipmentCron(env, now, carrierPortFor(env)) },
  // Catch-up matching, pending alerts, the daily digest (from 18:00 Oslo) and their purge.
  { name: "saved-searches", run: (env, now) => runSavedSearchCron(env, now) },
  // Expired sessions, e-mail codes and old rate-limit rows.
  { name: "sessions", run: (env, now) => purgeExpired(env.DB, now) },
  // Analytics working sets and raw events past their retention.
  { name: "analytics", run: (env, now) => purgeAnalytics(env, now) },
  { name: "sitemap", run: (env, _now, origin) => generateSitemap(env, origin) },
  // The language index's text of listings that have none (decision 151).
  { name: "search-text", run: (env) => fillSearchText(env.DB) },
  // IndexNow, on the production host only.
  { name: "indexnow", run: (env, _now, origin) => notifySearchEngines(env, origin) },
  // The operator's counters past their time, and one mail to the admins about what newly appeared
  // on /admin/drift (docs/decisions/134-operations-page.md).
  { name: "drift", run: (env, now) => runDriftCron(env, now) },
];

/** Runs every step, each on its own, logs one JSON line per step, and records the outcomes. */
export async function runScheduled(env: Bindings, now: Date = new Date(), steps: readonly CronStep[] = CRON_STEPS): Promise<CronOutcome[]> {
  const origin = env.APP_ORIGIN.replace(/\/$/, "");
  const outcomes: CronOutcome[] = [];
  for (const step of steps) {
    const started = Date.now();
    try {
      await step.run(env, now, origin);
      outcomes.push({ step: step.name, ok: true, ms: Date.now() - started, error: null });
      console.log(JSON.stringify({ cron: step.name, ok: true, ms: Date.now() - started }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      outcomes.push({ step: step.name, ok: false, ms: Date.now() - started, error: message });
      console.error(
        JSON.stringify({
          cron: step.name,
          ok: false,
          ms: Date.now() - started,
          error: message,
          stack: error instanceof Error ? error.stack : undefined,
        }),
      );
    }
  }
  try {
    await recordCronOutcomes(env, outcomes, now);
  } catch (error) {
    console.error(JSON.stringify({ cron: "record", ok: false, error: error instanceof Error ? error.message : String(error) }));
  }
  return outcomes;
}
