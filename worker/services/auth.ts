import type { Bindings } from "../env";
import { AppError } from "../lib/errors";
import { isoIn, nowIso, randomToken, sha256Hex } from "../lib/crypto";
import { signAccessToken } from "../lib/jwt";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "../lib/password";
import { REFRESH_TTL_SECONDS } from "../lib/cookies";
import { confirmationMail, sendMail } from "./mail";

export const CONFIRMATION_CODE_TTL_SECONDS = 24 * 3600;
/** A rotated refresh token presented again within this many seconds is a concurrent refresh, not reuse. */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

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
}

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  email_confirmed_at: string | null;
  deleted_at: string | null;
  display_name: string | null;
  role: SessionUser["role"];
}

async function findUserByEmail(db: D1Database, email: string): Promise<UserRow | null> {
  return db
    .prepare(
      `SELECT u.id, u.email, u.password_hash, u.email_confirmed_at, u.deleted_at, p.display_name, COALESCE(p.role, 'user') AS role
       FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.email = ?1`,
    )
    .bind(email)
    .first<UserRow>();
}

export async function sessionUser(db: D1Database, userId: string): Promise<SessionUser | null> {
  return db
    .prepare(
      `SELECT u.id, u.email, p.display_name, COALESCE(p.role, 'user') AS role
       FROM users u LEFT JOIN profiles p ON p.user_id = u.id
       WHERE u.id = ?1 AND u.deleted_at IS NULL AND u.email_confirmed_at IS NOT NULL`,
    )
    .bind(userId)
    .first<SessionUser>();
}

async function createConfirmationCode(db: D1Database, userId: string): Promise<string> {
  const code = randomToken(32);
  await db
    .prepare("INSERT INTO email_codes (id, user_id, code_hash, purpose, expires_at) VALUES (?1, ?2, ?3, 'signup', ?4)")
    .bind(crypto.randomUUID(), userId, await sha256Hex(code), isoIn(CONFIRMATION_CODE_TTL_SECONDS))
    .run();
  return code;
}

function callbackLink(origin: string, code: string): string {
  return `${origin}/auth/callback?code=${encodeURIComponent(code)}`;
}

export async function signUp(
  env: Bindings,
  origin: string,
  input: { display_name: string; email: string; password: string; postal_code: string | null },
): Promise<void> {
  const existing = await findUserByEmail(env.DB, input.email);
  if (existing) {
    // The spec's message names the case; an unconfirmed account gets a fresh link instead of a dead end.
    if (!existing.email_confirmed_at && !existing.deleted_at) await sendConfirmation(env, origin, existing.id, existing.email, existing.display_name ?? "");
    throw new AppError("EMAIL_TAKEN");
  }
  const id = crypto.randomUUID();
  const passwordHash = await hashPassword(input.password);
  try {
    await env.DB.batch([
      env.DB.prepare("INSERT INTO users (id, email, password_hash) VALUES (?1, ?2, ?3)").bind(id, input.email, passwordHash),
      env.DB.prepare("INSERT INTO profiles (user_id, display_name, postal_code) VALUES (?1, ?2, ?3)").bind(
        id,
        input.display_name,
        input.postal_code,
      ),
    ]);
  } catch (err) {
    if (String(err).includes("UNIQUE")) throw new AppError("EMAIL_TAKEN");
    throw err;
  }
  await sendConfirmation(env, origin, id, input.email, input.display_name);
}

async function sendConfirmation(env: Bindings, origin: string, userId: string, email: string, displayName: string): Promise<void> {
  const code = await createConfirmationCode(env.DB, userId);
  await sendMail(env, confirmationMail(env, email, displayName, callbackLink(origin, code)));
}

/** Always succeeds from the caller's view, so it does not reveal which e-mails exist. */
export async function resendConfirmation(env: Bindings, origin: string, email: string): Promise<void> {
  const user = await findUserByEmail(env.DB, email);
  if (!user || user.email_confirmed_at || user.deleted_at) return;
  await sendConfirmation(env, origin, user.id, user.email, user.display_name ?? "");
}

async function issueSession(env: Bindings, user: SessionUser, family: string, userAgent: string | null): Promise<IssuedSession> {
  const refreshToken = randomToken(32);
  await env.DB.prepare(
    "INSERT INTO sessions (id, user_id, family_id, token_hash, expires_at, user_agent) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  )
    .bind(crypto.randomUUID(), user.id, family, await sha256Hex(refreshToken), isoIn(REFRESH_TTL_SECONDS), userAgent?.slice(0, 300) ?? null)
    .run();
  const access = await signAccessToken(env, user.id, family);
  return { user, accessToken: access.token, refreshToken, expiresAt: access.expiresAt };
}

export async function signIn(env: Bindings, email: string, password: string, userAgent: string | null): Promise<IssuedSession> {
  const user = await findUserByEmail(env.DB, email);
  // Unknown e-mail and wrong password look the same, and cost the same scrypt time.
  const ok = await verifyPassword(password, user && !user.deleted_at ? user.password_hash : DUMMY_PASSWORD_HASH);
  if (!user || user.deleted_at || !ok) throw new AppError("INVALID_CREDENTIALS");
  if (!user.email_confirmed_at) throw new AppError("EMAIL_NOT_CONFIRMED");
  return issueSession(env, { id: user.id, email: user.email, display_name: user.display_name, role: user.role }, crypto.randomUUID(), userAgent);
}

/** Exchange a one-time e-mail code for a session; the code is consumed by a conditional update. */
export async function exchangeCode(env: Bindings, code: string, userAgent: string | null): Promise<IssuedSession> {
  const hash = await sha256Hex(code);
  const now = nowIso();
  const consumed = await env.DB.prepare(
    "UPDATE email_codes SET used_at = ?2 WHERE code_hash = ?1 AND used_at IS NULL AND expires_at > ?2 RETURNING user_id",
  )
    .bind(hash, now)
    .first<{ user_id: string }>();
  if (!consumed) throw new AppError("INVALID_CODE");
  await env.DB.prepare("UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, ?2), updated_at = ?2 WHERE id = ?1 AND deleted_at IS NULL")
    .bind(consumed.user_id, now)
    .run();
  const user = await sessionUser(env.DB, consumed.user_id);
  if (!user) throw new AppError("INVALID_CODE");
  return issueSession(env, user, crypto.randomUUID(), userAgent);
}

/**
 * Rotate a refresh token. A token that was already rotated (or revoked) is reuse: the whole
 * family is revoked, so a stolen token and the legitimate one both stop working.
 */
export async function refreshSession(env: Bindings, refreshToken: string, userAgent: string | null): Promise<IssuedSession> {
  const hash = await sha256Hex(refreshToken);
  const now = nowIso();
  const rotated = await env.DB.prepare(
    `UPDATE sessions SET rotated_at = ?2
     WHERE token_hash = ?1 AND rotated_at IS NULL AND revoked_at IS NULL AND expires_at > ?2
     RETURNING user_id, family_id`,
  )
    .bind(hash, now)
    .first<{ user_id: string; family_id: string }>();
  if (!rotated) {
    const known = await env.DB.prepare("SELECT user_id, family_id, rotated_at, revoked_at FROM sessions WHERE token_hash = ?1")
      .bind(hash)
      .first<{ user_id: string; family_id: string; rotated_at: string | null; revoked_at: string | null }>();
    // Two tabs refreshing at the same moment present the same token: the one rotated a few seconds
    // ago is a benign race, not theft, and gets a new token in the same family.
    const benign =
      known && !known.revoked_at && known.rotated_at && Date.parse(known.rotated_at) > Date.now() - REFRESH_REUSE_GRACE_SECONDS * 1000;
    if (benign) {
      const user = await sessionUser(env.DB, known.user_id);
      if (user) return issueSession(env, user, known.family_id, userAgent);
    }
    if (known) await revokeFamily(env.DB, known.family_id);
    throw new AppError("UNAUTHENTICATED", "Økten er utløpt. Logg inn på nytt.");
  }
  const family = await env.DB.prepare("SELECT 1 AS ok FROM sessions WHERE family_id = ?1 AND revoked_at IS NOT NULL LIMIT 1")
    .bind(rotated.family_id)
    .first();
  const user = await sessionUser(env.DB, rotated.user_id);
  if (family || !user) throw new AppError("UNAUTHENTICATED", "Økten er utløpt. Logg inn på nytt.");
  return issueSession(env, user, rotated.family_id, userAgent);
}

export async function revokeFamily(db: D1Database, family: string): Promise<void> {
  await db.prepare("UPDATE sessions SET revoked_at = ?2 WHERE family_id = ?1 AND revoked_at IS NULL").bind(family, nowIso()).run();
}

export async function revokeAllSessions(db: D1Database, userId: string): Promise<void> {
  await db.prepare("UPDATE sessions SET revoked_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL").bind(userId, nowIso()).run();
}

/** Sign out by refresh token (if any) and by the access token's family. */
export async function signOut(env: Bindings, family: string | null, refreshToken: string | undefined): Promise<void> {
  if (family) await revokeFamily(env.DB, family);
  if (refreshToken) {
    const row = await env.DB.prepare("SELECT family_id FROM sessions WHERE token_hash = ?1").bind(await sha256Hex(refreshToken)).first<{
      family_id: string;
    }>();
    if (row) await revokeFamily(env.DB, row.family_id);
  }
}
