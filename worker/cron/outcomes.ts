// Each cron step's last outcome in D1 (`cron_steps`), and the admins' alert: a step that fails twice
// in a row mails every admin once; its next success clears the count, so a later pair of failures
// alerts again.
import type { Bindings } from "../env";
import { sendMail } from "../features/mail/mail";

export interface CronOutcome {
  step: string;
  ok: boolean;
  ms: number;
  error: string | null;
}

/** Failures in a row after which the admins hear of it. */
export const CRON_ALERT_AFTER = 2;

export function cronAlertMail(appName: string, step: string, failures: number, error: string): { subject: string; text: string } {
  return {
    subject: `${appName}: steget «${step}» i timejobben har feilet ${failures} ganger på rad`,
    text: `Steget «${step}» i timejobben har feilet ${failures} ganger på rad.\n\nSiste feil:\n${error}\n\nDe andre stegene kjører som før. Du får ingen flere e-poster om steget før det har lyktes igjen og så feiler to ganger på rad.`,
  };
}

export async function recordCronOutcomes(env: Bindings, outcomes: CronOutcome[], now: Date): Promise<void> {
  if (outcomes.length === 0) return;
  const at = now.toISOString();
  const results = await env.DB.batch<{ step: string; failures_in_a_row: number; last_error: string | null }>(
    outcomes.map((o) =>
      env.DB.prepare(
        `INSERT INTO cron_steps (step, last_run_at, last_ok, last_error, last_ms, failures_in_a_row, alerted_at)
         VALUES (?1, ?2, ?3, ?4, ?5, CASE WHEN ?3 THEN 0 ELSE 1 END, NULL)
         ON CONFLICT (step) DO UPDATE SET
           last_run_at = excluded.last_run_at, last_ok = excluded.last_ok, last_error = excluded.last_error,
           last_ms = excluded.last_ms,
           failures_in_a_row = CASE WHEN excluded.last_ok THEN 0 ELSE cron_steps.failures_in_a_row + 1 END,
           alerted_at = CASE WHEN excluded.last_ok THEN NULL ELSE cron_steps.alerted_at END
         RETURNING step, failures_in_a_row, last_error`,
      ).bind(o.step, at, o.ok ? 1 : 0, o.error, o.ms),
    ),
  );
  const due = results.flatMap((r) => r.results).filter((r) => r.failures_in_a_row >= CRON_ALERT_AFTER);
  if (due.length === 0) return;
  const admins = (
    await env.DB.prepare(
      "SELECT u.email FROM users u JOIN profiles p ON p.user_id = u.id WHERE p.role = 'admin' AND u.deleted_at IS NULL ORDER BY u.email",
    ).all<{ email: string }>()
  ).results;
  for (const row of due) {
    // Claimed before sending: two overlapping runs alert once.
    const claimed = await env.DB.prepare("UPDATE cron_steps SET alerted_at = ?2 WHERE step = ?1 AND alerted_at IS NULL RETURNING step")
      .bind(row.step, at)
      .first();
    if (!claimed) continue;
    const mail = cronAlertMail(env.APP_NAME, row.step, row.failures_in_a_row, row.last_error ?? "");
    for (const { email } of admins) await sendMail(env, { to: email, ...mail });
  }
}
