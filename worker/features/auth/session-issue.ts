// Issuing a session (docs/decisions/006-sessions.md): a new family's first refresh-token row, and
// the access token beside it. Sign-in, the confirmation link and "Lag nytt passord" start one; the
// last does it inside the batch that spends its link, so the row exists only if the link was won.
import type { Bindings } from "../../env";
import type { Db } from "../../db/client";
import { isoIn, randomToken, sha256Hex } from "../../lib/crypto";
import { signAccessToken } from "../../lib/jwt";
import type { ClientInfo } from "../../lib/request";

/** A refresh token's sliding lifetime: each rotation gives the successor this long (capped below). */
export const REFRESH_TTL_SECONDS = 30 * 24 * 3600;
/** Absolute lifetime of a sign-in: no rotation extends a family beyond this (then sign in again). */
export const REFRESH_ABSOLUTE_TTL_SECONDS = 90 * 24 * 3600;

export interface SessionUser {
  id: string;
  email: string;
  display_name: string | null;
  role: "user" | "moderator" | "admin";
}

export interface IssuedSession {
  user: SessionUser;
  accessToken: string;
  refreshToken: string;
  /** Access token expiry, epoch seconds. */
  expiresAt: number;
  /** Seconds the refresh token (and so its cookie) stays valid. */
  refreshMaxAge: number;
}

/** What a session row remembers of the device: shown under "Innlogget på". */
export function clientColumns(client: ClientInfo): [string | null, string | null, string | null] {
  return [client.userAgent?.slice(0, 300) ?? null, client.city?.slice(0, 100) ?? null, client.country?.slice(0, 2) ?? null];
}

export async function sessionUser(db: Db, userId: string): Promise<SessionUser | null> {
  return db
    .prepare(
      `SELECT u.id, u.email, p.display_name, COALESCE(p.role, 'user') AS role
       FROM users u LEFT JOIN profiles p ON p.user_id = u.id
       WHERE u.id = ?1 AND u.deleted_at IS NULL AND u.email_confirmed_at IS NOT NULL`,
    )
    .bind(userId)
    .first<SessionUser>();
}

/** Seconds from now until an ISO timestamp (at least 0). */
function secondsUntil(iso: string): number {
  return Math.max(0, Math.floor((Date.parse(iso) - Date.now()) / 1000));
}

/** A new family not yet stored: its first refresh token and the columns of its row. */
export interface NewFamily {
  family: string;
  refreshToken: string;
  tokenHash: string;
  expiresAt: string;
  familyExpiresAt: string;
}

export async function newFamily(): Promise<NewFamily> {
  const refreshToken = randomToken(32);
  return {
    family: crypto.randomUUID(),
    refreshToken,
    tokenHash: await sha256Hex(refreshToken),
    expiresAt: isoIn(REFRESH_TTL_SECONDS),
    familyExpiresAt: isoIn(REFRESH_ABSOLUTE_TTL_SECONDS),
  };
}

/**
 * The row of a new family for the user that `userIdSql` names: a sub-select whose parameters are
 * `?9` onward (`userIdParams`), so the row is written only when the sub-select finds a user.
 */
export function familyRowStatement(
  d1: Db,
  f: NewFamily,
  client: ClientInfo,
  userIdSql: string,
  ...userIdParams: unknown[]
): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO sessions (id, user_id, family_id, token_hash, expires_at, family_expires_at, user_agent, city, country)
       SELECT ?1, u.id, ?2, ?3, ?4, ?5, ?6, ?7, ?8 FROM users u WHERE u.id = (${userIdSql})`,
    )
    .bind(crypto.randomUUID(), f.family, f.tokenHash, f.expiresAt, f.familyExpiresAt, ...clientColumns(client), ...userIdParams);
}

/** A new family (one sign-in): its first refresh token, and the family's absolute end. */
export async function startSession(env: Bindings, user: SessionUser, client: ClientInfo): Promise<IssuedSession> {
  const f = await newFamily();
  await familyRowStatement(env.DB, f, client, "?9", user.id).run();
  return withAccessToken(env, user, f.family, f.refreshToken, f.expiresAt);
}

export async function withAccessToken(
  env: Bindings,
  user: SessionUser,
  family: string,
  refreshToken: string,
  refreshExpiresAt: string,
): Promise<IssuedSession> {
  const access = await signAccessToken(env, user.id, family);
  return { user, accessToken: access.token, refreshToken, expiresAt: access.expiresAt, refreshMaxAge: secondsUntil(refreshExpiresAt) };
}
