// What every moderation decision reads first (decisions.ts): the report it is taken on, which must
// still be open, and the facts of its target (owner, owner's role, what the effects need), against
// which the staff rule is checked (docs/decisions/052-moderator-rights.md).
import {
  STAFF_REFUSAL_MESSAGES,
  staffRefusal,
  type ReportStatus,
  type ReportTargetType,
  type StaffAction,
  MODERATION_REFUSALS,
} from "../../../domain/moderation";
import type { Role } from "../../../domain/roles";
import type { Actor } from "../../env";
import type { Db } from "../../db/client";
import { UUID_RE } from "../../lib/uuid";
import { AppError } from "../../lib/errors";

/** The statuses of an open report, for SQL. */
export const OPEN = "('pending', 'reviewed')";

export interface ReportHead {
  id: string;
  target_type: ReportTargetType;
  target_id: string;
  reason: string;
  status: ReportStatus;
}

export async function loadReport(db: Db, reportId: string): Promise<ReportHead> {
  if (!UUID_RE.test(reportId)) throw new AppError("NOT_FOUND", MODERATION_REFUSALS.reportNotFound);
  const row = await db
    .prepare("SELECT id, target_type, target_id, reason, status FROM reports WHERE id = ?1")
    .bind(reportId)
    .first<ReportHead>();
  if (!row) throw new AppError("NOT_FOUND", MODERATION_REFUSALS.reportNotFound);
  return row;
}

export function requireOpen(report: ReportHead): void {
  if (report.status !== "pending" && report.status !== "reviewed") throw new AppError("CONFLICT", MODERATION_REFUSALS.alreadyDecided);
}

/** What an action is applied to: the target's owner (and their role) and what the effects need. */
export interface TargetFacts {
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

export async function targetFacts(db: Db, type: ReportTargetType, id: string): Promise<TargetFacts | null> {
  const none = { title: null, conversationId: null, seq: null };
  if (type === "listing") {
    const row = await db
      .prepare(`SELECT user_id, title, ${OWNER_ROLE("listings.user_id")} FROM listings WHERE id = ?1`)
      .bind(id)
      .first<{ user_id: string; title: string; user_role: Role }>();
    return row ? { ...none, userId: row.user_id, userRole: row.user_role, title: row.title } : null;
  }
  if (type === "message") {
    const row = await db
      .prepare(`SELECT sender_id, conversation_id, seq, ${OWNER_ROLE("messages.sender_id")} FROM messages WHERE id = ?1`)
      .bind(id)
      .first<{ sender_id: string; conversation_id: string; seq: number; user_role: Role }>();
    return row ? { ...none, userId: row.sender_id, userRole: row.user_role, conversationId: row.conversation_id, seq: row.seq } : null;
  }
  if (type === "review") {
    const row = await db
      .prepare(`SELECT reviewer_id, ${OWNER_ROLE("reviews.reviewer_id")} FROM reviews WHERE id = ?1`)
      .bind(id)
      .first<{ reviewer_id: string; user_role: Role }>();
    return row ? { ...none, userId: row.reviewer_id, userRole: row.user_role } : null;
  }
  const row = await db
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
export function assertStaffMay(actor: Actor, action: StaffAction, facts: TargetFacts | null): void {
  const target = facts?.userId ? { role: facts.userRole, self: facts.userId === actor.id } : null;
  const refusal = staffRefusal(actor, action, target);
  if (refusal) throw new AppError("FORBIDDEN", STAFF_REFUSAL_MESSAGES[refusal]);
}
