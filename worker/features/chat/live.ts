// The live side of chat for routes and other features (trades, payments, moderation): every
// message goes through its ConversationRoom, which stores it in its own storage before anyone hears
// of it, fans it out in order and mirrors it to D1 (docs/decisions/107). Nothing here writes
// messages directly.
import type { ChatMessage, MessagePage } from "../../../domain/chat";
import { MESSAGE_PAGE_SIZE, SYSTEM_USER_ID } from "../../../domain/chat";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { ROOM_AFTER_HEADER, ROOM_CONVERSATION_HEADER } from "./conversation-room";
import type { RoomResult } from "./room-frames";
import { sessionHeaders, type SocketSession } from "./socket-session";
import { inboxStub, roomStub } from "./stubs";
import { conversationIdsOf } from "./conversations";

function unwrap<T>(result: RoomResult<T>): T {
  if (result.ok) return result.value;
  throw new AppError(result.code, result.message, undefined, result.retryAfter ? { "Retry-After": String(result.retryAfter) } : undefined);
}

export interface PostMessageInput {
  conversationId: string;
  senderId: string;
  /** Client-generated UUID: the same id sent twice is stored once. */
  id: string;
  content: string;
}

/**
 * Send a message as a participant (HTTP clients without a socket). Validated, rate limited per
 * sender, stored with the next seq, then fanned out to the open sockets. Throws AppError.
 */
export async function postMessage(env: Bindings, input: PostMessageInput): Promise<ChatMessage> {
  return unwrap(await roomStub(env, input.conversationId).post(input));
}

/**
 * A message from the system user (nil UUID) into a conversation, e.g. "Bytteforslaget ble
 * akseptert". Not rate limited; both participants see it as unread. Pass a stable `id` to make a
 * retried call land once. `mailed`: the caller has e-mailed the participants about it already, so
 * the room does not send its offline e-mail for this message (decision 030). Returns once D1 has
 * it too (when D1 is reachable; else the room's alarm mirrors it later), so the caller may read D1.
 */
export async function postSystemMessage(
  env: Bindings,
  conversationId: string,
  content: string,
  id: string = crypto.randomUUID(),
  options: { mailed?: boolean; recipientId?: string } = {},
): Promise<ChatMessage> {
  return unwrap(
    await roomStub(env, conversationId).post({
      conversationId,
      senderId: SYSTEM_USER_ID,
      id,
      content,
      mailed: options.mailed,
      recipientId: options.recipientId,
      mirrored: true,
    }),
  );
}

/** A page of the history, newest first (GET …/messages), from the room: it has what D1 may not have yet. */
export async function messagePageFor(
  env: Bindings,
  conversationId: string,
  viewerId: string,
  beforeSeq?: number,
  limit = MESSAGE_PAGE_SIZE,
): Promise<MessagePage> {
  return unwrap(await roomStub(env, conversationId).page(conversationId, viewerId, limit, beforeSeq));
}

/** A moderator removed a message (D1 already has the new text): the room's copy and the open chats follow. */
export async function removeMessageInRoom(env: Bindings, conversationId: string, messageId: string): Promise<void> {
  await roomStub(env, conversationId).removeMessage(conversationId, messageId);
}

/**
 * A user was suspended, unsuspended or deleted their account (D1 already says so): every room of
 * theirs reads their standing again, so its next send is refused or accepted accordingly. A room
 * that cannot be reached is logged; it re-reads by itself within USER_STATE_MAX_AGE_MS.
 */
export async function participantChanged(env: Bindings, userId: string): Promise<void> {
  const ids = await conversationIdsOf(env.DB, userId);
  const results = await Promise.allSettled(ids.map((id) => roomStub(env, id).participantChanged(id, userId)));
  for (const r of results) if (r.status === "rejected") console.error("Refreshing a room's participant failed", r.reason);
}

/** Every room of the user mirrors what D1 lacks, before D1 is read for their data (the export). */
export async function mirrorRoomsOf(env: Bindings, userId: string): Promise<void> {
  const ids = await conversationIdsOf(env.DB, userId);
  await Promise.all(ids.map((id) => roomStub(env, id).mirror()));
}

/**
 * Mark what `readerId` has received as read (up to `upToSeq`, or all); the sender sees it live.
 * Over HTTP (no socket): returns once D1 has the marks, so the reader's next unread count agrees.
 */
export async function markConversationRead(
  env: Bindings,
  conversationId: string,
  readerId: string,
  upToSeq?: number,
): Promise<{ count: number; up_to_seq: number }> {
  return unwrap(await roomStub(env, conversationId).read({ conversationId, readerId, upToSeq, mirrored: true }));
}

/**
 * Push a live event to both participants' open chats, in order with the messages: the client gets
 * `{ type: "event", name, data }` (e.g. name "trade_offer" when an offer changed, so the chat
 * reloads its offers). Returns how many sockets received it. Write to D1 first, then push.
 */
export async function pushConversationEvent(env: Bindings, conversationId: string, name: string, data: unknown): Promise<number> {
  return roomStub(env, conversationId).push(conversationId, name, data);
}

/**
 * Forward an upgrade the Worker has authenticated (session, Origin, participation) to the room,
 * with the session it belongs to (docs/decisions/080).
 */
export async function openRoomSocket(env: Bindings, conversationId: string, session: SocketSession, after: number): Promise<Response> {
  const headers = new Headers({
    Upgrade: "websocket",
    ...sessionHeaders(session),
    [ROOM_CONVERSATION_HEADER]: conversationId,
    [ROOM_AFTER_HEADER]: String(after),
  });
  return roomStub(env, conversationId).fetch(new Request("https://room.internal/connect", { headers }));
}

export async function openInboxSocket(env: Bindings, session: SocketSession): Promise<Response> {
  const headers = new Headers({ Upgrade: "websocket", ...sessionHeaders(session) });
  return inboxStub(env, session.userId).fetch(new Request("https://inbox.internal/connect", { headers }));
}

/** Why a session's sockets were closed (the close reason the client sees, for logs; the code decides). */
export type SessionEndReason =
  | "signed out"
  | "session revoked"
  | "password changed"
  | "email change stopped"
  | "suspended"
  | "account deleted";

/**
 * A session ended: close its sockets at once, in every conversation of the user and in their inbox
 * (`family` null: every session of the user, except `keep` when given: "Logg ut alle andre" and a
 * password change keep the session that asked). Called after the D1 change that ends it, so a
 * reconnect is refused at the upgrade. The user's conversations come from D1 (a socket can only be
 * open in one of them); a room that cannot be reached is logged, and its socket still dies at the
 * access token's expiry (at most 15 minutes later).
 */
export async function endSessionSockets(
  env: Bindings,
  userId: string,
  family: string | null,
  reason: SessionEndReason,
  keep?: string,
): Promise<void> {
  const ids = await conversationIdsOf(env.DB, userId);
  const results = await Promise.allSettled([
    ...ids.map((id) => roomStub(env, id).endSessions(userId, family, reason, keep)),
    inboxStub(env, userId).endSessions(userId, family, reason, keep),
  ]);
  for (const r of results) if (r.status === "rejected") console.error("Closing a session's sockets failed", r.reason);
}
