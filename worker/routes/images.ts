import { Hono } from "hono";
import type { AppEnv } from "../env";
import { IMAGE_CACHE_SECONDS } from "../../domain/limits";
import { AppError } from "../lib/errors";

/** Listing photos from R2 at /images/{key} (DESIGN: max-age 3600 and an ETag). */
export const imageRoutes = new Hono<AppEnv>().get("/*", async (c) => {
  const key = decodeURIComponent(c.req.path.replace(/^\/images\//, ""));
  if (!key || key.includes("..")) throw new AppError("NOT_FOUND");
  // A photo of a hidden or deleted listing is not served (DESIGN). A fresh upload that no listing
  // uses yet is served, so the wizard can show its preview (its key is unguessable).
  const refs = await c.env.DB.prepare(
    `SELECT COUNT(*) AS refs, COALESCE(MAX(status <> 'deleted' AND is_hidden = 0), 0) AS visible
     FROM listings WHERE user_id = ?1 AND EXISTS (SELECT 1 FROM json_each(listings.images) WHERE value = ?2)`,
  )
    .bind(key.split("/")[0], key)
    .first<{ refs: number; visible: number }>();
  if (refs && refs.refs > 0 && !refs.visible) throw new AppError("NOT_FOUND", "Bildet finnes ikke");
  const ifNoneMatch = c.req.header("If-None-Match");
  const object = await c.env.IMAGES.get(key, ifNoneMatch ? { onlyIf: { etagDoesNotMatch: ifNoneMatch.replace(/"/g, "") } } : undefined);
  if (!object) throw new AppError("NOT_FOUND", "Bildet finnes ikke");
  const headers = new Headers();
  headers.set("Cache-Control", `public, max-age=${IMAGE_CACHE_SECONDS}`);
  headers.set("ETag", object.httpEtag);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Content-Type", object.httpMetadata?.contentType ?? "application/octet-stream");
  if (!("body" in object) || !object.body) return new Response(null, { status: 304, headers });
  return new Response(object.body, { headers });
});
