import { RATE_RULES, type RateRule } from "../../../domain/rate-limits";
import type { Bindings } from "../../env";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { isoIn, nowIso, randomToken, sha256Hex } from "../../lib/crypto";
import { refreshSuccessorToken } from "../../lib/jwt";
import type { ClientInfo } from "../../lib/request";
import { clientColumns, REFRESH_TTL_SECONDS, sessionUser, startSession, withAccessToken, type IssuedSession } from "./session-issue";
import type { DeviceCookie } from "./device-cookie";
import { DUMMY_PASSWORD_HASH, hashPassword, passwordHashParams, verifyPassword } from "./password";
import { endSessionSockets, type SessionEndReason } from "../chat/live";
import { confirmationMail, sendMail } from "../mail/mail";
import { enforceRateLimits, takeRateLimit } from "../../lib/rate-limit";
import { AUTH_REFUSALS } from "../../../domain/auth";
import type { RowOf } from "../../db/rows";
import type { profiles } from "../account/schema";
import type { users } from "./schema";

export { REFRESH_ABSOLUTE_TTL_SECONDS, REFRESH_TTL_SECONDS, type IssuedSession, type SessionUser } from "./session-issue";

export const CONFIRMATION_CODE_TTL_SECONDS = 24 * 3600;
/** A rotated refresh token presented again within this many seconds is a concurrent refresh, not reuse. */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/** A user with the profile's name and role (users JOIN profiles). */
type UserRow = Pick<RowOf<typeof users>, "id" | "email" | "password_hash" | "email_confirmed_at" | "deleted_at"> &
  Pick<RowOf<typeof profiles>, "display_name" | "role">;

async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  return db
    .prepare(
      `SELECT u.id, u.email, u.password_hash, u.email_confirmed_at, u.deleted_at, p.display_name, COALESCE(p.role, 'user') AS role
       FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.email = ?1`,
    )
    .bind(email)
    .first<UserRow>();
}

async function createConfirmationCode(db: Db, userId: string): Promise<string> {
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
    // The message of docs/product.md "Error messages" names the case; an unconfirmed account gets a fresh link instead of a dead end.
    if (!existing.email_confirmed_at && !existing.deleted_at)
      await sendConfirmation(env, origin, existing.id, existing.email, existing.display_name ?? "");
    throw new AppError("EMAIL_TAKEN");
  }
  const id = crypto.randomUUID();
  const passwordHash = await hashPassword(input.password, passwordHashParams(env));
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

export interface SignInAttempt {
  email: string;
  password: string;
  client: ClientInfo;
  /** The verified device cookie the browser sent (lib/device-cookie.ts), if any. */
  device: DeviceCookie | null;
  /** What an unknown device meets, narrowest first: per address and account, per address, per account. */
  unknownDeviceLimits: ReadonlyArray<readonly [RateRule, string]>;
}

/**
 * Sign in with e-mail and password, throttled so strangers cannot lock the owner out
 * (docs/decisions/084-device-cookies.md): a device cookie of this very account is limited only by
 * its own attempts (RATE_RULES.signinDevice) and never by others' failures; an unknown device, a
 * cookie of another account, or a cookie over its own limit meets `unknownDeviceLimits`.
 */
export async function signIn(env: Bindings, attempt: SignInAttempt): Promise<IssuedSession> {
  const { email, password, client, device } = attempt;
  const db = env.DB;
  const user = await findUserByEmail(db, email);
  const known =
    device !== null && user !== null && device.userId === user.id && (await takeRateLimit(db, RATE_RULES.signinDevice, device.nonce));
  if (!known) await enforceRateLimits(db, attempt.unknownDeviceLimits);
  // Unknown e-mail and wrong password look the same, and cost the same scrypt time.
  const ok = await verifyPassword(password, user && !user.deleted_at ? user.password_hash : DUMMY_PASSWORD_HASH);
  if (!user || user.deleted_at || !ok) throw new AppError("INVALID_CREDENTIALS");
  if (!user.email_confirmed_at) throw new AppError("EMAIL_NOT_CONFIRMED");
  return startSession(env, { id: user.id, email: user.email, display_name: user.display_name, role: user.role }, client);
}

/** Exchange a one-time e-mail code for a session; the code is consumed by a conditional update. */
export async function exchangeCode(env: Bindings, code: string, client: ClientInfo): Promise<IssuedSession> {
  const hash = await sha256Hex(code);
  const now = nowIso();
  const consumed = await env.DB.prepare(
    "UPDATE email_codes SET used_at = ?2 WHERE code_hash = ?1 AND used_at IS NULL AND expires_at > ?2 RETURNING user_id",
  )
    .bind(hash, now)
    .first<{ user_id: string }>();
  if (!consumed) throw new AppError("INVALID_CODE");
  await env.DB.prepare(
    "UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, ?2), updated_at = ?2 WHERE id = ?1 AND deleted_at IS NULL",
  )
    .bind(consumed.user_id, now)
    .run();
  const user = await sessionUser(env.DB, consumed.user_id);
  if (!user) throw new AppError("INVALID_CODE");
  return startSession(env, user, client);
}

/** Outcome of presenting a refresh token. */
export type RefreshResult =
  | { kind: "issued"; session: IssuedSession }
  /** A repeat within the grace whose successor has moved on: refused, but nothing is revoked or cleared. */
  | { kind: "stale" };

/**
 * Rotate a refresh token (docs/decisions/006-sessions.md). The successor is derived from the
 * presented token with an HMAC under the server secret, so a repeat of the same token can be given
 * the very successor already issued without storing any token in the clear:
 * - first use: one D1 batch inserts the successor (same family, sliding expiry capped by the
 *   family's absolute end) and marks the token rotated, both only while it is unrotated, unrevoked
 *   and unexpired, so concurrent refreshes of one token make exactly one successor;
 * - a repeat within REFRESH_REUSE_GRACE_SECONDS (two tabs refreshing at once) gets that same
 *   successor while it is still live, never a new chain;
 * - a repeat after the grace, or of a revoked token, is reuse: the whole family is revoked.
 */
export async function refreshSession(env: Bindings, refreshToken: string, client: ClientInfo): Promise<RefreshResult> {
  const db = env.DB;
  const hash = await sha256Hex(refreshToken);
  const successor = await refreshSuccessorToken(env, refreshToken);
  const successorHash = await sha256Hex(successor);
  const now = nowIso();
  // The same condition guards both statements: the token is live and its family is not revoked.
  const live = `token_hash = ?1 AND rotated_at IS NULL AND revoked_at IS NULL AND expires_at > ?2
    AND (family_expires_at IS NULL OR family_expires_at > ?2)
    AND NOT EXISTS (SELECT 1 FROM sessions f WHERE f.family_id = sessions.family_id AND f.revoked_at IS NOT NULL)`;
  const [, rotatedResult] = await db.batch([
    db
      .prepare(
        `INSERT INTO sessions (id, user_id, family_id, token_hash, expires_at, family_expires_at, user_agent, city, country)
         SELECT ?3, user_id, family_id, ?4, MIN(?5, COALESCE(family_expires_at, ?5)), family_expires_at, ?6, ?7, ?8 FROM sessions WHERE ${live}`,
      )
      .bind(hash, now, crypto.randomUUID(), successorHash, isoIn(REFRESH_TTL_SECONDS), ...clientColumns(client)),
    db.prepare(`UPDATE sessions SET rotated_at = ?2 WHERE ${live} RETURNING user_id, family_id`).bind(hash, now),
  ]);
  const rotated = (rotatedResult.results as { user_id: string; family_id: string }[])[0];
  if (rotated) {
    const user = await sessionUser(db, rotated.user_id);
    if (!user) throw new AppError("UNAUTHENTICATED", AUTH_REFUSALS.sessionExpired);
    const next = await liveSession(db, successorHash, now);
    if (!next) throw new AppError("UNAUTHENTICATED", AUTH_REFUSALS.sessionExpired);
    return { kind: "issued", session: await withAccessToken(env, user, rotated.family_id, successor, next.expires_at) };
  }

  const known = await db
    .prepare("SELECT user_id, family_id, rotated_at, revoked_at FROM sessions WHERE token_hash = ?1")
    .bind(hash)
    .first<{ user_id: string; family_id: string; rotated_at: string | null; revoked_at: string | null }>();
  if (!known) throw new AppError("UNAUTHENTICATED", AUTH_REFUSALS.sessionExpired);
  if (!known.rotated_at && !known.revoked_at) {
    // Expired (sliding or absolute) or its family was revoked: nothing to rotate, nothing to punish.
    throw new AppError("UNAUTHENTICATED", AUTH_REFUSALS.sessionExpired);
  }
  const withinGrace =
    !known.revoked_at && known.rotated_at !== null && Date.parse(known.rotated_at) > Date.now() - REFRESH_REUSE_GRACE_SECONDS * 1000;
  if (withinGrace) {
    // Two tabs presented the same token: hand back the successor the first one got.
    const next = await liveSession(db, successorHash, now);
    const user = next ? await sessionUser(db, known.user_id) : null;
    if (!next || !user) return { kind: "stale" };
    return { kind: "issued", session: await withAccessToken(env, user, known.family_id, successor, next.expires_at) };
  }
  await revokeFamily(db, known.family_id);
  // Both the thief's and the owner's open sockets of that family close with it.
  await endSessionSockets(env, known.user_id, known.family_id, "session revoked");
  throw new AppError("UNAUTHENTICATED", AUTH_REFUSALS.sessionExpired);
}

/** A refresh token row that may still be rotated (its family not revoked). */
async function liveSession(db: Db, tokenHash: string, now: string): Promise<{ expires_at: string } | null> {
  return db
    .prepare(
      `SELECT expires_at FROM sessions
       WHERE token_hash = ?1 AND rotated_at IS NULL AND revoked_at IS NULL AND expires_at > ?2
         AND (family_expires_at IS NULL OR family_expires_at > ?2)
         AND NOT EXISTS (SELECT 1 FROM sessions f WHERE f.family_id = sessions.family_id AND f.revoked_at IS NOT NULL)`,
    )
    .bind(tokenHash, now)
    .first<{ expires_at: string }>();
}

export async function revokeFamily(db: Db, family: string): Promise<void> {
  await db.prepare("UPDATE sessions SET revoked_at = ?2 WHERE family_id = ?1 AND revoked_at IS NULL").bind(family, nowIso()).run();
}

/**
 * End every session of the user (but `keep`, the one that asked, when given) and close their
 * sockets: a password change, "Logg ut alle andre", a stopped e-mail change (decision 080).
 */
export async function revokeAllSessions(
  env: Bindings,
  userId: string,
  reason: SessionEndReason = "password changed",
  keep?: string,
): Promise<void> {
  await env.DB.prepare("UPDATE sessions SET revoked_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL AND family_id IS NOT ?3")
    .bind(userId, nowIso(), keep ?? null)
    .run();
  await endSessionSockets(env, userId, null, reason, keep);
}

/** Sign out by the access token's family and by refresh token (if any); their sockets close at once. */
export async function signOut(
  env: Bindings,
  actor: { id: string; sessionFamily: string } | null,
  refreshToken: string | undefined,
): Promise<void> {
  const ended = new Map<string, string>(); // family → user
  if (actor) ended.set(actor.sessionFamily, actor.id);
  if (refreshToken) {
    const row = await env.DB.prepare("SELECT user_id, family_id FROM sessions WHERE token_hash = ?1")
      .bind(await sha256Hex(refreshToken))
      .first<{
        user_id: string;
        family_id: string;
      }>();
    if (row) ended.set(row.family_id, row.user_id);
  }
  for (const family of ended.keys()) await revokeFamily(env.DB, family);
  await Promise.all([...ended].map(([family, userId]) => endSessionSockets(env, userId, family, "signed out")));
}
