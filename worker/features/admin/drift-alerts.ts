// The cron's drift step (docs/decisions/134-operations-page.md): purge the operator's counters past
// their time, then mail every admin once about each condition of /admin/drift that has appeared
// since the last run. A condition is remembered in `drift_alerts` while it holds; once it no longer
// holds its row goes, so its next appearance mails again.
import {
  DRIFT_CONDITIONS_MAILED_ELSEWHERE,
  DRIFT_TEXTS,
  driftMailSubject,
  driftMailText,
  type DriftCondition,
} from "../../../domain/drift";
import { formatDateTime } from "../../../domain/format";
import type { Bindings } from "../../env";
import { purgeRequestErrors } from "../../lib/error-store";
import { sendMail } from "../mail/mail";
import { purgeWebhookRefusals } from "../payments/webhook-refusals";
import { driftReport, type DriftReport } from "./drift";

/** One line of the mail per new condition: what the page will show about it. */
function summary(condition: DriftCondition, report: DriftReport): string {
  const title = DRIFT_TEXTS[condition].title;
  switch (condition) {
    case "held_too_long":
      return `${title}: ${report.held_orders.total} kjøp`;
    case "money_not_moved":
      return `${title}: ${report.unmoved_orders.total} kjøp`;
    case "webhooks_refused":
      return `${title}: ${report.webhook_refusals.total}`;
    case "queue_backlog": {
      const queue = report.analytics_queue;
      return "oldest_at" in queue && queue.oldest_at ? `${title}: eldste melding fra ${formatDateTime(queue.oldest_at)}` : title;
    }
    case "dead_letters":
      return `${title}: ${report.dead_letters.last_day} nye siste døgn`;
    case "errors":
      return `${title}: ${report.errors.total}${report.errors.capped ? " eller flere" : ""}`;
    default:
      return title;
  }
}

/** The conditions newly claimed by this run (already mailed ones, and those that no longer hold, are not). */
async function claimNew(env: Bindings, holding: DriftCondition[], at: string): Promise<DriftCondition[]> {
  const held = JSON.stringify(holding);
  const results = await env.DB.batch<{ condition: DriftCondition }>([
    env.DB.prepare("DELETE FROM drift_alerts WHERE condition NOT IN (SELECT value FROM json_each(?1))").bind(held),
    ...holding.map((condition) =>
      env.DB.prepare(
        "INSERT INTO drift_alerts (condition, alerted_at) VALUES (?1, ?2) ON CONFLICT (condition) DO NOTHING RETURNING condition",
      ).bind(condition, at),
    ),
  ]);
  return results.slice(1).flatMap((r) => r.results.map((row) => row.condition));
}

export async function runDriftCron(env: Bindings, now: Date = new Date()): Promise<DriftCondition[]> {
  await purgeRequestErrors(env, now);
  await purgeWebhookRefusals(env, now);
  const report = await driftReport(env.DB, env, now);
  const mailed = report.conditions.filter((c) => !DRIFT_CONDITIONS_MAILED_ELSEWHERE.includes(c));
  const claimed = await claimNew(env, mailed, now.toISOString());
  if (claimed.length === 0) return [];
  const admins = (
    await env.DB.prepare(
      "SELECT u.email FROM users u JOIN profiles p ON p.user_id = u.id WHERE p.role = 'admin' AND u.deleted_at IS NULL ORDER BY u.email",
    ).all<{ email: string }>()
  ).results;
  const mail = {
    subject: driftMailSubject(env.APP_NAME, claimed),
    text: driftMailText(
      env.APP_ORIGIN.replace(/\/$/, ""),
      claimed.map((c) => summary(c, report)),
    ),
  };
  try {
    for (const { email } of admins) await sendMail(env, { to: email, ...mail });
  } catch (error) {
    // Claimed but not sent: the next run claims and mails them again.
    await env.DB.prepare("DELETE FROM drift_alerts WHERE condition IN (SELECT value FROM json_each(?1))")
      .bind(JSON.stringify(claimed))
      .run();
    throw error;
  }
  return claimed;
}
