import type { Db } from "../../db/client";
import { purgeVippsLogins } from "./vipps-login";

const DAY_MS = 86_400_000;

/**
 * The hourly purge: expired sessions (and revoked ones after a week, long enough to recognise a
 * replayed token), used-up e-mail codes, Vipps logins and link requests past their time, "Lag nytt
 * passord" links a week after they expired (until then an old link is told "used" or "expired",
 * not "invalid"), e-mail changes whose stop link has run out, and rate-limit rows older than any
 * window (a day).
 */
export async function purgeExpired(db: Db, now: Date = new Date()): Promise<void> {
  const iso = now.toISOString();
  await db.batch([
    db
      .prepare("DELETE FROM sessions WHERE expires_at < ?1 OR family_expires_at < ?1 OR (revoked_at IS NOT NULL AND revoked_at < ?2)")
      .bind(iso, new Date(now.getTime() - 7 * DAY_MS).toISOString()),
    db.prepare("DELETE FROM email_codes WHERE expires_at < ?1").bind(iso),
    ...purgeVippsLogins(db, iso),
    db.prepare("DELETE FROM password_resets WHERE expires_at < ?1").bind(new Date(now.getTime() - 7 * DAY_MS).toISOString()),
    db.prepare("DELETE FROM email_changes WHERE stop_expires_at < ?1").bind(iso),
    db.prepare("DELETE FROM rate_limits WHERE window_start < ?1").bind(now.getTime() - DAY_MS),
  ]);
}
