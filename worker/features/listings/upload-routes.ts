import { Hono } from "hono";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { AppEnv } from "../../env";
import { readLimited } from "../../lib/body";
import { actorOf, requireUser } from "../../middleware/session";
import { removeUpload, storeImage } from "./images";
import { enforceBindingLimit } from "../../lib/rate-limit";
import { assertNotSuspended } from "../moderation/suspension";

/**
 * Photo uploads: the raw image bytes as the request body (the browser has already scaled and
 * re-encoded them). The type comes from the bytes, the key from the server, under the owner's id;
 * metadata is stripped before the photo is stored, and the smaller copies the pages show are made
 * from it before the answer (decision 123).
 */
export const uploadRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/", async (c) => {
    const actor = actorOf(c);
    const db = c.var.db;
    // Photos are only for listings, which a suspended user cannot post or edit (decision 051).
    await assertNotSuspended(db, actor.id);
    await enforceBindingLimit(c.env, RATE_RULES.upload, actor.id);
    const length = c.req.header("Content-Length");
    const bytes = await readLimited(c.req.raw.body, length ? Number(length) : null);
    const stored = await storeImage(c.env.IMAGES, c.env.IMAGE_TRANSFORMS, actor.id, bytes);
    return c.json(stored, 201);
  })
  .delete("/:key{.+}", async (c) => {
    await removeUpload(c.var.db, c.env.IMAGES, actorOf(c), c.req.param("key"));
    return c.body(null, 204);
  });
