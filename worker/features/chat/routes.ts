import { REQUEST_REFUSALS } from "../../../domain/errors";
import { Hono, type Context } from "hono";
import { CHAT_REFUSALS } from "../../../domain/chat";
import { RATE_RULES } from "../../../domain/rate-limits";
import { markReadSchema, messagePageQuerySchema, sendMessageSchema, startConversationSchema } from "../../../domain/schemas/chat";
import type { Actor, AppEnv } from "../../env";
import type { SocketSession } from "./socket-session";
import { AppError } from "../../lib/errors";
import { validate } from "../../lib/validate";
import { actorOf, requireUser } from "../../middleware/session";
import { noStore } from "../../middleware/cache";
import { markConversationRead, messagePageFor, openInboxSocket, openRoomSocket, postMessage } from "./live";
import { getConversation, listConversations, requireParticipant, startConversation, unreadCount } from "./conversations";
import { enforceRateLimit } from "../../lib/rate-limit";
import { assertNotSuspended } from "../moderation/suspension";
import { UUID_RE } from "../../lib/uuid";

/**
 * A WebSocket upgrade is a GET that carries the session cookie, so the same-origin rule for
 * state changes does not cover it: a page on another site could open one in the user's name. The
 * browser always sends Origin on a WebSocket handshake; it must be ours, and the user signed in,
 * before anything reaches a Durable Object.
 */
function upgradeActor(c: Context<AppEnv>): Actor {
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") throw new AppError("VALIDATION", CHAT_REFUSALS.notWebSocket);
  const origin = c.req.header("Origin");
  if (!origin || (origin !== new URL(c.req.url).origin && origin !== c.env.APP_ORIGIN))
    throw new AppError("FORBIDDEN", REQUEST_REFUSALS.foreignOrigin);
  return actorOf(c);
}

/** The session a socket belongs to: it is closed when that session ends or its access token expires (decision 080). */
function socketSession(actor: Actor): SocketSession {
  return { userId: actor.id, family: actor.sessionFamily, expiresAt: actor.accessExpiresAt };
}

/** The object's 101 response as our own (its headers are immutable; the app adds security headers). */
function switching(res: Response): Response {
  if (res.status !== 101 || !res.webSocket) throw new Error(`WebSocket upgrade refused by the Durable Object (${res.status})`);
  return new Response(null, { status: 101, webSocket: res.webSocket });
}

/**
 * Conversations and messages (docs/product.md "Messages and chat", "States", "Validation", "Who may do what", "Server calls"). Only the two participants see one; an
 * id that is not a UUID, or not theirs, is 404 (conversations.ts). The static paths
 * (/live, /unread-count) are registered before /:id, so they win.
 */
export const conversationRoutes = new Hono<AppEnv>()
  // The user's live badge and inbox: one socket per open tab (docs/decisions/029-live-unread-badge.md).
  .get("/live", async (c) => switching(await openInboxSocket(c.env, socketSession(upgradeActor(c)))))
  // The chat's socket: `?after=` is the last seq the client has; it gets everything newer first.
  .get("/:id/live", async (c) => {
    const actor = upgradeActor(c);
    const conv = await requireParticipant(c.var.db, c.req.param("id"), actor.id);
    const after = Math.max(0, Math.floor(Number(c.req.query("after") ?? 0)) || 0);
    return switching(await openRoomSocket(c.env, conv.id, socketSession(actor), after));
  })
  .use(requireUser)
  .get("/", noStore, async (c) => {
    const offset = Math.max(0, Math.min(10_000, Number(c.req.query("offset") ?? 0) || 0));
    return c.json(await listConversations(c.var.db, actorOf(c).id, offset));
  })
  .post("/", validate("json", startConversationSchema), async (c) => {
    const actor = actorOf(c);
    const db = c.var.db;
    await assertNotSuspended(db, actor.id);
    await enforceRateLimit(db, RATE_RULES.conversationStart, actor.id);
    const { id, created } = await startConversation(db, c.req.valid("json").listing_id, actor.id);
    return c.json({ id }, created ? 201 : 200);
  })
  .get("/unread-count", noStore, async (c) => {
    return c.json({ count: await unreadCount(c.var.db, actorOf(c).id) });
  })
  .get("/:id", noStore, async (c) => {
    return c.json(await getConversation(c.var.db, c.req.param("id"), actorOf(c).id));
  })
  .get("/:id/messages", validate("query", messagePageQuerySchema), async (c) => {
    const conv = await requireParticipant(c.var.db, c.req.param("id"), actorOf(c).id);
    // Once the caller is known to take part (not the noStore middleware): a 404 never carried it.
    c.header("Cache-Control", "no-store");
    return c.json(await messagePageFor(c.env, conv.id, actorOf(c).id, c.req.valid("query").before));
  })
  // For clients without a socket: the same path through the room, which still fans it out. The room
  // refuses a sender who does not take part, as it does on the socket (decision 107): its
  // participants come from D1 once, so the send reads nothing from D1 here.
  .post("/:id/messages", validate("json", sendMessageSchema), async (c) => {
    const actor = actorOf(c);
    const conversationId = c.req.param("id");
    // Only a conversation's id reaches a room: anything else would make a room for it.
    if (!UUID_RE.test(conversationId)) throw new AppError("NOT_FOUND", CHAT_REFUSALS.conversationNotFound);
    const { id, content } = c.req.valid("json");
    const message = await postMessage(c.env, { conversationId, senderId: actor.id, id, content });
    return c.json(message, 201);
  })
  .post("/:id/read", validate("json", markReadSchema), async (c) => {
    const actor = actorOf(c);
    const conv = await requireParticipant(c.var.db, c.req.param("id"), actor.id);
    return c.json(await markConversationRead(c.env, conv.id, actor.id, c.req.valid("json").up_to_seq));
  });
