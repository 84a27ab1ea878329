import { Hono } from "hono";
import type { AppEnv } from "../env";
import { AppError } from "../lib/errors";
import { enforceRateLimit } from "../lib/rate-limit";
import { actorOf, requireUser } from "../middleware/session";
import { ownsImageKey, readLimited, storeImage } from "../services/images";

/**
 * Photo uploads: the raw image bytes as the request body (the browser has already scaled and
 * re-encoded them). The type comes from the bytes, the key from the server, under the owner's id.
 */
export const uploadRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/", async (c) => {
    const actor = actorOf(c);
    await enforceRateLimit(c.env.DB, { scope: "upload:user", limit: 120, windowSeconds: 3600 }, actor.id);
    const length = c.req.header("Content-Length");
    const bytes = await readLimited(c.req.raw.body, length ? Number(length) : null);
    const stored = await storeImage(c.env.IMAGES, actor.id, bytes);
    return c.json(stored, 201);
  })
  .delete("/:key{.+}", async (c) => {
    const actor = actorOf(c);
    const key = c.req.param("key");
    // Someone else's key answers 404 whether or not it exists.
    if (!ownsImageKey(actor.id, key)) throw new AppError("NOT_FOUND", "Kunne ikke fjerne bilde");
    const inUse = await c.env.DB.prepare(
      `SELECT 1 FROM listings WHERE user_id = ?1 AND status <> 'deleted' AND EXISTS (SELECT 1 FROM json_each(listings.images) WHERE value = ?2)`,
    )
      .bind(actor.id, key)
      .first();
    if (inUse) throw new AppError("CONFLICT", "Bildet brukes i en annonse. Fjern det fra annonsen og lagre først.");
    await c.env.IMAGES.delete(key);
    return c.body(null, 204);
  });
