// The moderation dashboard and its decisions (docs/product.md "Moderation", "States", "Server calls";
// docs/decisions/050-moderation.md, 051-suspensions.md). Only moderators and admins in good standing
// get here (the route checks the role and suspension read from D1 on this request); every decision
// also checks whose target it is (assertStaffMay, decision 052).
//
// A decision is taken on a report but applies to its target and settles every open report on it:
// an action (hide, delete, warn, approve) → resolved, a dismissal → dismissed. Each is one D1 batch
// whose first statement records the moderation action only while the report is still open; every
// other statement applies only if that row exists. So of two moderators deciding at once exactly one
// changes anything; the other gets 409.
import {
  ACTIONS_FOR_TARGET,
  REMOVED_MESSAGE_TEXT,
  SUSPENSION_DEFAULT_DAYS,
  isUserTarget,
  reasonWithNotes,
  type ModerationAction,
  type ReportTargetType,
  MODERATION_REFUSALS,
} from "../../../domain/moderation";
import type { Actor, Bindings } from "../../env";
import type { Db } from "../../db/client";
import { nowIso } from "../../lib/crypto";
import { AppError } from "../../lib/errors";
import { listingsChangedById } from "../../lib/listing-changes";
import { endSessionSockets, participantChanged, removeMessageInRoom } from "../chat/live";
import { notifyUser, type ModerationNotice } from "./mail";
import { invalidateSitemap } from "../seo/sitemap";
import { UUID_RE } from "../../lib/uuid";
import { OPEN, assertStaffMay, loadReport, requireOpen, targetFacts, type TargetFacts } from "./targets";

/**
 * "Behandle": opening a report marks the pending reports on its target reviewed (Vurdert). An open
 * report stays open; a decided one is refused (409).
 */
export async function reviewReport(db: Db, actor: Actor, reportId: string): Promise<{ reviewed: number }> {
  const report = await loadReport(db, reportId);
  requireOpen(report);
  assertStaffMay(actor, "review", await targetFacts(db, report.target_type, report.target_id));
  const { results } = await db
    .prepare("UPDATE reports SET status = 'reviewed' WHERE target_type = ?1 AND target_id = ?2 AND status = 'pending' RETURNING id")
    .bind(report.target_type, report.target_id)
    .all();
  return { reviewed: results.length };
}

export interface ActionInput {
  action: ModerationAction;
  notes: string | null;
  suspension_days?: number;
}

export interface ActionResult {
  action: ModerationAction;
  target_type: ReportTargetType;
  target_id: string;
  resolved: number;
  /** A suspension's end (hide/delete on a user or profile). */
  suspended_until: string | null;
}

/**
 * "Moderer rapport" → "Utfør handling". Effects:
 * - listing: hide sets is_hidden, hidden_reason (the report's reason and the notes) and hidden_at
 *   (not auto_hidden); delete sets status deleted; approve clears an auto-hide (a moderator's own
 *   hide stays until unhidden).
 * - message: delete replaces its text for both parties ("Meldingen er fjernet av moderator"), pushed
 *   live into the conversation.
 * - user/profile: hide and delete suspend the user until an end date (SUSPENSION_DEFAULT_DAYS, or
 *   the moderator's `suspension_days`).
 * - warn (any target): one more warning for the target's user, shown on their profile.
 * Every open report on the target is resolved, the decision is written to moderation_actions with
 * the moderator and the reason, and the user concerned is mailed.
 */
export async function takeAction(env: Bindings, moderator: Actor, reportId: string, input: ActionInput): Promise<ActionResult> {
  const db = env.DB;
  const report = await loadReport(db, reportId);
  requireOpen(report);
  const type = report.target_type;
  if (!ACTIONS_FOR_TARGET[type].includes(input.action)) {
    throw new AppError("VALIDATION", MODERATION_REFUSALS.actionNotForTarget, { action: MODERATION_REFUSALS.actionNotForTargetField });
  }
  if (input.suspension_days !== undefined && !(isUserTarget(type) && (input.action === "hide" || input.action === "delete"))) {
    throw new AppError("VALIDATION", MODERATION_REFUSALS.daysOnlyForSuspension, {
      suspension_days: MODERATION_REFUSALS.daysOnlyForSuspensionField,
    });
  }
  const facts = await targetFacts(db, type, report.target_id);
  assertStaffMay(moderator, input.action, facts);
  if (!facts && input.action !== "approve") throw new AppError("CONFLICT", MODERATION_REFUSALS.targetGone);

  const now = nowIso();
  const actionId = crypto.randomUUID();
  const shownReason = reasonWithNotes(report.reason, input.notes);
  const suspend = isUserTarget(type) && (input.action === "hide" || input.action === "delete");
  const days = input.suspension_days ?? (suspend ? SUSPENSION_DEFAULT_DAYS[input.action as "hide" | "delete"] : 0);
  const until = suspend ? new Date(Date.parse(now) + days * 86_400_000).toISOString() : null;
  const recorded = "EXISTS (SELECT 1 FROM moderation_actions WHERE id = ?9)";

  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        `INSERT INTO moderation_actions (id, moderator_id, report_id, target_type, target_id, target_user_id, action_type, reason, notes, expires_at, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?10, ?11, ?12 WHERE EXISTS (SELECT 1 FROM reports WHERE id = ?3 AND status IN ${OPEN})
         RETURNING id`,
      )
      // ?9 is the action id again, for the `recorded` condition of the statements below.
      .bind(
        actionId,
        moderator.id,
        report.id,
        type,
        report.target_id,
        facts?.userId ?? null,
        input.action,
        report.reason,
        actionId,
        input.notes,
        until,
        now,
      ),
  ];
  // Every effect statement binds its own parameters as ?1…?n (n ≤ 8) and the action id as ?9.
  const effect = (sql: string, ...params: unknown[]) => {
    const bound = [...params];
    while (bound.length < 8) bound.push(null);
    return db.prepare(sql).bind(...bound, actionId);
  };
  if (type === "listing" && input.action === "hide") {
    statements.push(
      effect(
        `UPDATE listings SET is_hidden = 1, auto_hidden = 0, hidden_reason = ?2, hidden_at = ?3, updated_at = ?3 WHERE id = ?1 AND ${recorded}`,
        report.target_id,
        shownReason,
        now,
      ),
    );
  } else if (type === "listing" && input.action === "delete") {
    statements.push(effect(`UPDATE listings SET status = 'deleted', updated_at = ?2 WHERE id = ?1 AND ${recorded}`, report.target_id, now));
  } else if (type === "listing" && input.action === "approve") {
    statements.push(
      effect(
        `UPDATE listings SET is_hidden = 0, hidden_reason = NULL, hidden_at = NULL, auto_hidden = 0, updated_at = ?2
         WHERE id = ?1 AND auto_hidden = 1 AND ${recorded}`,
        report.target_id,
        now,
      ),
    );
  } else if (type === "review" && input.action === "hide") {
    statements.push(
      effect(
        `UPDATE reviews SET is_hidden = 1, hidden_reason = ?2, hidden_at = ?3 WHERE id = ?1 AND ${recorded}`,
        report.target_id,
        shownReason,
        now,
      ),
    );
  } else if (type === "message" && input.action === "delete") {
    statements.push(effect(`UPDATE messages SET content = ?2 WHERE id = ?1 AND ${recorded}`, report.target_id, REMOVED_MESSAGE_TEXT));
  } else if (suspend) {
    statements.push(
      effect(
        `INSERT INTO user_moderation_status (user_id, is_suspended, suspended_until, suspension_reason, last_action_at, updated_at)
         SELECT ?1, 1, ?2, ?3, ?4, ?4 WHERE ${recorded}
         ON CONFLICT (user_id) DO UPDATE SET is_suspended = 1, suspended_until = excluded.suspended_until,
           suspension_reason = excluded.suspension_reason, last_action_at = excluded.last_action_at, updated_at = excluded.updated_at`,
        facts!.userId,
        until,
        shownReason,
        now,
      ),
    );
  }
  if (input.action === "warn") {
    statements.push(
      effect(
        `INSERT INTO user_moderation_status (user_id, warning_count, last_action_at, updated_at)
         SELECT ?1, 1, ?2, ?2 WHERE ${recorded}
         ON CONFLICT (user_id) DO UPDATE SET warning_count = warning_count + 1, last_action_at = excluded.last_action_at, updated_at = excluded.updated_at`,
        facts!.userId,
        now,
      ),
    );
  }
  statements.push(
    effect(
      `UPDATE reports SET status = 'resolved', resolution_action = ?3, moderator_notes = ?4, resolved_at = ?5
       WHERE target_type = ?1 AND target_id = ?2 AND status IN ${OPEN} AND ${recorded} RETURNING id`,
      type,
      report.target_id,
      input.action,
      input.notes,
      now,
    ),
  );
  const results = await db.batch(statements);
  if (results[0].results.length === 0) throw new AppError("CONFLICT", MODERATION_REFUSALS.alreadyDecided);
  const resolved = results[results.length - 1].results.length;

  // Stored: now the rest of the world hears of it.
  if (type === "listing") {
    await listingsChangedById(env, [report.target_id]);
    await invalidateSitemap(env);
  }
  // The room keeps its own copy of the message (decision 107): it takes the new text and shows it live.
  if (type === "message" && input.action === "delete" && facts?.conversationId) {
    await removeMessageInRoom(env, facts.conversationId, report.target_id);
  }
  // A suspended user's open chats and inbox close at once (docs/decisions/080); they may reopen
  // them to read, but every send is refused while the suspension lasts (their rooms are told now).
  if (suspend && facts?.userId) {
    await participantChanged(env, facts.userId);
    await endSessionSockets(env, facts.userId, null, "suspended");
  }
  const notice = noticeFor(type, input.action, facts, report.target_id, shownReason, until);
  if (notice && facts?.userId) await notifyUser(env, facts.userId, notice);
  return { action: input.action, target_type: type, target_id: report.target_id, resolved, suspended_until: until };
}

function noticeFor(
  type: ReportTargetType,
  action: ModerationAction,
  facts: TargetFacts | null,
  targetId: string,
  reason: string | null,
  until: string | null,
): ModerationNotice | null {
  if (!facts) return null;
  if (action === "warn") return { kind: "warning", reason };
  if (until) return { kind: "suspended", until, reason };
  if (type === "listing" && action === "hide") return { kind: "listing-hidden", listingId: targetId, title: facts.title ?? "", reason };
  if (type === "listing" && action === "delete") return { kind: "listing-deleted", title: facts.title ?? "", reason };
  if (type === "review" && action === "hide") return { kind: "review-hidden", reason };
  if (type === "message" && action === "delete" && facts.conversationId)
    return { kind: "message-removed", conversationId: facts.conversationId, reason };
  return null;
}

/**
 * "Avvis rapport": every open report on the target becomes dismissed, with the notes. A listing that
 * was hidden automatically is shown again (the reports were unfounded); a moderator's hide stays.
 */
export async function dismissReport(
  env: Bindings,
  moderator: Actor,
  reportId: string,
  notes: string | null,
): Promise<{ dismissed: number }> {
  const db = env.DB;
  const report = await loadReport(db, reportId);
  requireOpen(report);
  const now = nowIso();
  const actionId = crypto.randomUUID();
  const facts = await targetFacts(db, report.target_type, report.target_id);
  assertStaffMay(moderator, "dismiss", facts);
  const recorded = "EXISTS (SELECT 1 FROM moderation_actions WHERE id = ?1)";
  const results = await db.batch([
    db
      .prepare(
        `INSERT INTO moderation_actions (id, moderator_id, report_id, target_type, target_id, target_user_id, action_type, reason, notes, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, 'dismiss', ?7, ?8, ?9 WHERE EXISTS (SELECT 1 FROM reports WHERE id = ?3 AND status IN ${OPEN})
         RETURNING id`,
      )
      .bind(actionId, moderator.id, report.id, report.target_type, report.target_id, facts?.userId ?? null, report.reason, notes, now),
    db
      .prepare(
        `UPDATE listings SET is_hidden = 0, hidden_reason = NULL, hidden_at = NULL, auto_hidden = 0, updated_at = ?3
         WHERE ?2 = 'listing' AND id = ?4 AND auto_hidden = 1 AND ${recorded}`,
      )
      .bind(actionId, report.target_type, now, report.target_id),
    db
      .prepare(
        `UPDATE reports SET status = 'dismissed', resolution_action = 'dismiss', moderator_notes = ?4, resolved_at = ?5
         WHERE target_type = ?2 AND target_id = ?3 AND status IN ${OPEN} AND ${recorded} RETURNING id`,
      )
      .bind(actionId, report.target_type, report.target_id, notes, now),
  ]);
  if (results[0].results.length === 0) throw new AppError("CONFLICT", MODERATION_REFUSALS.alreadyDecided);
  if (report.target_type === "listing") {
    await listingsChangedById(env, [report.target_id]);
    await invalidateSitemap(env);
  }
  return { dismissed: results[2].results.length };
}

/**
 * Undo a hide: a listing or a review is shown again (is_hidden, hidden_reason, hidden_at and
 * auto_hidden cleared); a user's suspension is lifted. Recorded as "unhide". 409 when there is nothing to undo.
 */
export async function unhideTarget(
  env: Bindings,
  moderator: Actor,
  type: ReportTargetType,
  targetId: string,
  notes: string | null,
): Promise<{ target_type: ReportTargetType; target_id: string }> {
  if (!UUID_RE.test(targetId)) throw new AppError("NOT_FOUND", MODERATION_REFUSALS.targetNotFound);
  if (type === "message") throw new AppError("VALIDATION", MODERATION_REFUSALS.messageNotRestorable);
  const db = env.DB;
  const facts = await targetFacts(db, type, targetId);
  if (!facts) throw new AppError("NOT_FOUND", MODERATION_REFUSALS.targetNotFound);
  assertStaffMay(moderator, "unhide", facts);
  const now = nowIso();
  const actionId = crypto.randomUUID();
  const listing = type === "listing";
  const review = type === "review";
  const undoable = listing
    ? "EXISTS (SELECT 1 FROM listings WHERE id = ?5 AND is_hidden = 1)"
    : review
      ? "EXISTS (SELECT 1 FROM reviews WHERE id = ?5 AND is_hidden = 1)"
      : "EXISTS (SELECT 1 FROM user_moderation_status WHERE user_id = ?5 AND is_suspended = 1 AND suspended_until > ?8)";
  const recorded = "EXISTS (SELECT 1 FROM moderation_actions WHERE id = ?1)";
  const results = await db.batch([
    db
      .prepare(
        `INSERT INTO moderation_actions (id, moderator_id, target_type, target_id, target_user_id, action_type, notes, created_at)
         SELECT ?1, ?2, ?3, ?5, ?6, 'unhide', ?7, ?8 WHERE ${undoable} RETURNING id`,
      )
      .bind(actionId, moderator.id, type, null, targetId, facts.userId, notes, now),
    listing
      ? db
          .prepare(
            `UPDATE listings SET is_hidden = 0, hidden_reason = NULL, hidden_at = NULL, auto_hidden = 0, updated_at = ?3 WHERE id = ?2 AND ${recorded}`,
          )
          .bind(actionId, targetId, now)
      : review
        ? db
            .prepare(`UPDATE reviews SET is_hidden = 0, hidden_reason = NULL, hidden_at = NULL WHERE id = ?2 AND ${recorded}`)
            .bind(actionId, targetId)
        : db
            .prepare(
              `UPDATE user_moderation_status SET is_suspended = 0, suspended_until = NULL, suspension_reason = NULL, last_action_at = ?3, updated_at = ?3
             WHERE user_id = ?2 AND ${recorded}`,
            )
            .bind(actionId, targetId, now),
  ]);
  if (results[0].results.length === 0) {
    throw new AppError(
      "CONFLICT",
      listing ? MODERATION_REFUSALS.listingNotHidden : review ? MODERATION_REFUSALS.reviewNotHidden : MODERATION_REFUSALS.userNotSuspended,
    );
  }
  if (listing) {
    await listingsChangedById(env, [targetId]);
    await invalidateSitemap(env);
  }
  // A lifted suspension: the user's rooms accept their messages again.
  if (!listing && !review && facts.userId) await participantChanged(env, facts.userId);
  return { target_type: type, target_id: targetId };
}
