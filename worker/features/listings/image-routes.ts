import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { IMAGE_CACHE_SECONDS } from "../../../domain/limits";
import { readAccessCookie } from "../../lib/cookies";
import { AppError } from "../../lib/errors";
import { photoAccess, readPhoto } from "./images";
import { actorForAccessToken } from "../auth/session";
import { PHOTO_REFUSALS, parsePhotoVariantKey, photoPath, photoVariantKey } from "../../../domain/photos";
import { VARIANT_CACHE_CONTROL } from "../../lib/photo-variants";
import { listingTag } from "../../lib/edge-cache";

/** R2's own limit on key length; longer keys cannot exist. */
const MAX_KEY_BYTES = 1024;

/** The R2 key in `/images/{key}`, or null when it is not valid percent-encoding or too long. */
export function photoKeyFromPath(pathname: string): string | null {
  const raw = pathname.replace(/^\/images\//, "");
  if (raw.length > 3 * MAX_KEY_BYTES) return null;
  let key: string;
  try {
    key = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (!key || new TextEncoder().encode(key).byteLength > MAX_KEY_BYTES) return null;
  return key;
}

const notFound = () => new AppError("NOT_FOUND", PHOTO_REFUSALS.notFound);

/**
 * Listing photos from R2 at /images/{key} (decision 007: max-age 3600 and an ETag), and their smaller
 * copies at /images/{key}/{variant} (decision 123: a public one is kept a year by browsers, it never
 * changes). Only well-formed photo keys of listings the viewer may see (images.ts `photoAccess`,
 * the photo's rule for its variants too); every other key, and every other object of any bucket,
 * answers 404 without being read. A photo without the variant asked for (uploaded before variants
 * existed, or the platform could not make it) is answered with a redirect to the photo itself.
 */
export const imageRoutes = new Hono<AppEnv>().get("/*", async (c) => {
  const path = photoKeyFromPath(new URL(c.req.url).pathname);
  if (!path) throw notFound();
  const variant = parsePhotoVariantKey(path);
  const key = variant ? variant.key : path;
  const access = await photoAccess(c.var.db, key, async () => {
    const token = readAccessCookie(c);
    return token ? actorForAccessToken(c.env, token) : null;
  });
  if (!access) throw notFound();
  const headers = new Headers();
  // A photo only some viewers may see must not be kept by shared caches, nor by the edge cache.
  headers.set("Cache-Control", `${access.scope}, max-age=${IMAGE_CACHE_SECONDS}`);
  if (access.scope === "private") headers.set("Vary", "Cookie");
  const photo = await readPhoto(c.env.IMAGES, variant ? photoVariantKey(key, variant.variant.name) : key, c.req.header("If-None-Match"));
  if (!photo && variant && (await c.env.IMAGES.head(key))) {
    headers.set("Location", photoPath(key));
    return new Response(null, { status: 302, headers });
  }
  if (!photo) throw notFound();
  if (access.scope === "public") {
    c.set("edgeTags", access.listingIds.map(listingTag));
    if (variant) headers.set("Cache-Control", VARIANT_CACHE_CONTROL);
  }
  headers.set("ETag", photo.etag);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Content-Type", photo.contentType);
  if (!photo.body) return new Response(null, { status: 304, headers });
  return new Response(photo.body, { headers });
});
