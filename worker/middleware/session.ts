import { createMiddleware } from "hono/factory";
import type { Actor, AppEnv } from "../env";
import { AppError } from "../lib/errors";
import { readAccessCookie } from "../lib/cookies";
import { verifyAccessToken } from "../lib/jwt";

/**
 * Resolve the signed-in user for this request from the access cookie. The role, the account's
 * state and the session family's revocation are read from D1 every time, never from the token.
 */
export const loadActor = createMiddleware<AppEnv>(async (c, next) => {
  c.set("actor", null);
  const token = readAccessCookie(c);
  if (token) {
    const claims = await verifyAccessToken(c.env, token);
    if (claims) {
      const row = await c.env.DB.prepare(
        `SELECT u.id, u.email, p.display_name, COALESCE(p.role, 'user') AS role
         FROM users u LEFT JOIN profiles p ON p.user_id = u.id
         WHERE u.id = ?1 AND u.deleted_at IS NULL AND u.email_confirmed_at IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.family_id = ?2 AND s.revoked_at IS NOT NULL)
           AND EXISTS (SELECT 1 FROM sessions s WHERE s.family_id = ?2 AND s.user_id = u.id)`,
      )
        .bind(claims.userId, claims.family)
        .first<{ id: string; email: string; display_name: string | null; role: Actor["role"] }>();
      if (row) c.set("actor", { id: row.id, email: row.email, displayName: row.display_name, role: row.role, sessionFamily: claims.family, accessExpiresAt: claims.expiresAt });
    }
  }
  await next();
});

export const requireUser = createMiddleware<AppEnv & { Variables: { actor: Actor } }>(async (c, next) => {
  if (!c.get("actor")) throw new AppError("UNAUTHENTICATED");
  await next();
});

export function requireRole(...roles: Actor["role"][]) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const actor = c.get("actor");
    if (!actor) throw new AppError("UNAUTHENTICATED");
    if (!roles.includes(actor.role)) throw new AppError("FORBIDDEN");
    await next();
  });
}

/** The actor of a route behind requireUser. */
export function actorOf(c: { get(key: "actor"): Actor | null }): Actor {
  const actor = c.get("actor");
  if (!actor) throw new AppError("UNAUTHENTICATED");
  return actor;
}
