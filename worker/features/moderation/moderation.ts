// The moderation dashboard and its decisions (docs/product.md "Moderation", "States", "Server calls"; issue 13;
// docs/decisions/050-moderation.md, 051-suspensions.md). Only moderators and admins in good standing
// get here (the route checks the role and suspension read from D1 on this request); every decision
// also checks whose target it is (assertStaffMay, decision 052).
//
// A decision is taken on a report but applies to its target and settles every open report on it:
// an action (hide, delete, warn, approve) → resolved, a dismissal → dismissed. Each is one D1 batch
// whose first statement records the moderation action only while the report is still open; every
// other statement applies only if that row exists. So of two moderators deciding at once exactly one
// changes anything; the other gets 409.
import { DELETED_USER_NAME, ANONYMOUS_NAME } from "../../../domain/messaging";
import {
  ACTIONS_FOR_TARGET,
  REMOVED_MESSAGE_TEXT,
  MESSAGE_REMOVED_EVENT,
  SUSPENSION_DEFAULT_DAYS,
  fallbackTargetTitle,
  isUserTarget,
  reasonWithNotes,
  STAFF_REFUSAL_MESSAGES,
  staffRefusal,
  type ModerationAction,
  type StaffAction,
  type ModerationActionType,
  type ReportPriority,
  type ReportStatus,
  type ReportTargetType,
  type MessageRemovedEvent,
} from "../../../domain/moderation";
import type { Role } from "../../../domain/taxonomy";
import type { Actor, Bindings } from "../../env";
import { getDb, type Db } from "../../db/client";
import { nowIso } from "../../lib/crypto";
import { AppError } from "../../lib/errors";
import { endSessionSockets, pushConversationEvent } from "../chat/live";
import { notifyUser, type ModerationNotice } from "./mail";
import { invalidateSitemap } from "../seo/sitemap";

const OPEN = "('pending', 'reviewed')";
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PRIORITY_RANK = "CASE priority WHEN 'urgent' THEN 3 WHEN 'high' THEN 2 WHEN 'normal' THEN 1 ELSE 0 END";
const PRIORITY_BY_RANK: ReportPriority[] = ["low", "normal", "high", "urgent"];

const REPORT_NOT_FOUND = "Fant ikke rapporten.";
const ALREADY_DECIDED = "Rapporten er allerede behandlet. Oppdater listen.";

// ---- the dashboard ----------------------------------------------------------------------------------

/** One report in a group (the expanded card lists them all). */
export interface ReportEntry {
  id: string;
  reason: string;
  description: string | null;
  priority: ReportPriority;
  status: ReportStatus;
  reporter_display_name: string;
  created_at: string;
  resolution_action: string | null;
  moderator_notes: string | null;
  resolved_at: string | null;
}

/** The user a target belongs to (listing owner, message sender, the user), with their record. */
export interface TargetUser {
  id: string;
  display_name: string;
  /** Staff are moderated by admins only: the dashboard hides what a moderator may not do. */
  role: Role;
  deleted: boolean;
  warning_count: number;
  suspended_until: string | null;
  suspension_reason: string | null;
}

export interface ModerationTarget {
  exists: boolean;
  /** Where a moderator opens it (listings); null when there is no page for it. */
  url: string | null;
  /** A message's text (moderators cannot open other people's conversations). */
  preview: string | null;
  listing_status: string | null;
  is_hidden: boolean;
  auto_hidden: boolean;
  hidden_reason: string | null;
  user: TargetUser | null;
}

/**
 * A dashboard card (the prototype's moderation view: report_id, target_type, target_id, target_title,
 * reason, description, reporter_display_name, report_count, status, priority, created_at): every
 * report with the card's status on one target, shown by its newest report and its highest priority.
 */
export interface ModerationReportGroup {
  report_id: string;
  target_type: ReportTargetType;
  target_id: string;
  target_title: string;
  reason: string;
  description: string | null;
  reporter_display_name: string;
  report_count: number;
  status: ReportStatus;
  priority: ReportPriority;
  created_at: string;
  reports: ReportEntry[];
  target: ModerationTarget;
}

export interface ModerationPage {
  items: ModerationReportGroup[];
  has_more: boolean;
  next_offset: number | null;
}

function personName(name: string | null | undefined, deleted: unknown): string {
  if (deleted) return DELETED_USER_NAME;
  return name?.trim() || ANONYMOUS_NAME;
}

interface GroupRow {
  target_type: ReportTargetType;
  target_id: string;
  report_count: number;
  priority_rank: number;
}

interface ReportRow {
  id: string;
  target_type: ReportTargetType;
  target_id: string;
  reason: string;
  description: string | null;
  priority: ReportPriority;
  status: ReportStatus;
  created_at: string;
  resolution_action: string | null;
  moderator_notes: string | null;
  resolved_at: string | null;
  reporter_name: string | null;
  reporter_deleted: string | null;
}

interface ReviewTargetRow {
  id: string;
  rating: number;
  text: string | null;
  is_hidden: number;
  hidden_reason: string | null;
  reviewee_id: string;
  reviewee_name: string | null;
  reviewee_deleted: string | null;
}

interface UserRow {
  user_id: string;
  display_name: string | null;
  user_role: Role | null;
  deleted_at: string | null;
  warning_count: number | null;
  is_suspended: number | null;
  suspended_until: string | null;
  suspension_reason: string | null;
}

const USER_COLUMNS = `u.deleted_at, p.display_name, p.role AS user_role, s.warning_count, s.is_suspended, s.suspended_until, s.suspension_reason`;
const USER_JOINS = (idColumn: string) =>
  `LEFT JOIN users u ON u.id = ${idColumn} LEFT JOIN profiles p ON p.user_id = ${idColumn} LEFT JOIN user_moderation_status s ON s.user_id = ${idColumn}`;

function targetUser(row: UserRow | undefined, now: string): TargetUser | null {
  if (!row?.user_id) return null;
  const suspended = !!row.is_suspended && !!row.suspended_until && row.suspended_until > now;
  return {
    id: row.user_id,
    display_name: personName(row.display_name, row.deleted_at),
    role: row.user_role ?? "user",
    deleted: !!row.deleted_at,
    warning_count: row.warning_count ?? 0,
    suspended_until: suspended ? row.suspended_until : null,
    suspension_reason: suspended ? row.suspension_reason : null,
  };
}

/**
 * GET /api/moderation/reports: cards for one status, highest priority and newest first for open
 * reports, most recently decided first for closed ones; `limit` (default 50) per page.
 */
export async function moderationDashboard(db: Db, query: { status: ReportStatus; limit: number; offset: number }): Promise<ModerationPage> {
  const d1 = db.$client;
  const open = query.status === "pending" || query.status === "reviewed";
  const { results: groups } = await d1
    .prepare(
      `SELECT target_type, target_id, COUNT(*) AS report_count, MAX(${PRIORITY_RANK}) AS priority_rank,
              MAX(created_at) AS latest_at, MAX(COALESCE(resolved_at, created_at)) AS decided_at
       FROM reports WHERE status = ?1
       GROUP BY target_type, target_id
       ORDER BY ${open ? "priority_rank DESC, latest_at DESC" : "decided_at DESC"}, target_id
       LIMIT ?2 OFFSET ?3`,
    )
    .bind(query.status, query.limit + 1, query.offset)
    .all<GroupRow>();
  const hasMore = groups.length > query.limit;
  const page = groups.slice(0, query.limit);
  if (page.length === 0) return { items: [], has_more: false, next_offset: null };

  const pairs = JSON.stringify(page.map((g) => [g.target_type, g.target_id]));
  const ofType = (type: ReportTargetType | ReportTargetType[]) =>
    JSON.stringify(
      page.filter((g) => (Array.isArray(type) ? type.includes(g.target_type) : g.target_type === type)).map((g) => g.target_id),
    );
  const [reports, listingRows, messageRows, userRows, reviewRows] = await d1.batch<Record<string, unknown>>([
    d1
      .prepare(
        `SELECT r.id, r.target_type, r.target_id, r.reason, r.description, r.priority, r.status, r.created_at, r.resolution_action,
                r.moderator_notes, r.resolved_at, rp.display_name AS reporter_name, ru.deleted_at AS reporter_deleted
         FROM json_each(?2) j
         JOIN reports r ON r.target_type = json_extract(j.value, '$[0]') AND r.target_id = json_extract(j.value, '$[1]') AND r.status = ?1
         LEFT JOIN users ru ON ru.id = r.reporter_id LEFT JOIN profiles rp ON rp.user_id = r.reporter_id
         ORDER BY r.created_at DESC, r.id`,
      )
      .bind(query.status, pairs),
    d1
      .prepare(
        `SELECT l.id, l.title, l.status, l.is_hidden, l.auto_hidden, l.hidden_reason, l.user_id, ${USER_COLUMNS}
         FROM listings l ${USER_JOINS("l.user_id")} WHERE l.id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(ofType("listing")),
    d1
      .prepare(
        `SELECT m.id, m.content, m.sender_id AS user_id, ${USER_COLUMNS}
         FROM messages m ${USER_JOINS("m.sender_id")} WHERE m.id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(ofType("message")),
    d1
      .prepare(
        `SELECT t.value AS user_id, ${USER_COLUMNS}
         FROM json_each(?1) t ${USER_JOINS("t.value")} WHERE u.id IS NOT NULL`,
      )
      .bind(ofType(["user", "profile"])),
    d1
      .prepare(
        `SELECT r.id, r.rating, r.text, r.is_hidden, r.hidden_reason, r.reviewee_id, r.reviewer_id AS user_id, ep.display_name AS reviewee_name,
                eu.deleted_at AS reviewee_deleted, ${USER_COLUMNS}
         FROM reviews r ${USER_JOINS("r.reviewer_id")} LEFT JOIN users eu ON eu.id = r.reviewee_id LEFT JOIN profiles ep ON ep.user_id = r.reviewee_id
         WHERE r.id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(ofType("review")),
  ]);
  const now = nowIso();
  const byTarget = new Map<string, ReportRow[]>();
  for (const r of reports.results as unknown as ReportRow[]) {
    const key = `${r.target_type}:${r.target_id}`;
    byTarget.set(key, [...(byTarget.get(key) ?? []), r]);
  }
  const listings = new Map(
    (
      listingRows.results as unknown as (UserRow & {
        id: string;
        title: string;
        status: string;
        is_hidden: number;
        auto_hidden: number;
        hidden_reason: string | null;
      })[]
    ).map((r) => [r.id, r]),
  );
  const messages = new Map((messageRows.results as unknown as (UserRow & { id: string; content: string })[]).map((r) => [r.id, r]));
  const users = new Map((userRows.results as unknown as UserRow[]).map((r) => [r.user_id, r]));
  const reviews = new Map((reviewRows.results as unknown as (UserRow & ReviewTargetRow)[]).map((r) => [r.id, r]));

  const items = page.flatMap((g): ModerationReportGroup[] => {
    const entries = byTarget.get(`${g.target_type}:${g.target_id}`) ?? [];
    const newest = entries[0];
    // Decided between the two reads: the card is gone from this status.
    if (!newest) return [];
    let title: string | null = null;
    let target: ModerationTarget = {
      exists: false,
      url: null,
      preview: null,
      listing_status: null,
      is_hidden: false,
      auto_hidden: false,
      hidden_reason: null,
      user: null,
    };
    if (g.target_type === "listing") {
      const l = listings.get(g.target_id);
      if (l) {
        title = l.title;
        target = {
          ...target,
          exists: true,
          url: `/listing/${l.id}`,
          listing_status: l.status,
          is_hidden: !!l.is_hidden,
          auto_hidden: !!l.auto_hidden,
          hidden_reason: l.hidden_reason,
          user: targetUser(l, now),
        };
      }
    } else if (g.target_type === "review") {
      const r = reviews.get(g.target_id);
      if (r) {
        title = `Vurdering av ${personName(r.reviewee_name, r.reviewee_deleted)}`;
        target = {
          ...target,
          exists: true,
          url: r.reviewee_deleted ? null : `/bruker/${r.reviewee_id}`,
          preview: `${r.rating} av 5 stjerner${r.text ? `: ${r.text}` : ""}`,
          is_hidden: !!r.is_hidden,
          hidden_reason: r.hidden_reason,
          user: targetUser(r, now),
        };
      }
    } else if (g.target_type === "message") {
      const m = messages.get(g.target_id);
      if (m) target = { ...target, exists: true, preview: m.content, user: targetUser(m, now) };
    } else {
      const u = users.get(g.target_id);
      if (u) {
        const user = targetUser(u, now);
        title = user?.display_name ?? null;
        target = { ...target, exists: true, user };
      }
    }
    return [
      {
        report_id: newest.id,
        target_type: g.target_type,
        target_id: g.target_id,
        target_title: title ?? fallbackTargetTitle(g.target_type, g.target_id),
        reason: newest.reason,
        description: newest.description,
        reporter_display_name: personName(newest.reporter_name, newest.reporter_deleted),
        report_count: g.report_count,
        status: newest.status,
        priority: PRIORITY_BY_RANK[g.priority_rank] ?? "normal",
        created_at: newest.created_at,
        reports: entries.map((r) => ({
          id: r.id,
          reason: r.reason,
          description: r.description,
          priority: r.priority,
          status: r.status,
          reporter_display_name: personName(r.reporter_name, r.reporter_deleted),
          created_at: r.created_at,
          resolution_action: r.resolution_action,
          moderator_notes: r.moderator_notes,
          resolved_at: r.resolved_at,
        })),
        target,
      },
    ];
  });
  return { items, has_more: hasMore, next_offset: hasMore ? query.offset + query.limit : null };
}

// ---- decisions ---------------------------------------------------------------------------------------

interface ReportHead {
  id: string;
  target_type: ReportTargetType;
  target_id: string;
  reason: string;
  status: ReportStatus;
}

async function loadReport(db: Db, reportId: string): Promise<ReportHead> {
  if (!UUID_RE.test(reportId)) throw new AppError("NOT_FOUND", REPORT_NOT_FOUND);
  const row = await db.$client
    .prepare("SELECT id, target_type, target_id, reason, status FROM reports WHERE id = ?1")
    .bind(reportId)
    .first<ReportHead>();
  if (!row) throw new AppError("NOT_FOUND", REPORT_NOT_FOUND);
  return row;
}

function requireOpen(report: ReportHead): void {
  if (report.status !== "pending" && report.status !== "reviewed") throw new AppError("CONFLICT", ALREADY_DECIDED);
}

/**
 * "Behandle": opening a report marks the pending reports on its target reviewed (Vurdert). An open
 * report stays open; a decided one is refused (409).
 */
export async function reviewReport(db: Db, actor: Actor, reportId: string): Promise<{ reviewed: number }> {
  const report = await loadReport(db, reportId);
  requireOpen(report);
  assertStaffMay(actor, "review", await targetFacts(db, report.target_type, report.target_id));
  const { results } = await db.$client
    .prepare("UPDATE reports SET status = 'reviewed' WHERE target_type = ?1 AND target_id = ?2 AND status = 'pending' RETURNING id")
    .bind(report.target_type, report.target_id)
    .all();
  return { reviewed: results.length };
}

/** What an action is applied to: the target's owner (and their role) and what the effects need. */
interface TargetFacts {
  userId: string | null;
  /** The owner's role (staff are acted on by admins only); "user" when there is no owner. */
  userRole: Role;
  title: string | null;
  conversationId: string | null;
  seq: number | null;
}

/** The owner's role, read with the target (`idColumn` qualified: profiles has a user_id of its own). */
const OWNER_ROLE = (idColumn: string) =>
  `(SELECT COALESCE(MAX(p.role), 'user') FROM profiles p WHERE p.user_id = ${idColumn}) AS user_role`;

async function targetFacts(db: Db, type: ReportTargetType, id: string): Promise<TargetFacts | null> {
  const d1 = db.$client;
  const none = { title: null, conversationId: null, seq: null };
  if (type === "listing") {
    const row = await d1
      .prepare(`SELECT user_id, title, ${OWNER_ROLE("listings.user_id")} FROM listings WHERE id = ?1`)
      .bind(id)
      .first<{ user_id: string; title: string; user_role: Role }>();
    return row ? { ...none, userId: row.user_id, userRole: row.user_role, title: row.title } : null;
  }
  if (type === "message") {
    const row = await d1
      .prepare(`SELECT sender_id, conversation_id, seq, ${OWNER_ROLE("messages.sender_id")} FROM messages WHERE id = ?1`)
      .bind(id)
      .first<{ sender_id: string; conversation_id: string; seq: number; user_role: Role }>();
    return row ? { ...none, userId: row.sender_id, userRole: row.user_role, conversationId: row.conversation_id, seq: row.seq } : null;
  }
  if (type === "review") {
    const row = await d1
      .prepare(`SELECT reviewer_id, ${OWNER_ROLE("reviews.reviewer_id")} FROM reviews WHERE id = ?1`)
      .bind(id)
      .first<{ reviewer_id: string; user_role: Role }>();
    return row ? { ...none, userId: row.reviewer_id, userRole: row.user_role } : null;
  }
  const row = await d1
    .prepare(`SELECT id, ${OWNER_ROLE("users.id")} FROM users WHERE id = ?1`)
    .bind(id)
    .first<{ id: string; user_role: Role }>();
  return row ? { ...none, userId: row.id, userRole: row.user_role } : null;
}

/**
 * The staff rule (domain staffRefusal, docs/decisions/052-moderator-rights.md) for one decision on
 * a target: nobody acts on themselves, only an admin acts on staff, a suspended user has no staff
 * rights. 403 with the reason; checked before anything is written.
 */
function assertStaffMay(actor: Actor, action: StaffAction, facts: TargetFacts | null): void {
  const target = facts?.userId ? { role: facts.userRole, self: facts.userId === actor.id } : null;
  const refusal = staffRefusal(actor, action, target);
  if (refusal) throw new AppError("FORBIDDEN", STAFF_REFUSAL_MESSAGES[refusal]);
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
 * "Moderer rapport" → "Utfør handling". Effects (issue 13):
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
  const db = getDb(env.DB);
  const d1 = db.$client;
  const report = await loadReport(db, reportId);
  requireOpen(report);
  const type = report.target_type;
  if (!ACTIONS_FOR_TARGET[type].includes(input.action)) {
    throw new AppError("VALIDATION", "Denne handlingen passer ikke for denne typen innhold.", { action: "Velg en annen handling" });
  }
  if (input.suspension_days !== undefined && !(isUserTarget(type) && (input.action === "hide" || input.action === "delete"))) {
    throw new AppError("VALIDATION", "Antall dager gjelder bare utestenging av en bruker.", {
      suspension_days: "Gjelder bare utestenging",
    });
  }
  const facts = await targetFacts(db, type, report.target_id);
  assertStaffMay(moderator, input.action, facts);
  if (!facts && input.action !== "approve") throw new AppError("CONFLICT", "Innholdet finnes ikke lenger. Godkjenn eller avvis rapporten.");

  const now = nowIso();
  const actionId = crypto.randomUUID();
  const shownReason = reasonWithNotes(report.reason, input.notes);
  const suspend = isUserTarget(type) && (input.action === "hide" || input.action === "delete");
  const days = input.suspension_days ?? (suspend ? SUSPENSION_DEFAULT_DAYS[input.action as "hide" | "delete"] : 0);
  const until = suspend ? new Date(Date.parse(now) + days * 86_400_000).toISOString() : null;
  const recorded = "EXISTS (SELECT 1 FROM moderation_actions WHERE id = ?9)";

  const statements: D1PreparedStatement[] = [
    d1
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
    return d1.prepare(sql).bind(...bound, actionId);
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
  const results = await d1.batch(statements);
  if (results[0].results.length === 0) throw new AppError("CONFLICT", ALREADY_DECIDED);
  const resolved = results[results.length - 1].results.length;

  // Stored: now the rest of the world hears of it.
  if (type === "listing") await invalidateSitemap(env);
  if (type === "message" && input.action === "delete" && facts?.conversationId) {
    const event: MessageRemovedEvent = { id: report.target_id, seq: facts.seq ?? 0, content: REMOVED_MESSAGE_TEXT };
    await pushConversationEvent(env, facts.conversationId, MESSAGE_REMOVED_EVENT, event);
  }
  // A suspended user's open chats and inbox close at once (docs/decisions/080); they may reopen
  // them to read, but every send is refused while the suspension lasts.
  if (suspend && facts?.userId) await endSessionSockets(env, facts.userId, null, "suspended");
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
  const db = getDb(env.DB);
  const d1 = db.$client;
  const report = await loadReport(db, reportId);
  requireOpen(report);
  const now = nowIso();
  const actionId = crypto.randomUUID();
  const facts = await targetFacts(db, report.target_type, report.target_id);
  assertStaffMay(moderator, "dismiss", facts);
  const recorded = "EXISTS (SELECT 1 FROM moderation_actions WHERE id = ?1)";
  const results = await d1.batch([
    d1
      .prepare(
        `INSERT INTO moderation_actions (id, moderator_id, report_id, target_type, target_id, target_user_id, action_type, reason, notes, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, 'dismiss', ?7, ?8, ?9 WHERE EXISTS (SELECT 1 FROM reports WHERE id = ?3 AND status IN ${OPEN})
         RETURNING id`,
      )
      .bind(actionId, moderator.id, report.id, report.target_type, report.target_id, facts?.userId ?? null, report.reason, notes, now),
    d1
      .prepare(
        `UPDATE listings SET is_hidden = 0, hidden_reason = NULL, hidden_at = NULL, auto_hidden = 0, updated_at = ?3
         WHERE ?2 = 'listing' AND id = ?4 AND auto_hidden = 1 AND ${recorded}`,
      )
      .bind(actionId, report.target_type, now, report.target_id),
    d1
      .prepare(
        `UPDATE reports SET status = 'dismissed', resolution_action = 'dismiss', moderator_notes = ?4, resolved_at = ?5
         WHERE target_type = ?2 AND target_id = ?3 AND status IN ${OPEN} AND ${recorded} RETURNING id`,
      )
      .bind(actionId, report.target_type, report.target_id, notes, now),
  ]);
  if (results[0].results.length === 0) throw new AppError("CONFLICT", ALREADY_DECIDED);
  if (report.target_type === "listing") await invalidateSitemap(env);
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
  if (!UUID_RE.test(targetId)) throw new AppError("NOT_FOUND", "Fant ikke innholdet.");
  if (type === "message") throw new AppError("VALIDATION", "En fjernet melding kan ikke hentes tilbake.");
  const db = getDb(env.DB);
  const d1 = db.$client;
  const facts = await targetFacts(db, type, targetId);
  if (!facts) throw new AppError("NOT_FOUND", "Fant ikke innholdet.");
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
  const results = await d1.batch([
    d1
      .prepare(
        `INSERT INTO moderation_actions (id, moderator_id, target_type, target_id, target_user_id, action_type, notes, created_at)
         SELECT ?1, ?2, ?3, ?5, ?6, 'unhide', ?7, ?8 WHERE ${undoable} RETURNING id`,
      )
      .bind(actionId, moderator.id, type, null, targetId, facts.userId, notes, now),
    listing
      ? d1
          .prepare(
            `UPDATE listings SET is_hidden = 0, hidden_reason = NULL, hidden_at = NULL, auto_hidden = 0, updated_at = ?3 WHERE id = ?2 AND ${recorded}`,
          )
          .bind(actionId, targetId, now)
      : review
        ? d1
            .prepare(`UPDATE reviews SET is_hidden = 0, hidden_reason = NULL, hidden_at = NULL WHERE id = ?2 AND ${recorded}`)
            .bind(actionId, targetId)
        : d1
            .prepare(
              `UPDATE user_moderation_status SET is_suspended = 0, suspended_until = NULL, suspension_reason = NULL, last_action_at = ?3, updated_at = ?3
             WHERE user_id = ?2 AND ${recorded}`,
            )
            .bind(actionId, targetId, now),
  ]);
  if (results[0].results.length === 0) {
    throw new AppError(
      "CONFLICT",
      listing ? "Annonsen er ikke skjult." : review ? "Vurderingen er ikke skjult." : "Brukeren er ikke utestengt.",
    );
  }
  if (listing) await invalidateSitemap(env);
  return { target_type: type, target_id: targetId };
}

// ---- roles (admins) -----------------------------------------------------------------------------------

export interface StaffMember {
  id: string;
  email: string;
  display_name: string | null;
  role: Role;
}

/** Moderators and admins, for the admin's role panel. */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT u.id, u.email, p.display_name, p.role FROM profiles p JOIN users u ON u.id = p.user_id
       WHERE p.role IN ('moderator', 'admin') AND u.deleted_at IS NULL ORDER BY p.role, u.email`,
    )
    .all<StaffMember>();
  return results;
}

/**
 * An admin sets someone's role (also `npm run user:role`). It takes effect on that user's next
 * request: roles are read from D1 every time. An admin cannot change their own role (no lock-out).
 */
export async function changeRole(db: Db, admin: Actor, email: string, role: Role): Promise<StaffMember> {
  const row = await db.$client
    .prepare(
      `UPDATE profiles SET role = ?2, updated_at = ?4
       WHERE user_id = (SELECT id FROM users WHERE email = ?1 AND deleted_at IS NULL AND id <> ?3)
       RETURNING user_id AS id, display_name, role`,
    )
    .bind(email, role, admin.id, nowIso())
    .first<{ id: string; display_name: string | null; role: Role }>();
  if (!row) {
    if (email === admin.email) throw new AppError("CONFLICT", "Du kan ikke endre din egen rolle.");
    throw new AppError("NOT_FOUND", "Fant ingen bruker med denne e-postadressen.");
  }
  return { ...row, email };
}

// ---- what a user sees about themselves ----------------------------------------------------------------

export interface OwnWarning {
  id: string;
  target_type: ReportTargetType;
  target_title: string | null;
  reason: string | null;
  notes: string | null;
  created_at: string;
}

export interface OwnModerationStatus {
  warning_count: number;
  warnings: OwnWarning[];
  suspension: { until: string; reason: string | null } | null;
}

/** GET /api/me/moderation: the user's warnings (newest 20) and current suspension, for the profile. */
export async function ownModerationStatus(db: Db, userId: string): Promise<OwnModerationStatus> {
  const d1 = db.$client;
  const now = nowIso();
  const [status, warnings] = await d1.batch<Record<string, unknown>>([
    d1
      .prepare("SELECT warning_count, is_suspended, suspended_until, suspension_reason FROM user_moderation_status WHERE user_id = ?1")
      .bind(userId),
    d1
      .prepare(
        `SELECT a.id, a.target_type, a.reason, a.notes, a.created_at, l.title AS target_title
         FROM moderation_actions a LEFT JOIN listings l ON a.target_type = 'listing' AND l.id = a.target_id
         WHERE a.target_user_id = ?1 AND a.action_type = 'warn' ORDER BY a.created_at DESC LIMIT 20`,
      )
      .bind(userId),
  ]);
  const row = status.results[0] as
    | { warning_count: number; is_suspended: number; suspended_until: string | null; suspension_reason: string | null }
    | undefined;
  const suspended = !!row?.is_suspended && !!row.suspended_until && row.suspended_until > now;
  return {
    warning_count: row?.warning_count ?? 0,
    warnings: warnings.results as unknown as OwnWarning[],
    suspension: suspended ? { until: row!.suspended_until!, reason: row!.suspension_reason } : null,
  };
}

export type { ModerationActionType };
