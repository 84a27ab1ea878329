// Refused provider webhooks, counted for the operator's page (docs/decisions/134-operations-page.md).
import type { Carrier } from "../../../domain/carriers";
import type { Bindings } from "../../env";

/** Hours of counters kept: the page shows the last day's, the cron purges the rest. */
export const WEBHOOK_REFUSALS_KEPT_HOURS = 48;

/** The counter's hour: UTC, "2026-11-29T10". */
export function refusalHour(at: Date): string {
  return at.toISOString().slice(0, 13);
}

/** One refusal more for this provider, code and hour: one upsert, so refusals at the same moment all count. */
export async function recordWebhookRefusal(
  env: Bindings,
  provider: "stripe" | "vipps" | Carrier,
  code: string,
  now: Date = new Date(),
): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO webhook_refusals (provider, code, hour, count, last_at) VALUES (?1, ?2, ?3, 1, ?4)
     ON CONFLICT (provider, code, hour) DO UPDATE SET count = count + 1, last_at = MAX(last_at, excluded.last_at)`,
  )
    .bind(provider, code, refusalHour(now), now.toISOString())
    .run();
}

export async function purgeWebhookRefusals(env: Bindings, now: Date): Promise<void> {
  const cutoff = refusalHour(new Date(now.getTime() - WEBHOOK_REFUSALS_KEPT_HOURS * 3_600_000));
  await env.DB.prepare("DELETE FROM webhook_refusals WHERE hour < ?1").bind(cutoff).run();
}
