import { Hono } from "hono";
import { ORDER_ERROR_TEXTS } from "../../../domain/order-texts";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { isUuid } from "../../lib/uuid";
import { actorOf, requireUser } from "../../middleware/session";
import { problemPhotoForViewer, uploadProblemPhoto } from "./order-views";

function orderIdParam(id: string): string {
  if (!isUuid(id)) throw new AppError("NOT_FOUND", ORDER_ERROR_TEXTS.notFound);
  return id;
}

/**
 * The photos of a problem report (decision 108), mounted at /api/payments/orders before the JSON-only
 * middleware: the upload's body is the photo's raw bytes (the browser has already scaled and
 * re-encoded it), with the photo limit of 5 MB instead of the JSON limit. Reading a photo answers
 * `private, no-store`: it is evidence for two people and staff, never kept by a cache.
 */
export const problemPhotoRoutes = new Hono<AppEnv>()
  .post("/:id/photos", requireUser, async (c) =>
    c.json(await uploadProblemPhoto(c.env, actorOf(c), orderIdParam(c.req.param("id")), c.req.raw), 201),
  )
  .get("/:id/photos/:photoId", requireUser, async (c) => {
    // A malformed photo id is a photo that does not exist: answered after the order's own check.
    const photoId = c.req.param("photoId");
    const photo = await problemPhotoForViewer(c.env, actorOf(c), orderIdParam(c.req.param("id")), isUuid(photoId) ? photoId : null);
    return new Response(photo.body, {
      headers: {
        "Content-Type": photo.contentType,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
        "Content-Disposition": "inline",
      },
    });
  });
