import { Hono } from "hono";
import { RATE_RULES } from "../../../domain/rate-limits";
import { DEAL_KINDS, type DealKind, REVIEW_REFUSAL_MESSAGES } from "../../../domain/reviews";
import { createReviewSchema } from "../../../domain/schemas/reviews";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { validate } from "../../lib/validate";
import { actorOf, requireUser } from "../../middleware/session";
import { noStore } from "../../middleware/cache";
import { enforceRateLimit } from "../../lib/rate-limit";
import { announceReview } from "./notices";
import { conversationReviewStates, dealReviewState, submitReview } from "./reviews";

function dealKind(value: string): DealKind {
  if (!(DEAL_KINDS as readonly string[]).includes(value)) throw new AppError("NOT_FOUND", REVIEW_REFUSAL_MESSAGES.not_found);
  return value as DealKind;
}

/**
 * Reviews after a completed deal (decision 070). Signed in only; the parties of the deal
 * only (anyone else gets 404). Writing is rate limited per user.
 */
export const reviewRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(noStore)
  .post("/", validate("json", createReviewSchema), async (c) => {
    const actor = actorOf(c);
    const db = c.var.db;
    await enforceRateLimit(db, RATE_RULES.reviewWrite, actor.id);
    const input = c.req.valid("json");
    const review = await submitReview(db, actor, input);
    await announceReview(c.env, input.deal_kind, input.deal_id, { id: review.id, reviewerName: actor.displayName });
    return c.json(review, 201);
  })
  .get("/deals/:kind/:id", async (c) => {
    return c.json(await dealReviewState(c.var.db, actorOf(c), dealKind(c.req.param("kind")), c.req.param("id")));
  })
  .get("/conversations/:id", async (c) => {
    return c.json(await conversationReviewStates(c.var.db, actorOf(c), c.req.param("id")));
  });
