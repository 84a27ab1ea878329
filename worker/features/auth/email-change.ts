// "Endre e-post" (docs/decisions/125-account-recovery.md): the route has checked the password; the
// new address gets a confirmation link and the old one a notice with a stop link. The address
// changes only when the confirmation link is opened, and the unique index on users.email decides a
// race with anyone taking the address meanwhile. The stop link works before and after the
// confirmation (for 7 days): it cancels the change or puts the old address back, and ends every
// session, since someone else may know the password.
import {
  CREDENTIAL_MESSAGES,
  EMAIL_CHANGE_STOP_TTL_SECONDS,
  EMAIL_CHANGE_TTL_SECONDS,
  LINK_REFUSALS,
  type LinkRefusal,
} from "../../../domain/credentials";
import type { Actor, Bindings } from "../../env";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { isoIn, nowIso, randomToken, sha256Hex } from "../../lib/crypto";
import { endSessionSockets } from "../chat/live";
import { emailChangeConfirmMail, emailChangeNoticeMail } from "../mail/account-mail";
import { sendMail } from "../mail/mail";
import type { RowOf } from "../../db/rows";
import type { emailChanges } from "./schema";

function refusal(reason: LinkRefusal): AppError {
  return new AppError("INVALID_CODE", LINK_REFUSALS[reason], { token: LINK_REFUSALS[reason] });
}

function isUniqueViolation(err: unknown): boolean {
  return String(err).includes("UNIQUE");
}

/** A still-open change's new address (what the profile shows as waiting for confirmation), or null. */
export async function pendingEmailChange(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .prepare(
      `SELECT new_email FROM email_changes
       WHERE user_id = ?1 AND confirmed_at IS NULL AND stopped_at IS NULL AND replaced_at IS NULL AND expires_at > ?2
       ORDER BY created_at DESC LIMIT 1`,
    )
    .bind(userId, nowIso())
    .first<{ new_email: string }>();
  return row?.new_email ?? null;
}

/** Ask to move the account to `newEmail`: replaces any open change, mails both addresses. */
export async function requestEmailChange(env: Bindings, db: Db, actor: Actor, newEmail: string, origin: string): Promise<void> {
  if (newEmail === actor.email) throw new AppError("VALIDATION", CREDENTIAL_MESSAGES.sameEmail, { email: CREDENTIAL_MESSAGES.sameEmail });
  const taken = await db.prepare("SELECT 1 AS taken FROM users WHERE email = ?1").bind(newEmail).first();
  if (taken) throw new AppError("EMAIL_TAKEN", CREDENTIAL_MESSAGES.emailTaken, { email: CREDENTIAL_MESSAGES.emailTaken });
  const confirm = randomToken(32);
  const stop = randomToken(32);
  const now = nowIso();
  await db.batch([
    db
      .prepare(
        "UPDATE email_changes SET replaced_at = ?2 WHERE user_id = ?1 AND confirmed_at IS NULL AND stopped_at IS NULL AND replaced_at IS NULL",
      )
      .bind(actor.id, now),
    db
      .prepare(
        `INSERT INTO email_changes (id, user_id, old_email, new_email, confirm_hash, stop_hash, expires_at, stop_expires_at, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
      )
      .bind(
        crypto.randomUUID(),
        actor.id,
        actor.email,
        newEmail,
        await sha256Hex(confirm),
        await sha256Hex(stop),
        isoIn(EMAIL_CHANGE_TTL_SECONDS),
        isoIn(EMAIL_CHANGE_STOP_TTL_SECONDS),
        now,
      ),
  ]);
  await sendMail(
    env,
    emailChangeConfirmMail(env, newEmail, actor.displayName, `${origin}/auth/bekreft-epost?token=${encodeURIComponent(confirm)}`),
  );
  await sendMail(
    env,
    emailChangeNoticeMail(
      env,
      { oldEmail: actor.email, newEmail, displayName: actor.displayName },
      `${origin}/auth/stopp-epostendring?token=${encodeURIComponent(stop)}`,
    ),
  );
}

type ChangeRow = Pick<
  RowOf<typeof emailChanges>,
  "user_id" | "old_email" | "new_email" | "expires_at" | "stop_expires_at" | "confirmed_at" | "stopped_at" | "replaced_at"
> & {
  /** The account's address now. */
  email: string;
};

async function changeRow(db: Db, column: "confirm_hash" | "stop_hash", token: string): Promise<ChangeRow | null> {
  return db
    .prepare(
      `SELECT c.user_id, c.old_email, c.new_email, c.expires_at, c.stop_expires_at, c.confirmed_at, c.stopped_at, c.replaced_at, u.email
       FROM email_changes c JOIN users u ON u.id = c.user_id AND u.deleted_at IS NULL WHERE c.${column} = ?1`,
    )
    .bind(await sha256Hex(token))
    .first<ChangeRow>();
}

function whyNotConfirm(row: ChangeRow | null, now: string): LinkRefusal | null {
  if (!row) return "invalid";
  if (row.confirmed_at) return "used";
  if (row.stopped_at || row.replaced_at || row.email !== row.old_email) return "replaced";
  if (row.expires_at <= now) return "expired";
  return null;
}

/** The confirmation link: the account takes the new address, unless another account has it by now (409). */
export async function confirmEmailChange(db: Db, token: string): Promise<{ email: string }> {
  const row = await changeRow(db, "confirm_hash", token);
  const reason = whyNotConfirm(row, nowIso());
  if (reason) throw refusal(reason);
  const hash = await sha256Hex(token);
  const nonce = crypto.randomUUID();
  const now = nowIso();
  const winner = (column: string) => `SELECT ${column} FROM email_changes WHERE confirm_hash = ?1 AND use_nonce = ?2`;
  let spent: D1Result;
  try {
    [spent] = await db.batch([
      db
        .prepare(
          `UPDATE email_changes SET confirmed_at = ?3, use_nonce = ?2
           WHERE confirm_hash = ?1 AND confirmed_at IS NULL AND stopped_at IS NULL AND replaced_at IS NULL AND expires_at > ?3
             AND EXISTS (SELECT 1 FROM users u WHERE u.id = email_changes.user_id AND u.email = email_changes.old_email AND u.deleted_at IS NULL)
           RETURNING new_email`,
        )
        .bind(hash, nonce, now),
      // The unique index on users.email refuses an address another account took meanwhile: the
      // whole batch is then undone and the link stays unused.
      db
        .prepare(`UPDATE users SET email = (${winner("new_email")}), updated_at = ?3 WHERE id = (${winner("user_id")})`)
        .bind(hash, nonce, now),
      // Links mailed to the old address no longer belong to the account.
      db
        .prepare(
          `UPDATE password_resets SET replaced_at = ?3 WHERE user_id = (${winner("user_id")}) AND used_at IS NULL AND replaced_at IS NULL`,
        )
        .bind(hash, nonce, now),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("EMAIL_TAKEN", CREDENTIAL_MESSAGES.emailTaken);
    throw err;
  }
  const email = (spent.results as { new_email: string }[])[0]?.new_email;
  if (!email) throw refusal(whyNotConfirm(await changeRow(db, "confirm_hash", token), nowIso()) ?? "used");
  return { email };
}

/**
 * The old address's stop link: the change is cancelled, or (after the confirmation, while the
 * account still has the new address) the old address is put back; open changes and "Lag nytt
 * passord" links die, every session ends and its sockets close.
 */
export async function stopEmailChange(env: Bindings, db: Db, token: string): Promise<{ email: string; reverted: boolean }> {
  const row = await changeRow(db, "stop_hash", token);
  const now = nowIso();
  if (!row) throw refusal("invalid");
  if (row.stopped_at) throw refusal("used");
  if (row.stop_expires_at <= now) throw refusal("expired");
  const hash = await sha256Hex(token);
  const nonce = crypto.randomUUID();
  const winner = (column: string) => `SELECT ${column} FROM email_changes WHERE stop_hash = ?1 AND use_nonce = ?2`;
  const user = winner("user_id");
  let results: D1Result[];
  try {
    results = await db.batch([
      db
        .prepare(
          `UPDATE email_changes SET stopped_at = ?3, use_nonce = ?2 WHERE stop_hash = ?1 AND stopped_at IS NULL AND stop_expires_at > ?3
           RETURNING user_id`,
        )
        .bind(hash, nonce, now),
      db
        .prepare(
          `UPDATE users SET email = (${winner("old_email")}), updated_at = ?3
           WHERE id = (${user}) AND email = (${winner("new_email")}) AND (${winner("confirmed_at")}) IS NOT NULL RETURNING email`,
        )
        .bind(hash, nonce, now),
      db
        .prepare(
          `UPDATE email_changes SET replaced_at = ?3
           WHERE user_id = (${user}) AND confirmed_at IS NULL AND stopped_at IS NULL AND replaced_at IS NULL`,
        )
        .bind(hash, nonce, now),
      db
        .prepare(`UPDATE password_resets SET replaced_at = ?3 WHERE user_id = (${user}) AND used_at IS NULL AND replaced_at IS NULL`)
        .bind(hash, nonce, now),
      db.prepare(`UPDATE sessions SET revoked_at = ?3 WHERE user_id = (${user}) AND revoked_at IS NULL`).bind(hash, nonce, now),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("EMAIL_TAKEN", CREDENTIAL_MESSAGES.oldEmailTaken);
    throw err;
  }
  if (!(results[0]!.results as unknown[]).length) throw refusal("used");
  await endSessionSockets(env, row.user_id, null, "email change stopped");
  const reverted = (results[1]!.results as unknown[]).length > 0;
  return { email: reverted ? row.old_email : row.email, reverted };
}
