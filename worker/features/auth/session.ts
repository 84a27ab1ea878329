import type { Actor, Bindings } from "../../env";
import { nowIso } from "../../lib/crypto";
import { verifyAccessToken } from "../../lib/jwt";

/**
 * The signed-in user behind an access token, read from D1 every time: the role, the account's
 * state (a suspension too: it takes away staff rights) and the session family's revocation and
 * absolute end never come from the token itself. Always from the primary (env.DB), never from the
 * request's replica session: a sign-out, revocation, deletion or suspension counts from the next
 * request, not after a replica's lag (docs/decisions/110-read-replicas.md).
 */
export async function actorForAccessToken(env: Bindings, token: string): Promise<Actor | null> {
  const claims = await verifyAccessToken(env, token);
  if (!claims) return null;
  const row = await env.DB.prepare(
    `SELECT u.id, u.email, p.display_name, COALESCE(p.role, 'user') AS role,
       EXISTS (SELECT 1 FROM user_moderation_status m WHERE m.user_id = u.id AND m.is_suspended = 1 AND m.suspended_until > ?3) AS suspended
     FROM users u LEFT JOIN profiles p ON p.user_id = u.id
     WHERE u.id = ?1 AND u.deleted_at IS NULL AND u.email_confirmed_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.family_id = ?2 AND s.revoked_at IS NOT NULL)
       AND EXISTS (SELECT 1 FROM sessions s WHERE s.family_id = ?2 AND s.user_id = u.id
                   AND (s.family_expires_at IS NULL OR s.family_expires_at > ?3))`,
  )
    .bind(claims.userId, claims.family, nowIso())
    .first<{ id: string; email: string; display_name: string | null; role: Actor["role"]; suspended: number }>();
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    suspended: !!row.suspended,
    sessionFamily: claims.family,
    accessExpiresAt: claims.expiresAt,
  };
}
