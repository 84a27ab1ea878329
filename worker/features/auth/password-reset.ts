// "Glemt passord?" and "Lag nytt passord" (docs/decisions/125-account-recovery.md). A request does
// the same work whether or not the address has an account, and the mail goes out after the answer;
// a link is single-use, lives 60 minutes, is stored only as a hash, and a newer link or any
// password change makes it useless. Using it sets the password, ends every session and signs in the
// browser that used it, in one D1 batch.
import { LINK_REFUSALS, PASSWORD_RESET_TTL_SECONDS, type LinkRefusal } from "../../../domain/credentials";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { isoIn, nowIso, randomToken, sha256Hex } from "../../lib/crypto";
import { takeRateLimit } from "../../lib/rate-limit";
import type { ClientInfo } from "../../lib/request";
import { endSessionSockets } from "../chat/live";
import { passwordChangedMail, passwordResetMail } from "../mail/account-mail";
import type { Mail } from "../mail/mail";
import { hashPassword, passwordHashParams } from "./password";
import { familyRowStatement, newFamily, sessionUser, withAccessToken, type IssuedSession } from "./session-issue";
import type { RowOf } from "../../db/rows";
import type { passwordResets } from "./schema";

/** The page a reset mail links to; the token rides in the query (Referrer-Policy keeps it on this site). */
export function passwordResetLink(origin: string, token: string): string {
  return `${origin}/auth/nytt-passord?token=${encodeURIComponent(token)}`;
}

/** Every open reset link of the user that `userIdSql` (bound from ?1) names is replaced. */
export function replaceResetLinks(db: Db, userIdSql: string, userIdParam: unknown, now: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE password_resets SET replaced_at = ?2
       WHERE user_id = (${userIdSql}) AND used_at IS NULL AND replaced_at IS NULL`,
    )
    .bind(userIdParam, now);
}

/**
 * "Glemt passord?": the same statements run for a known and an unknown address (the user look-up,
 * the per-account count keyed by the account or else by the address, one batch that replaces older
 * links and inserts the new one only where the address has an account), and the mail is returned
 * for the caller to send after its answer, so neither the answer nor its time tells them apart.
 * Over the per-account limit nothing is written and nothing mailed; the answer stays the same.
 */
export async function requestPasswordReset(db: Db, env: Bindings, origin: string, email: string): Promise<Mail | null> {
  const token = randomToken(32);
  const tokenHash = await sha256Hex(token);
  const account = await db
    .prepare(
      `SELECT u.id, p.display_name FROM users u LEFT JOIN profiles p ON p.user_id = u.id
       WHERE u.email = ?1 AND u.deleted_at IS NULL`,
    )
    .bind(email)
    .first<{ id: string; display_name: string | null }>();
  if (!(await takeRateLimit(db, RATE_RULES.passwordResetAccount, account?.id ?? `email:${email}`))) return null;
  const now = nowIso();
  const userIdSql = "SELECT id FROM users WHERE email = ?1 AND deleted_at IS NULL";
  const [, inserted] = await db.batch([
    replaceResetLinks(db, userIdSql, email, now),
    db
      .prepare(
        `INSERT INTO password_resets (id, user_id, token_hash, expires_at, created_at)
         SELECT ?2, id, ?3, ?4, ?5 FROM users WHERE email = ?1 AND deleted_at IS NULL RETURNING user_id`,
      )
      .bind(email, crypto.randomUUID(), tokenHash, isoIn(PASSWORD_RESET_TTL_SECONDS), now),
  ]);
  if (!account || !inserted?.results.length) return null;
  return passwordResetMail(env, email, account.display_name, passwordResetLink(origin, token));
}

type ResetRow = Pick<RowOf<typeof passwordResets>, "user_id" | "expires_at" | "used_at" | "replaced_at">;

function refusal(reason: LinkRefusal): AppError {
  return new AppError("INVALID_CODE", LINK_REFUSALS[reason], { token: LINK_REFUSALS[reason] });
}

/** Why the row cannot be used now, or null when it can. */
function whyNot(row: ResetRow | null, now: string): LinkRefusal | null {
  if (!row) return "invalid";
  if (row.used_at) return "used";
  if (row.replaced_at) return "replaced";
  if (row.expires_at <= now) return "expired";
  return null;
}

async function resetRow(db: Db, token: string): Promise<ResetRow | null> {
  return db
    .prepare(
      `SELECT r.user_id, r.expires_at, r.used_at, r.replaced_at FROM password_resets r
       JOIN users u ON u.id = r.user_id AND u.deleted_at IS NULL WHERE r.token_hash = ?1`,
    )
    .bind(await sha256Hex(token))
    .first<ResetRow>();
}

/** Opening the link: says at once whether it still works (used, expired, replaced or unknown: 400). */
export async function checkPasswordResetLink(db: Db, token: string): Promise<void> {
  const reason = whyNot(await resetRow(db, token), nowIso());
  if (reason) throw refusal(reason);
}

/**
 * "Lag nytt passord": one batch spends the link (only while unused, unreplaced and unexpired, and
 * marked with this request's nonce so the other statements act only for the request that won it),
 * sets the password, confirms the address the link proved, replaces the user's other links, ends
 * every session and starts this browser's. Then every socket of the account closes and the notice
 * mail is returned for the caller to send.
 */
export async function resetPassword(
  env: Bindings,
  db: Db,
  input: { token: string; password: string; client: ClientInfo; origin: string },
): Promise<{ session: IssuedSession; mail: Mail }> {
  const tokenHash = await sha256Hex(input.token);
  const before = await resetRow(db, input.token);
  const now = nowIso();
  const early = whyNot(before, now);
  // A dead link costs no password hashing.
  if (early) throw refusal(early);
  const passwordHash = await hashPassword(input.password, passwordHashParams(env));
  const nonce = crypto.randomUUID();
  const family = await newFamily();
  const winner = "SELECT user_id FROM password_resets WHERE token_hash = ?1 AND use_nonce = ?2";
  const [spent] = await db.batch([
    db
      .prepare(
        `UPDATE password_resets SET used_at = ?3, use_nonce = ?2
         WHERE token_hash = ?1 AND used_at IS NULL AND replaced_at IS NULL AND expires_at > ?3 RETURNING user_id`,
      )
      .bind(tokenHash, nonce, now),
    db
      .prepare(
        `UPDATE users SET password_hash = ?3, email_confirmed_at = COALESCE(email_confirmed_at, ?4), updated_at = ?4
         WHERE id = (${winner}) AND deleted_at IS NULL`,
      )
      .bind(tokenHash, nonce, passwordHash, now),
    db
      .prepare(`UPDATE password_resets SET replaced_at = ?3 WHERE user_id = (${winner}) AND used_at IS NULL AND replaced_at IS NULL`)
      .bind(tokenHash, nonce, now),
    db.prepare(`UPDATE sessions SET revoked_at = ?3 WHERE user_id = (${winner}) AND revoked_at IS NULL`).bind(tokenHash, nonce, now),
    familyRowStatement(
      db,
      family,
      input.client,
      "SELECT user_id FROM password_resets WHERE token_hash = ?9 AND use_nonce = ?10",
      tokenHash,
      nonce,
    ),
  ]);
  const userId = (spent?.results as { user_id: string }[] | undefined)?.[0]?.user_id;
  if (!userId) {
    // Another request spent it (or it died) between the look-up and the batch.
    throw refusal(whyNot(await resetRow(db, input.token), nowIso()) ?? "used");
  }
  // Every session ended in the batch; their open sockets close now (decision 080).
  await endSessionSockets(env, userId, null, "password changed", family.family);
  const user = await sessionUser(db, userId);
  if (!user) throw refusal("invalid");
  const session = await withAccessToken(env, user, family.family, family.refreshToken, family.expiresAt);
  return { session, mail: passwordChangedMail(env, input.origin, user.email, user.display_name) };
}
