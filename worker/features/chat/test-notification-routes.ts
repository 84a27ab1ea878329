import { Hono } from "hono";
import { RATE_RULES } from "../../../domain/rate-limits";
import { testMessageSchema } from "../../../domain/schemas/chat";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { validate } from "../../lib/validate";
import { actorOf } from "../../middleware/session";
import { localOnly } from "../../middleware/local-only";
import { postSystemMessage } from "./live";
import { latestConversationId } from "./conversations";
import { enforceRateLimit } from "../../lib/rate-limit";
import { CHAT_REFUSALS } from "../../../domain/chat";

/**
 * The notification test (docs/product.md "Notification test", "Validation", "Who may do what"): a message from the system user
 * into the signed-in user's most recent conversation, so the badge and inbox can be tried out. Only
 * that user sees it (`recipient_id`), and it is rate limited per user.
 * Local mode only; in production the endpoint answers 404, and so does the page (its route is
 * `localOnly` in domain/routes.ts).
 */
export const testNotificationRoutes = new Hono<AppEnv>()
  .use(localOnly)
  .get("/", (c) => c.json({ enabled: true }))
  .post("/", validate("json", testMessageSchema), async (c) => {
    if (!c.get("actor")) throw new AppError("UNAUTHENTICATED", CHAT_REFUSALS.notSignedIn);
    const actor = actorOf(c);
    const rule = RATE_RULES.testNotification;
    // The 11th in a minute says why and for how long (docs/product.md "Notification test").
    await enforceRateLimit(c.var.db, rule, actor.id, Date.now(), (seconds) => CHAT_REFUSALS.testNotificationsLimited(rule.limit, seconds));
    const conversationId = await latestConversationId(c.var.db, actor.id);
    if (!conversationId) throw new AppError("NOT_FOUND", CHAT_REFUSALS.noConversations);
    // Only the user who pressed the button sees it: the other participant's badge and inbox stay as they were.
    const message = await postSystemMessage(c.env, conversationId, c.req.valid("json").content, crypto.randomUUID(), {
      recipientId: actor.id,
    });
    return c.json({ conversation_id: conversationId, message }, 201);
  });
