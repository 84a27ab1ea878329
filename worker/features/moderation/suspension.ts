// Suspensions (docs/decisions/051-suspensions.md): a moderator's hide or delete on a user or profile
// suspends the account until an end date. A suspended user cannot post or edit listings, message,
// offer trades or buy. Every one of those write paths calls `assertNotSuspended` before it writes:
// listing create/edit and status (listings/listings.ts via listings/routes.ts), photo uploads
// (listings/upload-routes.ts), starting a
// conversation and every message (the ConversationRoom's write path, socket and HTTP alike, from
// the standing the room caches and re-reads when a suspension starts or ends: decision 107),
// offering or accepting a trade (trades/offers.ts), and starting a checkout
// (payments/checkout.ts).
import { suspensionMessage } from "../../../domain/moderation";
import type { Db } from "../../db/client";
import { nowIso } from "../../lib/crypto";
import { AppError } from "../../lib/errors";

export interface Suspension {
  until: string;
  reason: string | null;
}

/** The user's current suspension, or null (a suspension past its end date is over by itself). */
export async function activeSuspension(db: Db, userId: string, now: string = nowIso()): Promise<Suspension | null> {
  const row = await db
    .prepare(
      `SELECT suspended_until, suspension_reason FROM user_moderation_status
       WHERE user_id = ?1 AND is_suspended = 1 AND suspended_until > ?2`,
    )
    .bind(userId, now)
    .first<{ suspended_until: string; suspension_reason: string | null }>();
  return row ? { until: row.suspended_until, reason: row.suspension_reason } : null;
}

/**
 * The one guard for every write a suspended user may not make: throws 403 SUSPENDED with the end
 * date and the reason ("Kontoen din er utestengt til …"). One indexed read (the primary key).
 */
export async function assertNotSuspended(db: Db, userId: string): Promise<void> {
  const suspension = await activeSuspension(db, userId);
  if (suspension) throw new AppError("SUSPENDED", suspensionMessage(suspension.until, suspension.reason));
}
