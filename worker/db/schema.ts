// The platform's own tables: rate limits (used by every feature through worker/lib/rate-limit.ts)
// and the cron steps' outcomes. Each feature keeps its tables in worker/features/<feature>/schema.ts;
// worker/db/tables.ts gathers them all.
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
