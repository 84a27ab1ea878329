// The platform's own tables: rate limits (used by every feature through worker/lib/rate-limit.ts),
// the cron steps' outcomes and the unexpected errors of the last day. Each feature keeps its tables in worker/features/<feature>/schema.ts;
// worker/db/tables.ts gathers them all.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Sliding-window rate limits: one row per key and millisecond of an accepted request (`window_start`
 * holds the time, `count` the requests in that millisecond), so a window's total is a SUM over
 * its rows. Keys are `{scope}:{subject}` (domain/rate-limits.ts).
 */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/**
 * Each hourly cron step's last outcome (worker/cron/scheduled.ts): a step that fails twice in a row
 * mails the admins once (`alerted_at`), and its next success clears the count.
 */
export const cronSteps = sqliteTable("cron_steps", {
  step: text("step").primaryKey(),
  lastRunAt: text("last_run_at").notNull(),
  lastOk: integer("last_ok", { mode: "boolean" }).notNull(),
  lastError: text("last_error"),
  lastMs: integer("last_ms").notNull(),
  failuresInARow: integer("failures_in_a_row").notNull().default(0),
  alertedAt: text("alerted_at"),
});

/**
 * Errors the Worker did not expect (logged with their stack, answered 500), for the operator's page
 * (worker/lib/error-store.ts, docs/decisions/134-operations-page.md): at most a fixed number per hour,
 * kept a day, by the request id the web shows as "Feilkode".
 */
export const requestErrors = sqliteTable(
  "request_errors",
  {
    requestId: text("request_id").primaryKey(),
    at: text("at").notNull(),
    method: text("method").notNull(),
    /** The route pattern, never the raw URL. */
    route: text("route").notNull(),
    status: integer("status").notNull(),
    name: text("name").notNull(),
    message: text("message").notNull(),
    stack: text("stack"),
    /** The signed-in user's keyed hash (worker/lib/request-log.ts), never the id. */
    userHash: text("user_hash"),
  },
  (t) => [index("request_errors_at_idx").on(t.at)],
);
