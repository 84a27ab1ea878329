// Filing reports (docs/product.md "Moderation", "Validation", "Server calls"; docs/decisions/050-moderation.md).
// A signed-in user reports a listing they can see, a message in a conversation they take part in,
// or another user. Each report is kept for the moderator, also a second one by the same reporter
// (decision 083). Reporting one's own listing, message or self is refused. Enough independent,
// established reporters of a listing within 24 hours hide it until a moderator decides (auto-hide,
// decisions 053 and 082), and its owner is told.
import { isPublicListing } from "../../../domain/listing-lifecycle";
import { SYSTEM_USER_ID } from "../../../domain/chat";
import { reporterNetwork } from "../../../domain/address";
import { AUTO_HIDE_MIN_ACCOUNT_AGE_DAYS, AUTO_HIDE_WINDOW_HOURS, shouldAutoHide } from "../../../domain/auto-hide";
import { AUTO_HIDDEN_REASON, hasStaffRights, type ReportTargetType, REPORT_REFUSALS } from "../../../domain/moderation";
import type { Report } from "../../../domain/schemas/content";
import type { ListingStatus } from "../../../domain/taxonomy";
import type { Actor, Bindings } from "../../env";
import type { Db } from "../../db/client";
import { publicListingSql } from "../listings/visibility";
import { revealedReviewSql } from "../reviews/visibility";
import { nowIso } from "../../lib/crypto";
import { serverHmacKey } from "../../lib/jwt";
import { AppError } from "../../lib/errors";
import { listingsChanged } from "../../lib/listing-changes";
import { notifyUser } from "./mail";
import { completedDealsWithEstablishedSql } from "../reviews/deals";
import { invalidateSitemap } from "../seo/sitemap";
import { mirrorRoomsOf } from "../chat/live";

export interface FiledReport {
  id: string;
  /** False when the reporter's identical open report already stood (nothing was stored). */
  created: boolean;
}

const OPEN = "('pending', 'reviewed')";

/**
 * A message can be reported the moment it is seen, before its room has copied it to D1 (decision
 * 140): then the reporter's rooms copy what D1 lacks first.
 */
async function withMessageInD1(env: Bindings, reporterId: string, messageId: string): Promise<void> {
  const known = await env.DB.prepare("SELECT 1 FROM messages WHERE id = ?1").bind(messageId).first();
  if (!known) await mirrorRoomsOf(env, reporterId);
}

/**
 * Whether `actor` may report this target: it must exist and be visible to them, and not be their
 * own. Someone else's private object is 404 (its existence does not leak); one's own is 403.
 */
async function checkTarget(db: Db, actor: Actor, type: ReportTargetType, id: string): Promise<void> {
  if (type === "listing") {
    const row = await db
      .prepare("SELECT user_id, status, is_hidden FROM listings WHERE id = ?1")
      .bind(id)
      .first<{ user_id: string; status: ListingStatus; is_hidden: number }>();
    const visible =
      row &&
      row.status !== "deleted" &&
      (isPublicListing({ status: row.status, is_hidden: !!row.is_hidden }) || row.user_id === actor.id || hasStaffRights(actor));
    if (!row || !visible) throw new AppError("NOT_FOUND", REPORT_REFUSALS.listingNotFound);
    if (row.user_id === actor.id) throw new AppError("FORBIDDEN", REPORT_REFUSALS.ownListing);
    return;
  }
  if (type === "message") {
    const row = await db
      .prepare(
        `SELECT m.sender_id FROM messages m JOIN conversations c ON c.id = m.conversation_id
         WHERE m.id = ?1 AND ?2 IN (c.buyer_id, c.seller_id)`,
      )
      .bind(id, actor.id)
      .first<{ sender_id: string }>();
    if (!row) throw new AppError("NOT_FOUND", REPORT_REFUSALS.messageNotFound);
    if (row.sender_id === actor.id) throw new AppError("FORBIDDEN", REPORT_REFUSALS.ownMessage);
    if (row.sender_id === SYSTEM_USER_ID) throw new AppError("FORBIDDEN", REPORT_REFUSALS.systemMessage);
    return;
  }
  if (type === "review") {
    // A review can be reported where it is shown: revealed and not hidden (staff see hidden ones too).
    const row = await db
      .prepare(`SELECT r.reviewer_id, r.is_hidden, ${revealedReviewSql("r", "?2")} AS revealed FROM reviews r WHERE r.id = ?1`)
      .bind(id, nowIso())
      .first<{ reviewer_id: string; is_hidden: number; revealed: number }>();
    const visible = row?.revealed && (!row.is_hidden || hasStaffRights(actor));
    if (!row || !visible) throw new AppError("NOT_FOUND", REPORT_REFUSALS.reviewNotFound);
    if (row.reviewer_id === actor.id) throw new AppError("FORBIDDEN", REPORT_REFUSALS.ownReview);
    return;
  }
  const user = await db.prepare("SELECT deleted_at FROM users WHERE id = ?1").bind(id).first<{ deleted_at: string | null }>();
  if (!user || user.deleted_at || id === SYSTEM_USER_ID) throw new AppError("NOT_FOUND", REPORT_REFUSALS.userNotFound);
  if (id === actor.id) throw new AppError("FORBIDDEN", REPORT_REFUSALS.self);
}

/** What a report keeps of its reporter's address: a keyed hash of the network, never the address. */
async function networkHash(env: Bindings, address: string): Promise<string> {
  const key = await serverHmacKey(env);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`lekebytte/report-network/v1\0${reporterNetwork(address)}`));
  return [...new Uint8Array(mac).slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

interface EvidenceRow {
  report_id: string;
  reporter_id: string | null;
  reporter_network: string | null;
  email: string | null;
  email_confirmed_at: string | null;
  account_created_at: string | null;
  deleted_at: string | null;
  suspended_until: string | null;
  completed_deals: number;
}

/**
 * File a report (decision 083): every report with a new reason, text or priority is kept, also a
 * reporter's second one on the same target while the first is open, so the moderator sees all of
 * them. An identical repeat while the first is open (a double submit) is not stored again; the
 * insert checks that itself, so two at once leave one. `clientAddress` is CF-Connecting-IP; only a
 * keyed hash of its network is stored.
 *
 * For a listing, auto-hide follows (decision 082): the open reports of the last 24 hours and the
 * unfounded ones on the listing are read with their reporters' standing in the batch that files
 * the report (so the last of several reports arriving together sees them all), domain/auto-hide.ts
 * decides, and the hide applies only while the listing is public and every report it relied on is
 * still open, so a moderator's decision in between wins, and of several hides exactly one changes
 * the listing and its owner gets one mail.
 */
export async function fileReport(env: Bindings, actor: Actor, input: Report, clientAddress: string): Promise<FiledReport> {
  const db = env.DB;
  if (input.target_type === "message") await withMessageInD1(env, actor.id, input.target_id);
  await checkTarget(db, actor, input.target_type, input.target_id);
  const id = crypto.randomUUID();
  const now = nowIso();
  const network = await networkHash(env, clientAddress);
  const insert = db
    .prepare(
      `INSERT INTO reports (id, reporter_id, target_type, target_id, reason, description, priority, status, reporter_network, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, 'pending', ?8, ?9
       WHERE NOT EXISTS (SELECT 1 FROM reports WHERE reporter_id = ?2 AND target_type = ?3 AND target_id = ?4 AND status IN ${OPEN}
                           AND reason = ?5 AND description IS ?6 AND priority = ?7)
       RETURNING id`,
    )
    .bind(id, actor.id, input.target_type, input.target_id, input.reason, input.description, input.priority, network, now);
  const existing = db
    .prepare(
      // The identical open report that stands, not merely the reporter's latest one on the target.
      `SELECT id FROM reports WHERE reporter_id = ?1 AND target_type = ?2 AND target_id = ?3 AND status IN ${OPEN}
         AND reason = ?4 AND description IS ?5 AND priority = ?6
       ORDER BY created_at DESC LIMIT 1`,
    )
    .bind(actor.id, input.target_type, input.target_id, input.reason, input.description, input.priority);
  if (input.target_type !== "listing") {
    const [inserted, latest] = await db.batch<{ id: string }>([insert, existing]);
    const reportId = inserted.results[0]?.id ?? latest.results[0].id;
    return { id: reportId, created: reportId === id };
  }

  const since = new Date(Date.parse(now) - AUTO_HIDE_WINDOW_HOURS * 3_600_000).toISOString();
  const cutoff = new Date(Date.parse(now) - AUTO_HIDE_MIN_ACCOUNT_AGE_DAYS * 86_400_000).toISOString();
  const [inserted, latest, evidence, unfounded, seller] = await db.batch<Record<string, unknown>>([
    insert,
    existing,
    db
      .prepare(
        `SELECT r.id AS report_id, r.reporter_id, r.reporter_network, u.email, u.email_confirmed_at, u.created_at AS account_created_at, u.deleted_at,
                CASE WHEN s.is_suspended = 1 THEN s.suspended_until END AS suspended_until,
                ${completedDealsWithEstablishedSql("r.reporter_id", "?3")} AS completed_deals
         FROM reports r LEFT JOIN users u ON u.id = r.reporter_id LEFT JOIN user_moderation_status s ON s.user_id = r.reporter_id
         WHERE r.target_type = 'listing' AND r.target_id = ?1 AND r.status IN ${OPEN} AND r.created_at > ?2`,
      )
      .bind(input.target_id, since, cutoff),
    // Reports a moderator found unfounded: dismissed, or closed with "approve" (no violation).
    db
      .prepare(
        `SELECT r.reporter_id, r.reporter_network, u.email FROM reports r LEFT JOIN users u ON u.id = r.reporter_id
         WHERE r.target_type = 'listing' AND r.target_id = ?1 AND (r.status = 'dismissed' OR (r.status = 'resolved' AND r.resolution_action = 'approve'))`,
      )
      .bind(input.target_id),
    db
      .prepare(`SELECT ${completedDealsWithEstablishedSql("l.user_id", "?2")} AS n FROM listings l WHERE l.id = ?1`)
      .bind(input.target_id, cutoff),
  ]);
  const reportId = (inserted.results[0]?.id ?? latest.results[0].id) as string;
  const open = (evidence.results as unknown as EvidenceRow[]).map((r) => ({
    reportId: r.report_id,
    reporterId: r.reporter_id,
    network: r.reporter_network,
    email: r.email,
    emailConfirmedAt: r.email_confirmed_at,
    accountCreatedAt: r.account_created_at,
    completedDeals: r.completed_deals,
    suspendedUntil: r.suspended_until,
    deleted: !!r.deleted_at,
  }));
  const dismissed = (
    unfounded.results as unknown as { reporter_id: string | null; reporter_network: string | null; email: string | null }[]
  ).map((r) => ({
    reporterId: r.reporter_id,
    network: r.reporter_network,
    email: r.email,
  }));
  const sellerCompletedDeals = Number((seller.results[0] as { n?: number } | undefined)?.n ?? 0);
  if (shouldAutoHide({ open, dismissed, sellerCompletedDeals, now })) {
    const reportIds = JSON.stringify(open.map((r) => r.reportId));
    const listing = await db
      .prepare(
        `UPDATE listings SET is_hidden = 1, auto_hidden = 1, hidden_reason = ?2, hidden_at = ?3, updated_at = ?3
         WHERE id = ?1 AND ${publicListingSql()}
           AND (SELECT COUNT(*) FROM reports WHERE id IN (SELECT value FROM json_each(?4)) AND status IN ${OPEN}) = json_array_length(?4)
         RETURNING id, user_id, title`,
      )
      .bind(input.target_id, AUTO_HIDDEN_REASON, now, reportIds)
      .first<{ id: string; user_id: string; title: string }>();
    if (listing) {
      await listingsChanged(env, [listing]);
      await invalidateSitemap(env);
      await notifyUser(env, listing.user_id, { kind: "listing-auto-hidden", listingId: listing.id, title: listing.title });
    }
  }
  return { id: reportId, created: reportId === id };
}
