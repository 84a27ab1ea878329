// Filing reports (spec part 2 "Report dialog", §5, §7; issue 13; docs/decisions/050-moderation.md).
// A signed-in user reports a listing they can see, a message in a conversation they take part in,
// or another user. One open report per reporter and target: a repeat updates it. Reporting one's own
// listing, message or self is refused. Three distinct reporters of a listing within 24 hours hide it
// automatically until a moderator decides (auto-hide), and its owner is told.
import { isPublicListing } from "../../domain/listing-lifecycle";
import { SYSTEM_USER_ID } from "../../domain/messaging";
import { AUTO_HIDDEN_REASON, AUTO_HIDE_REPORTERS, AUTO_HIDE_WINDOW_HOURS, hasStaffRights, type ReportTargetType } from "../../domain/moderation";
import type { Report } from "../../domain/schemas/content";
import type { ListingStatus } from "../../domain/taxonomy";
import type { Actor, Bindings } from "../env";
import { getDb, type Db } from "../db/client";
import { publicListingSql } from "../db/listing-visibility";
import { revealedReviewSql } from "../db/review-visibility";
import { nowIso } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { notifyUser } from "./moderation-mail";
import { invalidateSitemap } from "./sitemap";

export interface FiledReport {
  id: string;
  /** False when an open report of the same reporter and target was updated instead. */
  created: boolean;
}

const OPEN = "('pending', 'reviewed')";

/**
 * Whether `actor` may report this target: it must exist and be visible to them, and not be their
 * own. Someone else's private object is 404 (its existence does not leak); one's own is 403.
 */
async function checkTarget(db: Db, actor: Actor, type: ReportTargetType, id: string): Promise<void> {
  const d1 = db.$client;
  if (type === "listing") {
    const row = await d1
      .prepare("SELECT user_id, status, is_hidden FROM listings WHERE id = ?1")
      .bind(id)
      .first<{ user_id: string; status: ListingStatus; is_hidden: number }>();
    const visible = row && row.status !== "deleted" && (isPublicListing({ status: row.status, is_hidden: !!row.is_hidden }) || row.user_id === actor.id || hasStaffRights(actor));
    if (!row || !visible) throw new AppError("NOT_FOUND", "Fant ikke annonsen.");
    if (row.user_id === actor.id) throw new AppError("FORBIDDEN", "Du kan ikke rapportere din egen annonse.");
    return;
  }
  if (type === "message") {
    const row = await d1
      .prepare(
        `SELECT m.sender_id FROM messages m JOIN conversations c ON c.id = m.conversation_id
         WHERE m.id = ?1 AND ?2 IN (c.buyer_id, c.seller_id)`,
      )
      .bind(id, actor.id)
      .first<{ sender_id: string }>();
    if (!row) throw new AppError("NOT_FOUND", "Fant ikke meldingen.");
    if (row.sender_id === actor.id) throw new AppError("FORBIDDEN", "Du kan ikke rapportere din egen melding.");
    if (row.sender_id === SYSTEM_USER_ID) throw new AppError("FORBIDDEN", "Meldinger fra Lekebytte kan ikke rapporteres.");
    return;
  }
  if (type === "review") {
    // A review can be reported where it is shown: revealed and not hidden (staff see hidden ones too).
    const row = await d1
      .prepare(`SELECT r.reviewer_id, r.is_hidden, ${revealedReviewSql("r", "?2")} AS revealed FROM reviews r WHERE r.id = ?1`)
      .bind(id, nowIso())
      .first<{ reviewer_id: string; is_hidden: number; revealed: number }>();
    const visible = row && row.revealed && (!row.is_hidden || hasStaffRights(actor));
    if (!row || !visible) throw new AppError("NOT_FOUND", "Fant ikke vurderingen.");
    if (row.reviewer_id === actor.id) throw new AppError("FORBIDDEN", "Du kan ikke rapportere din egen vurdering.");
    return;
  }
  const user = await d1.prepare("SELECT deleted_at FROM users WHERE id = ?1").bind(id).first<{ deleted_at: string | null }>();
  if (!user || user.deleted_at || id === SYSTEM_USER_ID) throw new AppError("NOT_FOUND", "Fant ikke brukeren.");
  if (id === actor.id) throw new AppError("FORBIDDEN", "Du kan ikke rapportere deg selv.");
}

/**
 * File a report, or update the reporter's open report on the same target (reason, extra info and
 * priority). One D1 batch: the upsert (the partial unique index settles two at once), then for a
 * listing the auto-hide, which applies only while the listing is public and has open reports from
 * AUTO_HIDE_REPORTERS distinct users created within the window — so of several reports arriving
 * together exactly one hides it, and its owner gets one mail.
 */
export async function fileReport(env: Bindings, actor: Actor, input: Report): Promise<FiledReport> {
  const db = getDb(env.DB);
  await checkTarget(db, actor, input.target_type, input.target_id);
  const d1 = db.$client;
  const id = crypto.randomUUID();
  const now = nowIso();
  const upsert = d1
    .prepare(
      `INSERT INTO reports (id, reporter_id, target_type, target_id, reason, description, priority, status, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'pending', ?8)
       ON CONFLICT (reporter_id, target_type, target_id) WHERE status IN ${OPEN}
       DO UPDATE SET reason = excluded.reason, description = excluded.description, priority = excluded.priority
       RETURNING id`,
    )
    .bind(id, actor.id, input.target_type, input.target_id, input.reason, input.description, input.priority, now);
  if (input.target_type !== "listing") {
    const row = await upsert.first<{ id: string }>();
    return { id: row!.id, created: row!.id === id };
  }
  const since = new Date(Date.parse(now) - AUTO_HIDE_WINDOW_HOURS * 3_600_000).toISOString();
  const [stored, hidden] = await d1.batch<{ id: string; user_id?: string; title?: string }>([
    upsert,
    d1
      .prepare(
        `UPDATE listings SET is_hidden = 1, auto_hidden = 1, hidden_reason = ?2, hidden_at = ?3, updated_at = ?3
         WHERE id = ?1 AND ${publicListingSql()}
           AND (SELECT COUNT(DISTINCT reporter_id) FROM reports
                WHERE target_type = 'listing' AND target_id = ?1 AND status IN ${OPEN} AND created_at > ?4) >= ?5
         RETURNING id, user_id, title`,
      )
      .bind(input.target_id, AUTO_HIDDEN_REASON, now, since, AUTO_HIDE_REPORTERS),
  ]);
  const reportId = stored.results[0].id;
  const listing = hidden.results[0];
  if (listing?.user_id) {
    await invalidateSitemap(env);
    await notifyUser(env, listing.user_id, { kind: "listing-auto-hidden", listingId: listing.id, title: listing.title ?? "" });
  }
  return { id: reportId, created: reportId === id };
}
