// What a user sees about their own moderation record on the profile (docs/decisions/051-suspensions.md).
import type { ReportTargetType } from "../../../domain/moderation";
import type { Db } from "../../db/client";
import { nowIso } from "../../lib/crypto";

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
  const now = nowIso();
  const [status, warnings] = await db.batch<Record<string, unknown>>([
    db
      .prepare("SELECT warning_count, is_suspended, suspended_until, suspension_reason FROM user_moderation_status WHERE user_id = ?1")
      .bind(userId),
    db
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
