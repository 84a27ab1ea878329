import { Hono } from "hono";
import { profileReviewsQuerySchema } from "../../../domain/schemas/reviews";
import type { AppEnv } from "../../env";
import { validate } from "../../lib/validate";
import { publicProfile } from "../reviews/reviews";

/**
 * GET /api/users/:id: the public profile (/bruker/{id}): open to everyone; unknown and deleted
 * users are 404. `offset` pages the reviews ("Vis flere"). Cached for visitors by the edge cache
 * (middleware/edge-cache.ts, decision 101).
 */
export const userRoutes = new Hono<AppEnv>().get("/:id", validate("query", profileReviewsQuerySchema), async (c) => {
  return c.json(await publicProfile(c.var.db, c.req.param("id"), c.req.valid("query").offset));
});
