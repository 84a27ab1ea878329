// The operator's tables (docs/decisions/134-operations-page.md).
import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The drift conditions the admins have been mailed about and that still hold: a condition is
 * claimed here (one insert, so two overlapping cron runs mail once) when it appears, and its row
 * is deleted when it no longer holds, so its next appearance mails again.
 */
export const driftAlerts = sqliteTable("drift_alerts", {
  condition: text("condition").primaryKey(),
  alertedAt: text("alerted_at").notNull(),
});
