// Staff roles (docs/decisions/052-moderator-rights.md): admins list moderators and admins and set
// anyone's role; roles are read from D1 on every request, so a change takes effect at once.
import type { Role } from "../../../domain/roles";
import type { Actor } from "../../env";
import type { Db } from "../../db/client";
import { nowIso } from "../../lib/crypto";
import { AppError } from "../../lib/errors";
import { MODERATION_REFUSALS } from "../../../domain/moderation";

export interface StaffMember {
  id: string;
  email: string;
  display_name: string | null;
  role: Role;
}

/** Moderators and admins, for the admin's role panel. */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  const { results } = await db
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
  const row = await db
    .prepare(
      `UPDATE profiles SET role = ?2, updated_at = ?4
       WHERE user_id = (SELECT id FROM users WHERE email = ?1 AND deleted_at IS NULL AND id <> ?3)
       RETURNING user_id AS id, display_name, role`,
    )
    .bind(email, role, admin.id, nowIso())
    .first<{ id: string; display_name: string | null; role: Role }>();
  if (!row) {
    if (email === admin.email) throw new AppError("CONFLICT", MODERATION_REFUSALS.ownRole);
    throw new AppError("NOT_FOUND", MODERATION_REFUSALS.noUserWithEmail);
  }
  return { ...row, email };
}
