// Photos on a buyer's problem report (docs/decisions/108-problem-photos.md): private evidence of an
// order. The buyer uploads them for the order when sending "Meld fra om et problem"; the report
// names them, and the same D1 batch that opens the case attaches them, so a refused report attaches
// nothing. Stored in R2 under `problem-photos/{uploader}/`, which the public photo route never
// serves (its keys start with a user id); read only through the order's own route. Who may upload
// or see them is decided in orders.ts with the order's other rules; this file is their storage.
import type { OrderState } from "../../../domain/orders";
import { PROBLEM_PHOTO_ORPHAN_HOURS, PROBLEM_PHOTO_REFUSALS, PROBLEM_PHOTO_UPLOADS_MAX } from "../../../domain/order-texts";
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { photoFileName, readPhotoUpload } from "../../lib/photo-upload";

/** Where one user's problem photos live in R2 (account deletion removes the prefix). */
export function problemPhotoPrefix(userId: string): string {
  return `problem-photos/${userId}/`;
}

/** The URL a party or staff member reads a photo at (the order's own route, never /images). */
export function problemPhotoUrl(orderId: string, photoId: string): string {
  return `/api/payments/orders/${orderId}/photos/${photoId}`;
}

/** The states a problem may be reported from: uploads for an order in any other state are refused. */
const REPORTABLE: readonly OrderState[] = ["held", "handed_over"];
const reportableSql = REPORTABLE.map((s) => `'${s}'`).join(", ");

/**
 * Store an upload for an order whose buyer may still report a problem (the caller has checked the
 * buyer and the state). The row is inserted only while the order can still be reported and has
 * room for more uploads; otherwise the object is removed again and the reason given.
 */
export async function storeProblemPhoto(
  env: Bindings,
  uploaderId: string,
  orderId: string,
  request: Request,
): Promise<{ id: string; url: string; type: string }> {
  const d1 = env.DB;
  if ((await unusedUploads(d1, orderId)) >= PROBLEM_PHOTO_UPLOADS_MAX)
    throw new AppError("CONFLICT", PROBLEM_PHOTO_REFUSALS.tooManyUploads);
  const photo = await readPhotoUpload(request);
  const id = crypto.randomUUID();
  const key = `${problemPhotoPrefix(uploaderId)}${photoFileName(photo.type)}`;
  await env.IMAGES.put(key, photo.bytes, { httpMetadata: { contentType: photo.type.mime, cacheControl: "private, no-store" } });
  // The same limits again in the insert itself: two uploads at once cannot both take the last place.
  const inserted = await d1
    .prepare(
      `INSERT INTO problem_photos (id, order_id, uploader_id, r2_key, content_type)
       SELECT ?1, ?2, ?3, ?4, ?5
       WHERE (SELECT COUNT(*) FROM problem_photos WHERE order_id = ?2 AND attached_at IS NULL) < ?6
         AND EXISTS (SELECT 1 FROM orders o JOIN payments p ON p.id = o.payment_id
                     WHERE o.id = ?2 AND p.buyer_id = ?3 AND o.state IN (${reportableSql}))
       RETURNING id`,
    )
    .bind(id, orderId, uploaderId, key, photo.type.mime, PROBLEM_PHOTO_UPLOADS_MAX)
    .first<{ id: string }>();
  if (!inserted) {
    await env.IMAGES.delete(key);
    const full = (await unusedUploads(d1, orderId)) >= PROBLEM_PHOTO_UPLOADS_MAX;
    throw new AppError("CONFLICT", full ? PROBLEM_PHOTO_REFUSALS.tooManyUploads : PROBLEM_PHOTO_REFUSALS.used);
  }
  return { id, url: problemPhotoUrl(orderId, id), type: photo.type.mime };
}

async function unusedUploads(d1: Db, orderId: string): Promise<number> {
  const row = await d1
    .prepare("SELECT COUNT(*) AS n FROM problem_photos WHERE order_id = ?1 AND attached_at IS NULL")
    .bind(orderId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Before a report is decided: every named photo must be this buyer's upload for this order, not yet
 * used. Answers the first photo that is not, with its reason (the batch checks again).
 */
export async function checkProblemPhotos(d1: Db, orderId: string, buyerId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const { results } = await d1
    .prepare(`SELECT id, order_id, uploader_id, attached_at FROM problem_photos WHERE id IN (${ids.map((_, i) => `?${i + 1}`).join(", ")})`)
    .bind(...ids.map((id) => id.toLowerCase()))
    .all<{ id: string; order_id: string; uploader_id: string; attached_at: string | null }>();
  const byId = new Map(results.map((r) => [r.id, r]));
  for (const id of ids) {
    const photo = byId.get(id.toLowerCase());
    // Another user's photo is answered as one that does not exist: its id says nothing.
    if (!photo || photo.uploader_id !== buyerId)
      throw new AppError("VALIDATION", PROBLEM_PHOTO_REFUSALS.notYours, { photos: PROBLEM_PHOTO_REFUSALS.notYours });
    if (photo.attached_at) throw new AppError("CONFLICT", PROBLEM_PHOTO_REFUSALS.used);
    if (photo.order_id !== orderId) throw new AppError("CONFLICT", PROBLEM_PHOTO_REFUSALS.otherOrder);
  }
}

/**
 * The report's photos attached, in the order named, in the batch that opens the case: only if every
 * one is still this buyer's unused upload for the order and the order is still in `from`. The
 * case's own update then requires that all of them were attached at `now` (`attachedAll`), so the
 * batch writes both or neither.
 */
export function attachPhotosStatement(
  d1: Db,
  orderId: string,
  buyerId: string,
  ids: readonly string[],
  from: OrderState,
  now: string,
): D1PreparedStatement {
  const lower = ids.map((id) => id.toLowerCase());
  const list = lower.map((_, i) => `?${i + 6}`).join(", ");
  const positions = lower.map((_, i) => `WHEN ?${i + 6} THEN ${i}`).join(" ");
  const claimable = `id IN (${list}) AND order_id = ?1 AND uploader_id = ?2 AND attached_at IS NULL`;
  return d1
    .prepare(
      `UPDATE problem_photos SET attached_at = ?3, position = CASE id ${positions} END
       WHERE ${claimable} AND (SELECT COUNT(*) FROM problem_photos WHERE ${claimable}) = ?5
         AND EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND state = ?4)`,
    )
    .bind(orderId, buyerId, now, from, lower.length, ...lower);
}

/** SQL condition (for the case's update, `?1` = the order) that `count` photos were attached at `nowParam`. */
export function attachedAllSql(nowParam: string, count: number): string {
  return `(SELECT COUNT(*) FROM problem_photos WHERE order_id = ?1 AND attached_at = ${nowParam}) = ${Math.trunc(count)}`;
}

/** A photo of a reported problem (attached), or null. */
export async function readProblemPhoto(
  env: Bindings,
  orderId: string,
  photoId: string,
): Promise<{ body: ReadableStream; contentType: string } | null> {
  const row = await env.DB.prepare(
    "SELECT r2_key, content_type FROM problem_photos WHERE id = ?1 AND order_id = ?2 AND attached_at IS NOT NULL",
  )
    .bind(photoId.toLowerCase(), orderId)
    .first<{ r2_key: string; content_type: string }>();
  if (!row) return null;
  const object = await env.IMAGES.get(row.r2_key);
  if (!object) return null;
  return { body: object.body, contentType: row.content_type };
}

/**
 * Hourly: uploads no report used within a day (the report was refused, or never sent) are removed.
 * The row goes first, by a condition an attach cannot pass at the same time, then the object.
 */
export async function removeUnusedProblemPhotos(env: Bindings, now: Date = new Date(), limit = 100): Promise<number> {
  const before = new Date(now.getTime() - PROBLEM_PHOTO_ORPHAN_HOURS * 3_600_000).toISOString();
  const { results } = await env.DB.prepare(
    "DELETE FROM problem_photos WHERE id IN (SELECT id FROM problem_photos WHERE attached_at IS NULL AND created_at < ?1 LIMIT ?2) AND attached_at IS NULL RETURNING r2_key",
  )
    .bind(before, limit)
    .all<{ r2_key: string }>();
  if (results.length) await env.IMAGES.delete(results.map((r) => r.r2_key));
  return results.length;
}

/** Account deletion: the user's problem photos, in its own batch. */
export function deleteProblemPhotosOf(d1: Db, userId: string): D1PreparedStatement {
  return d1.prepare("DELETE FROM problem_photos WHERE uploader_id = ?1").bind(userId);
}
