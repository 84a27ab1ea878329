import { isOwnPhotoKey, photoKeyOwner, photoVariantKeys, PHOTO_REFUSALS } from "../../../domain/photos";
import { hasStaffRights } from "../../../domain/moderation";
import type { Actor } from "../../env";
import type { Db } from "../../db/client";
import { viewableListingSql } from "./visibility";
import { AppError } from "../../lib/errors";
import { cleanPhoto, photoFileName } from "../../lib/photo-upload";
import { storePhotoVariants, type PhotoTransforms } from "../../lib/photo-variants";

/**
 * Store an uploaded photo under the owner's prefix with a server-chosen key and type, after
 * removing its metadata (EXIF with GPS, XMP, IPTC, text chunks) without re-encoding it, and its
 * smaller copies beside it (decision 123), made from the cleaned bytes.
 */
export async function storeImage(
  bucket: R2Bucket,
  transforms: PhotoTransforms,
  userId: string,
  bytes: Uint8Array,
): Promise<{ key: string; type: string }> {
  const photo = cleanPhoto(bytes);
  const key = `${userId}/${photoFileName(photo.type)}`;
  await bucket.put(key, photo.bytes, { httpMetadata: { contentType: photo.type.mime, cacheControl: "public, max-age=3600" } });
  await storePhotoVariants(bucket, transforms, key, { bytes: photo.bytes, mime: photo.type.mime });
  return { key, type: photo.type.mime };
}

/** Delete photos with their variants (R2 takes up to 1,000 keys at once; a listing has at most five photos). */
export async function deletePhotos(bucket: R2Bucket, keys: string[]): Promise<void> {
  if (keys.length) await bucket.delete(keys.flatMap((key) => [key, ...photoVariantKeys(key)]));
}

/**
 * Remove an upload that no listing uses (the wizard's "remove photo"). Someone else's key answers
 * 404 whether or not it exists, and nothing outside the owner's prefix is ever touched.
 */
export async function removeUpload(db: Db, bucket: R2Bucket, actor: Actor, key: string): Promise<void> {
  if (!isOwnPhotoKey(actor.id, key)) throw new AppError("NOT_FOUND", PHOTO_REFUSALS.notRemovable);
  const inUse = await db
    .prepare(
      `SELECT 1 FROM listings WHERE user_id = ?1 AND status <> 'deleted' AND EXISTS (SELECT 1 FROM json_each(listings.images) WHERE value = ?2)`,
    )
    .bind(actor.id, key)
    .first();
  if (inUse) throw new AppError("CONFLICT", PHOTO_REFUSALS.inUse);
  await deletePhotos(bucket, [key]);
}

/**
 * How a photo may be served: to everyone (shared caches and the edge cache may keep it), to this
 * viewer only, or not at all (null). A public photo names the listings that show it: a change to
 * any of them purges it from the edge cache (decision 101).
 */
export type PhotoAccess = { scope: "public"; listingIds: string[] } | { scope: "private" } | null;

/**
 * Who may see a listing photo (docs/decisions/007-images.md): the photos of a listing anyone may
 * open (active, reserved, or a finished deal, not hidden: decision 117) are public; the owner and moderators see the photos of every listing of theirs that is
 * not deleted; the other party of a conversation, trade offer, trade or payment about a listing
 * that moderation has not hidden sees its photos (trade history and payment pages show them after
 * the sale). A fresh upload that no listing uses yet is for its owner only (the wizard's preview).
 * Anything that is not a well-formed photo key is nobody's. `viewer` is only resolved when needed.
 */
export async function photoAccess(db: Db, key: string, viewer: () => Promise<Actor | null>): Promise<PhotoAccess> {
  const owner = photoKeyOwner(key);
  if (!owner) return null;
  const uses = `FROM listings l WHERE l.user_id = ?1 AND EXISTS (SELECT 1 FROM json_each(l.images) WHERE value = ?2)`;
  const refs = await db
    .prepare(
      `SELECT COUNT(*) AS refs, COALESCE(MAX(${viewableListingSql("l")}), 0) AS public, COALESCE(MAX(l.status <> 'deleted'), 0) AS live,
         json_group_array(l.id) AS ids ${uses}`,
    )
    .bind(owner, key)
    .first<{ refs: number; public: number; live: number; ids: string }>();
  if (refs?.public) return { scope: "public", listingIds: JSON.parse(refs.ids) as string[] };
  if (refs && refs.refs > 0 && !refs.live) return null; // only deleted listings use it
  const actor = await viewer();
  if (!actor) return null;
  if (!refs || refs.refs === 0) return actor.id === owner ? { scope: "private" } : null;
  if (actor.id === owner || hasStaffRights(actor)) return { scope: "private" };
  const party = await db
    .prepare(
      `SELECT 1 ${uses} AND l.status <> 'deleted' AND l.is_hidden = 0 AND (
         EXISTS (SELECT 1 FROM conversations c WHERE c.listing_id = l.id AND (c.buyer_id = ?3 OR c.seller_id = ?3))
         OR EXISTS (SELECT 1 FROM trade_offers t WHERE (t.offered_listing_id = l.id OR t.requested_listing_id = l.id) AND (t.from_user_id = ?3 OR t.to_user_id = ?3))
         OR EXISTS (SELECT 1 FROM payments p WHERE p.listing_id = l.id AND (p.buyer_id = ?3 OR p.seller_id = ?3))
       ) LIMIT 1`,
    )
    .bind(owner, key, actor.id)
    .first();
  return party ? { scope: "private" } : null;
}

/** A photo from R2 (null: missing; `body` null: the If-None-Match ETag still matches). */
export async function readPhoto(bucket: R2Bucket, key: string, ifNoneMatch: string | undefined) {
  const object = await bucket.get(key, ifNoneMatch ? { onlyIf: { etagDoesNotMatch: ifNoneMatch.replace(/"/g, "") } } : undefined);
  if (!object) return null;
  return {
    etag: object.httpEtag,
    contentType: object.httpMetadata?.contentType ?? "application/octet-stream",
    body: "body" in object && object.body ? (object.body as ReadableStream) : null,
  };
}
