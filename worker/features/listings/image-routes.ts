import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { IMAGE_CACHE_SECONDS } from "../../../domain/limits";
import { readAccessCookie } from "../../lib/cookies";
import { AppError } from "../../lib/errors";
import { photoAccess, readPhoto } from "./images";
import { actorForAccessToken } from "../auth/session";
import { PHOTO_REFUSALS } from "../../../domain/photos";
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
 * Listing photos from R2 at /images/{key} (decision 007: max-age 3600 and an ETag). Only well-formed
 * photo keys of listings the viewer may see (images.ts `photoAccess`); every other key,
 * and every other object of any bucket, answers 404 without being read.
 */
export const imageRoutes = new Hono<AppEnv>().get("/*", async (c) => {
  const key = photoKeyFromPath(new URL(c.req.url).pathname);
  if (!key) throw notFound();
  const access = await photoAccess(c.var.db, key, async () => {
    const token = readAccessCookie(c);
    return token ? actorForAccessToken(c.env, token) : null;
  });
  if (!access) throw notFound();
  const photo = await readPhoto(c.env.IMAGES, key, c.req.header("If-None-Match"));
  if (!photo) throw notFound();
  const headers = new Headers();
  // A photo only some viewers may see must not be kept by shared caches, nor by the edge cache.
  headers.set("Cache-Control", `${access.scope}, max-age=${IMAGE_CACHE_SECONDS}`);
  if (access.scope === "private") headers.set("Vary", "Cookie");
  else c.set("edgeTags", access.listingIds.map(listingTag));
  headers.set("ETag", photo.etag);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Content-Type", photo.contentType);
  if (!photo.body) return new Response(null, { status: 304, headers });
  return new Response(photo.body, { headers });
});
