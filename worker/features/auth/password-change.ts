// "Endre passord" on the profile (docs/decisions/125-account-recovery.md): the route has checked the
// current password (the password-again limits); the new one replaces it, every other session ends
// and its sockets close, this session stays, open "Lag nytt passord" links die, and the account's
// address gets "Passordet ditt er endret".
import type { Actor, Bindings } from "../../env";
import type { Db } from "../../db/client";
import { nowIso } from "../../lib/crypto";
import { endSessionSockets } from "../chat/live";
import { passwordChangedMail } from "../mail/account-mail";
import { sendMail } from "../mail/mail";
import { hashPassword, passwordHashParams } from "./password";

export async function changePassword(env: Bindings, db: Db, actor: Actor, password: string, origin: string): Promise<void> {
  const passwordHash = await hashPassword(password, passwordHashParams(env));
  const now = nowIso();
  await db.batch([
    db
      .prepare("UPDATE users SET password_hash = ?2, updated_at = ?3 WHERE id = ?1 AND deleted_at IS NULL")
      .bind(actor.id, passwordHash, now),
    db
      .prepare("UPDATE password_resets SET replaced_at = ?2 WHERE user_id = ?1 AND used_at IS NULL AND replaced_at IS NULL")
      .bind(actor.id, now),
    db
      .prepare("UPDATE sessions SET revoked_at = ?2 WHERE user_id = ?1 AND family_id <> ?3 AND revoked_at IS NULL")
      .bind(actor.id, now, actor.sessionFamily),
  ]);
  await endSessionSockets(env, actor.id, null, "password changed", actor.sessionFamily);
  await sendMail(env, passwordChangedMail(env, origin, actor.email, actor.displayName));
}
