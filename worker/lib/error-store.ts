// The unexpected errors of the last day in D1 (`request_errors`), for the operator's page
// /admin/drift (docs/decisions/134-operations-page.md). Workers Logs has every error line; this
// keeps enough of them where the Worker itself can read them back.
import type { Bindings } from "../env";
import type { ErrorLine } from "./request-log";

/** At most this many errors are kept per hour: a storm of errors writes a bounded number of rows. */
export const ERRORS_KEPT_PER_HOUR = 100;
/** Errors are kept this long (the page shows the last hour; the cron purges the rest). */
export const ERRORS_KEPT_HOURS = 24;
const MESSAGE_MAX = 500;
const STACK_MAX = 4000;

/**
 * Keeps one error, unless the last hour already holds ERRORS_KEPT_PER_HOUR: the count and the insert
 * are one statement, so concurrent errors cannot pass the bound together. A repeat of a request id
 * changes nothing.
 */
export async function storeRequestError(env: Bindings, line: ErrorLine, userHash: string | null, now: Date = new Date()): Promise<void> {
  const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
  await env.DB.prepare(
    `INSERT INTO request_errors (request_id, at, method, route, status, name, message, stack, user_hash)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9
     WHERE (SELECT COUNT(*) FROM request_errors WHERE at > ?10) < ?11
     ON CONFLICT (request_id) DO NOTHING`,
  )
    .bind(
      line.request_id,
      now.toISOString(),
      line.method,
      line.route,
      line.status,
      line.name,
      line.message.slice(0, MESSAGE_MAX),
      line.stack?.slice(0, STACK_MAX) ?? null,
      userHash,
      hourAgo,
      ERRORS_KEPT_PER_HOUR,
    )
    .run();
}

/** The cron's purge: errors older than ERRORS_KEPT_HOURS. */
export async function purgeRequestErrors(env: Bindings, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - ERRORS_KEPT_HOURS * 3_600_000).toISOString();
  await env.DB.prepare("DELETE FROM request_errors WHERE at < ?1").bind(cutoff).run();
}
