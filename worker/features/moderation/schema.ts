// The D1 tables of the moderation feature. The whole schema: worker/db/tables.ts.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { MODERATION_ACTION_TYPES, REPORT_PRIORITY_KEYS, REPORT_STATUSES, REPORT_TARGET_TYPES } from "../../../domain/moderation";
import { createdAt, updatedAt } from "../../db/columns";
import { users } from "../auth/schema";

/**
 * A user's report (docs/product.md "Data"). A reporter's further report on a target with an open report of
 * theirs is a report of its own (decision 083); an identical one (same reason and text) while the
 * first is open is not stored again. `reason` is the Norwegian label.
 */
export const reports = sqliteTable(
  "reports",
  {
    id: text("id").primaryKey(),
    reporterId: text("reporter_id").references(() => users.id, { onDelete: "set null" }),
    targetType: text("target_type", { enum: REPORT_TARGET_TYPES }).notNull(),
    targetId: text("target_id").notNull(),
    reason: text("reason").notNull(),
    description: text("description"),
    priority: text("priority", { enum: REPORT_PRIORITY_KEYS }).notNull().default("normal"),
    status: text("status", { enum: REPORT_STATUSES }).notNull().default("pending"),
    resolutionAction: text("resolution_action"),
    moderatorNotes: text("moderator_notes"),
    resolvedAt: text("resolved_at"),
    /**
     * HMAC of the reporter's network when filing (IPv4 /24, IPv6 /64; decision 082), never the
     * address itself: auto-hide counts reporters on one network once.
     */
    reporterNetwork: text("reporter_network"),
    createdAt: createdAt(),
  },
  (t) => [
    index("reports_status_idx").on(t.status, t.createdAt),
    index("reports_target_idx").on(t.targetType, t.targetId, t.status),
    index("reports_reporter_idx").on(t.reporterId, t.createdAt),
    // No unique index per reporter and target: a reporter may add reports to an open case, each
    // kept for the moderator (decision 083). An identical repeat is refused by the insert itself
    // (one statement, so two at once cannot both land).
  ],
);

/**
 * Every moderation decision, with the moderator and the reason (the report's). `target_user_id` is
 * the user the action concerns (the listing's owner, the message's sender, the user), so a user's
 * warnings and suspensions can be listed; `expires_at` is a suspension's end.
 */
export const moderationActions = sqliteTable(
  "moderation_actions",
  {
    id: text("id").primaryKey(),
    moderatorId: text("moderator_id")
      .notNull()
      .references(() => users.id),
    reportId: text("report_id").references(() => reports.id),
    targetType: text("target_type", { enum: REPORT_TARGET_TYPES }).notNull(),
    targetId: text("target_id").notNull(),
    targetUserId: text("target_user_id"),
    actionType: text("action_type", { enum: MODERATION_ACTION_TYPES }).notNull(),
    reason: text("reason"),
    notes: text("notes"),
    expiresAt: text("expires_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("moderation_actions_target_idx").on(t.targetType, t.targetId, t.createdAt),
    index("moderation_actions_target_user_idx").on(t.targetUserId, t.createdAt),
  ],
);

/**
 * Warnings and suspensions per user. A suspension is `is_suspended` with `suspended_until` in the
 * future (it ends by itself); `suspension_reason` is what the user is told.
 */
export const userModerationStatus = sqliteTable("user_moderation_status", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  warningCount: integer("warning_count").notNull().default(0),
  isSuspended: integer("is_suspended", { mode: "boolean" }).notNull().default(false),
  suspendedUntil: text("suspended_until"),
  suspensionReason: text("suspension_reason"),
  lastActionAt: text("last_action_at"),
  updatedAt: updatedAt(),
});
