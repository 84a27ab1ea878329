import { Hono } from "hono";
import type { AppEnv } from "../env";
import { IMAGE_CACHE_SECONDS } from "../../domain/limits";
import { AppError } from "../lib/errors";

/** Listing photos from R2 at /images/{key} (DESIGN: max-age 3600 and an ETag). */
export const imageRoutes = new Hono<AppEnv>().get("/*", async (c) => {
  const key = decodeURIComponent(c.req.path.replace(/^\/images\//, ""));
  if (!key || key.includes("..")) throw new AppError("NOT_FOUND");
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
