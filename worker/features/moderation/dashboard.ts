// The moderation dashboard (docs/product.md "Moderation", "States", "Server calls";
// docs/decisions/050-moderation.md): one card per reported target with every report on it, the
// target's state and its owner's record, read in one D1 batch per page.
import { DELETED_USER_NAME, ANONYMOUS_NAME } from "../../../domain/chat";
import { fallbackTargetTitle, type ReportPriority, type ReportStatus, type ReportTargetType } from "../../../domain/moderation";
import type { Role } from "../../../domain/roles";
import type { Db } from "../../db/client";
import { nowIso } from "../../lib/crypto";

const PRIORITY_RANK = "CASE priority WHEN 'urgent' THEN 3 WHEN 'high' THEN 2 WHEN 'normal' THEN 1 ELSE 0 END";
const PRIORITY_BY_RANK: ReportPriority[] = ["low", "normal", "high", "urgent"];

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
  const open = query.status === "pending" || query.status === "reviewed";
  const { results: groups } = await db
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
  const [reports, listingRows, messageRows, userRows, reviewRows] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT r.id, r.target_type, r.target_id, r.reason, r.description, r.priority, r.status, r.created_at, r.resolution_action,
                r.moderator_notes, r.resolved_at, rp.display_name AS reporter_name, ru.deleted_at AS reporter_deleted
         FROM json_each(?2) j
         JOIN reports r ON r.target_type = json_extract(j.value, '$[0]') AND r.target_id = json_extract(j.value, '$[1]') AND r.status = ?1
         LEFT JOIN users ru ON ru.id = r.reporter_id LEFT JOIN profiles rp ON rp.user_id = r.reporter_id
         ORDER BY r.created_at DESC, r.id`,
      )
      .bind(query.status, pairs),
    db
      .prepare(
        `SELECT l.id, l.title, l.status, l.is_hidden, l.auto_hidden, l.hidden_reason, l.user_id, ${USER_COLUMNS}
         FROM listings l ${USER_JOINS("l.user_id")} WHERE l.id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(ofType("listing")),
    db
      .prepare(
        `SELECT m.id, m.content, m.sender_id AS user_id, ${USER_COLUMNS}
         FROM messages m ${USER_JOINS("m.sender_id")} WHERE m.id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(ofType("message")),
    db
      .prepare(
        `SELECT t.value AS user_id, ${USER_COLUMNS}
         FROM json_each(?1) t ${USER_JOINS("t.value")} WHERE u.id IS NOT NULL`,
      )
      .bind(ofType(["user", "profile"])),
    db
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
