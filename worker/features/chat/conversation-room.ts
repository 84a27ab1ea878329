// One ConversationRoom per conversation (docs/decisions/028-live-chat.md). It holds the
// participants' WebSockets with the Hibernation API and is the one place that writes a message:
// into its own SQLite storage first (room-store.ts), then the acknowledgement to the sender and the
// fan-out to everyone else, in sequence order; an alarm mirrors the messages to D1 afterwards
// (room-mirror.ts, docs/decisions/107-chat-acknowledged-by-its-room.md). The Worker has already checked the session, the Origin and participation before it
// forwards an upgrade; the user, the session family and the access token's expiry travel in the
// attachment, so they survive hibernation. A socket lives no longer than its session
// (docs/decisions/080): expiry is checked on every frame, on fan-out and by the alarm; revocation
// calls `endSessions`. Reading and writing frames is in room-frames.ts, the offline-mail timing in
// room-presence.ts; this class keeps the state (sockets, the write chain, presence, the alarm).
// Whether a sender is suspended or a participant deleted is cached here and refreshed when the
// Worker says it changed (`participantChanged`); the rate limit counts the sender's messages here.
import { DurableObject } from "cloudflare:workers";
import {
  CATCH_UP_PAGE_SIZE,
  HEARTBEAT_PING,
  HEARTBEAT_PONG,
  OFFLINE_MAIL_AFTER_MS,
  ROOM_SOCKETS_PER_USER,
  SOCKET_CLOSE,
  SYSTEM_USER_ID,
  CHAT_REFUSALS,
  MESSAGE_REMOVED_EVENT,
  type ChatMessage,
  type MessagePage,
  type MessageRemovedEvent,
  type RoomFrame,
} from "../../../domain/messaging";
import { REMOVED_MESSAGE_TEXT, suspensionMessage } from "../../../domain/moderation";
import { RATE_LIMITED_MESSAGE, RATE_RULES } from "../../../domain/rate-limits";
import { sendMessageSchema } from "../../../domain/schemas/messaging";
import { getDb, type Db } from "../../db/client";
import type { Bindings } from "../../env";
import { nowIso } from "../../lib/crypto";
import { AppError } from "../../lib/errors";
import { mailUnreadMessages } from "./mail";
import { markMirrored, mirrorToD1, MIRROR_BATCH, unmirroredRows } from "./room-mirror";
import {
  createSchema,
  insertMessage,
  isParticipant,
  loadParticipants,
  loadRoom,
  markRead,
  messagePage,
  messagesAfter,
  rateLimitRetryAfter,
  readersOf,
  readHorizon,
  replaceContent,
  rowById,
  toMessage,
  USER_STATE_MAX_AGE_MS,
  type RoomInfo,
  type RoomRow,
} from "./room-store";
import { belongsTo, closeExpired, closeSocket, isExpired, openCount, refuseSocket, sessionOf, type SocketSession } from "./socket-session";
import { inboxStub } from "./stubs";
import { failure, frameId, readClientFrame, send, sendText, type RoomResult } from "./room-frames";
import { mailDueAt, noteMessage, type Presence } from "./room-presence";

/** Headers the Worker sets when it forwards an authenticated upgrade (never taken from a client). */
export const ROOM_CONVERSATION_HEADER = "X-Lekebytte-Conversation";
export const ROOM_AFTER_HEADER = "X-Lekebytte-After";

/** A mirror that failed (D1 unreachable) is tried again this much later, for as long as it takes. */
const MIRROR_RETRY_MS = 5_000;
/** A pending mirror alarm that has not run this long after it was set is set again by the next write. */
const MIRROR_REARM_MS = 2_000;

interface SocketState extends SocketSession {
  conversationId: string;
  /** False until the catch-up has been sent: the fan-out skips it so nothing arrives twice. */
  ready: boolean;
}

export interface PostInput {
  conversationId: string;
  senderId: string;
  id: string;
  content: string;
  /** The feature that posts it has e-mailed the recipients itself (a new trade offer): no offline mail for it. */
  mailed?: boolean;
  /** System messages only: the one participant who sees it (the notification test); both when absent. */
  recipientId?: string;
  /**
   * Return only once D1 has it too (other features' system messages: they and their callers read
   * D1 next). A participant's send is answered as soon as the room has stored it.
   */
  mirrored?: boolean;
}

export interface ReadInput {
  conversationId: string;
  readerId: string;
  upToSeq?: number;
  /** Return once D1 has the marks (a reader over HTTP reads its unread count from D1 next). */
  mirrored?: boolean;
}

export class ConversationRoom extends DurableObject<Bindings> {
  /** Writes and catch-ups run one at a time, so fan-out follows the sequence numbers. */
  private chain: Promise<unknown> = Promise.resolve();
  private alarmChain: Promise<unknown> = Promise.resolve();
  private conversationId: string | null = null;
  private info: RoomInfo | null = null;
  /**
   * When the alarm to mirror to D1 was set (0: none pending). Nothing moves it later; a write finds
   * it set and adds nothing, unless it was set MIRROR_REARM_MS ago and has not run (set it again).
   */
  private mirrorArmedAt = 0;
  private readonly db: Db;
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.db = getDb(env.DB);
    this.sql = ctx.storage.sql;
    createSchema(this.sql);
    // Rows D1 lacks from before a restart: their alarm is stored with them, this only covers one that was lost.
    if (unmirroredRows(this.sql, 1).length > 0) this.armMirror();
    // Heartbeats are answered by the runtime without waking the room (docs/product.md "Limits and timings": 25 s).
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(HEARTBEAT_PING, HEARTBEAT_PONG));
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** The room serves exactly one conversation; remembered for the alarm. */
  private bind(conversationId: string): void {
    if (this.conversationId === conversationId) return;
    const stored = this.ctx.storage.kv.get<string>("conversationId");
    if (stored && stored !== conversationId) throw new Error(`room of ${stored} asked about ${conversationId}`);
    if (!stored) this.ctx.storage.kv.put("conversationId", conversationId);
    this.conversationId = conversationId;
  }

  /**
   * The room's conversation as loaded from D1 the first time (participants, their standing, the
   * messages D1 already had); the participants' standing is read again when it is older than
   * USER_STATE_MAX_AGE_MS. Runs inside the chain, so the first load happens once.
   */
  private async room(conversationId: string): Promise<RoomInfo> {
    this.bind(conversationId);
    let info = this.info ?? this.ctx.storage.kv.get<RoomInfo>("room") ?? null;
    if (!info) {
      info = await loadRoom(this.db, this.sql, conversationId);
      if (!info) throw new AppError("NOT_FOUND", CHAT_REFUSALS.conversationNotFound);
      this.ctx.storage.kv.put("room", info);
    } else if (Date.now() - info.usersLoadedAt > USER_STATE_MAX_AGE_MS) {
      info = { ...info, users: await loadParticipants(this.db, [info.buyerId, info.sellerId]), usersLoadedAt: Date.now() };
      this.ctx.storage.kv.put("room", info);
    }
    this.info = info;
    return info;
  }

  // ---- sockets ----------------------------------------------------------------------------------

  async fetch(request: Request): Promise<Response> {
    const session = sessionOf(request);
    const conversationId = request.headers.get(ROOM_CONVERSATION_HEADER);
    const after = Number(request.headers.get(ROOM_AFTER_HEADER) ?? 0);
    if (!session || !conversationId) {
      return new Response("Expected an authenticated WebSocket upgrade", { status: 400 });
    }
    const { userId } = session;
    this.bind(conversationId);
    // Counted and accepted without an await in between, so a burst of upgrades cannot slip past.
    // Refused before its catch-up: replaying the history is what a flood of sockets costs the room.
    if (openCount(this.ctx.getWebSockets(userId)) >= ROOM_SOCKETS_PER_USER) return refuseSocket("too many connections");
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [userId]);
    server.serializeAttachment({ ...session, conversationId, ready: false } satisfies SocketState);
    void this.armAlarm(session.expiresAt * 1000);
    void this.serial(() => this.catchUp(server, conversationId, userId, Number.isSafeInteger(after) && after > 0 ? after : 0));
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Everything after the client's last seen seq, then live messages (the socket becomes ready). */
  private async catchUp(ws: WebSocket, conversationId: string, userId: string, after: number): Promise<void> {
    try {
      await this.room(conversationId);
      let cursor = after;
      for (;;) {
        const messages = messagesAfter(this.sql, conversationId, userId, cursor, CATCH_UP_PAGE_SIZE);
        cursor = messages.at(-1)?.seq ?? cursor;
        const done = messages.length < CATCH_UP_PAGE_SIZE;
        const frame: RoomFrame & { read_up_to?: number } = { type: "sync", messages, last_seq: cursor, done };
        if (done) frame.read_up_to = readHorizon(this.sql, userId);
        if (!send(ws, frame)) return;
        if (done) break;
      }
      const state = ws.deserializeAttachment() as SocketState;
      ws.serializeAttachment({ ...state, ready: true } satisfies SocketState);
    } catch (err) {
      console.error("ConversationRoom catch-up failed", err);
      // The client reconnects and asks again from the same point.
      closeSocket(ws, 1011, "catch-up failed");
    }
  }

  async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    const state = ws.deserializeAttachment() as SocketState | null;
    if (!state) return closeSocket(ws, 1008, "unknown socket");
    // The access token behind this socket has run out: nothing more until the client reconnects with a fresh one.
    if (isExpired(state)) return this.expire(ws);
    const read = readClientFrame(data);
    if (!read.ok) {
      send(ws, read.error);
      return;
    }
    const { frame } = read;
    if (frame.type === "send") {
      const result = await this.write(
        { conversationId: state.conversationId, senderId: state.userId, id: frame.id, content: frame.content },
        ws,
      );
      if (!result.ok) {
        send(ws, {
          type: "error",
          id: frameId(frame.id),
          code: result.code,
          message: result.message,
          ...(result.retryAfter ? { retry_after: result.retryAfter } : {}),
        });
      }
    } else {
      const result = await this.read({ conversationId: state.conversationId, readerId: state.userId, upToSeq: frame.up_to_seq });
      if (!result.ok) send(ws, { type: "error", code: result.code, message: result.message });
    }
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    closeSocket(ws, code === 1005 || code === 1006 ? 1000 : code, "");
    await this.left(ws);
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    closeSocket(ws, 1011, "error");
    await this.left(ws);
  }

  private async expire(ws: WebSocket): Promise<void> {
    closeSocket(ws, SOCKET_CLOSE.expired, "session expired");
    await this.left(ws);
  }

  /** A participant's last socket closed: remember when, and look for unread mail in 15 minutes. */
  private async left(ws: WebSocket): Promise<void> {
    const state = ws.deserializeAttachment() as SocketState | null;
    if (!state || this.isOnline(state.userId, ws)) return;
    this.bind(state.conversationId);
    const presence = this.presence();
    const now = Date.now();
    presence[state.userId] = { ...presence[state.userId], lastSeen: now, pending: true };
    await this.savePresence(presence, now + OFFLINE_MAIL_AFTER_MS);
  }

  private isOnline(userId: string, except?: WebSocket): boolean {
    return this.ctx.getWebSockets(userId).some((ws) => ws !== except && ws.readyState === WebSocket.OPEN);
  }

  // ---- the write path (RPC from the Worker, and socket frames) ----------------------------------

  /**
   * Validate, check the sender (participant, not suspended, nobody deleted, rate limit), store in the
   * room's storage, then acknowledge and fan out; D1 gets it from the mirror. `origin` is the socket
   * that sent it (it gets the ack, the others get the message); an HTTP send has none and every
   * socket gets it.
   */
  async post(input: PostInput): Promise<RoomResult<ChatMessage>> {
    return this.write(input);
  }

  private async write(input: PostInput, origin?: WebSocket): Promise<RoomResult<ChatMessage>> {
    try {
      const parsed = sendMessageSchema.safeParse({ id: input.id, content: input.content });
      if (!parsed.success) throw new AppError("VALIDATION", parsed.error.issues[0]?.message);
      this.bind(input.conversationId);
      const system = input.senderId === SYSTEM_USER_ID;
      const recipientId = system ? (input.recipientId ?? null) : null;
      const stored = await this.serial(async () => {
        const room = await this.room(input.conversationId);
        const existing = rowById(this.sql, parsed.data.id);
        if (!existing) this.assertMayWrite(room, input.senderId, recipientId);
        // A retry of a stored message gets it back; an id that is someone else's message never does.
        if (existing && existing.sender_id !== input.senderId) throw new AppError("CONFLICT", CHAT_REFUSALS.notStored);
        const row =
          existing ?? insertMessage(this.sql, { id: parsed.data.id, senderId: input.senderId, content: parsed.data.content, recipientId });
        if (!existing) {
          this.armMirror();
          // The one awaited storage write: durable before anyone hears of the message.
          await this.ctx.storage.sync();
        }
        const message = toMessage(row, input.conversationId);
        if (origin) send(origin, { type: "ack", id: message.id, message });
        if (!existing) this.fanOut({ type: "message", message }, origin, recipientId ?? undefined);
        return { message, created: !existing, room };
      });
      if (stored.created) {
        const participants = recipientId ? [recipientId] : [stored.room.buyerId, stored.room.sellerId];
        if (!input.mailed) await this.afterMessage(input.senderId, participants, !origin && !system);
      }
      if (input.mirrored) await this.mirrorSafely();
      return { ok: true, value: stored.message };
    } catch (err) {
      return failure(err);
    }
  }

  /** The checks D1's write condition made before (decision 028), from the room's cached standing. */
  private assertMayWrite(room: RoomInfo, senderId: string, recipientId: string | null): void {
    const system = senderId === SYSTEM_USER_ID;
    if (!system && !isParticipant(room, senderId)) throw new AppError("NOT_FOUND", CHAT_REFUSALS.conversationNotFound);
    if (recipientId && !isParticipant(room, recipientId)) throw new AppError("CONFLICT", CHAT_REFUSALS.notStored);
    if (!system) {
      // A suspended user sends nothing, over the socket or HTTP (moderation/suspension.ts).
      const sender = room.users[senderId];
      if (sender?.suspendedUntil && sender.suspendedUntil > nowIso()) {
        throw new AppError("SUSPENDED", suspensionMessage(sender.suspendedUntil, sender.suspensionReason));
      }
    }
    if (room.users[room.buyerId]?.deleted || room.users[room.sellerId]?.deleted) {
      throw new AppError("CONFLICT", CHAT_REFUSALS.recipientDeleted);
    }
    if (!system) {
      const rule = RATE_RULES.messageSend;
      const retryAfter = rateLimitRetryAfter(this.sql, senderId, rule.limit, rule.windowSeconds);
      if (retryAfter !== null) throw new AppError("RATE_LIMITED", RATE_LIMITED_MESSAGE, undefined, { "Retry-After": String(retryAfter) });
    }
  }

  /** Mark read by `readerId`, tell both sides (the sender sees it read) and the reader's other tabs. */
  async read(input: ReadInput): Promise<RoomResult<{ count: number; up_to_seq: number }>> {
    try {
      this.bind(input.conversationId);
      const result = await this.serial(async () => {
        const room = await this.room(input.conversationId);
        // Only a participant marks anything read (the Worker has checked already).
        if (!isParticipant(room, input.readerId)) return { count: 0, upToSeq: 0 };
        const marked = markRead(this.sql, input.readerId, input.upToSeq);
        if (marked.count > 0) {
          this.armMirror();
          this.fanOut({ type: "read", reader_id: input.readerId, up_to_seq: marked.upToSeq, read_at: marked.readAt });
        }
        return marked;
      });
      if (input.mirrored && result.count > 0) await this.mirrorSafely();
      return { ok: true, value: { count: result.count, up_to_seq: result.upToSeq } };
    } catch (err) {
      return failure(err);
    }
  }

  /** A page of the history for `viewerId` (GET …/messages): the room holds every message, mirrored or not. */
  async page(conversationId: string, viewerId: string, limit: number, beforeSeq?: number): Promise<RoomResult<MessagePage>> {
    try {
      return await this.serial(async () => {
        const room = await this.room(conversationId);
        if (!isParticipant(room, viewerId)) throw new AppError("NOT_FOUND", CHAT_REFUSALS.conversationNotFound);
        return { ok: true as const, value: messagePage(this.sql, conversationId, viewerId, limit, beforeSeq) };
      });
    } catch (err) {
      return failure(err);
    }
  }

  /**
   * A moderator removed a message (D1 already has the new text): the room's copy gets it too and
   * every open chat shows it at once. Returns whether the room had the message.
   */
  async removeMessage(conversationId: string, messageId: string, content: string = REMOVED_MESSAGE_TEXT): Promise<boolean> {
    return this.serial(async () => {
      await this.room(conversationId);
      const row = replaceContent(this.sql, messageId, content);
      if (!row) return false;
      this.armMirror();
      await this.ctx.storage.sync();
      const event: MessageRemovedEvent = { id: row.id, seq: row.seq, content: row.content };
      this.fanOut({ type: "event", name: MESSAGE_REMOVED_EVENT, data: event });
      return true;
    });
  }

  /**
   * A participant was suspended, unsuspended or deleted their account: read their standing from D1
   * again. A room that has not loaded its conversation yet has nothing cached to refresh.
   */
  async participantChanged(conversationId: string, userId: string): Promise<boolean> {
    this.bind(conversationId);
    return this.serial(async () => {
      const info = this.info ?? this.ctx.storage.kv.get<RoomInfo>("room");
      if (!info || !isParticipant(info, userId)) return false;
      this.info = { ...info, users: await loadParticipants(this.db, [info.buyerId, info.sellerId]), usersLoadedAt: Date.now() };
      this.ctx.storage.kv.put("room", this.info);
      return true;
    });
  }

  // ---- the D1 mirror ------------------------------------------------------------------------------

  /** Mirror soon: an alarm now (a storage write that commits with the message, before the ack leaves). */
  private armMirror(): void {
    const now = Date.now();
    if (this.mirrorArmedAt !== 0 && now - this.mirrorArmedAt < MIRROR_REARM_MS) return;
    this.mirrorArmedAt = now;
    void this.ctx.storage.setAlarm(now);
  }

  /**
   * Write every row D1 lacks to D1, then tell the inboxes whose counts changed (they count from D1).
   * Safe to run twice at once (the alarm and a flush): the upsert is keyed by message id. Returns
   * how many rows it wrote. Also called by the Worker before it reads D1 for a user's data (the export).
   */
  async mirror(): Promise<number> {
    const info = this.info ?? this.ctx.storage.kv.get<RoomInfo>("room");
    if (!info) return 0;
    let written = 0;
    for (let round = 0; round < 20; round++) {
      const rows = unmirroredRows(this.sql);
      if (rows.length === 0) return written;
      const { mirrored, foreign } = await mirrorToD1(this.db, info.conversationId, rows);
      markMirrored(this.sql, mirrored);
      for (const row of foreign) this.withdraw(row);
      await this.notifyInboxes([...new Set(mirrored.flatMap((row) => readersOf(info, row)))], info.conversationId);
      written += mirrored.length;
      if (rows.length < MIRROR_BATCH) return written;
    }
    this.armMirror(); // more than a few rounds' worth: the next alarm goes on
    return written;
  }

  /** The mirror, its failure logged and retried by the alarm (D1 unreachable for a moment). */
  private async mirrorSafely(): Promise<void> {
    try {
      await this.mirror();
    } catch (err) {
      console.error("ConversationRoom mirror to D1 failed; retrying", err);
      this.mirrorArmedAt = Date.now();
      await this.ctx.storage.setAlarm(Date.now() + MIRROR_RETRY_MS);
    }
  }

  /**
   * D1 holds this message id for another conversation: the sender reused an id seen elsewhere, which
   * no honest client does. The message is withdrawn here (shown removed, never mirrored) rather
   * than left where moderation cannot see it.
   */
  private withdraw(row: RoomRow): void {
    const removed = replaceContent(this.sql, row.id, REMOVED_MESSAGE_TEXT);
    if (!removed) return;
    this.sql.exec("UPDATE messages SET mirrored = version WHERE id = ?", row.id);
    const event: MessageRemovedEvent = { id: removed.id, seq: removed.seq, content: removed.content };
    this.fanOut({ type: "event", name: MESSAGE_REMOVED_EVENT, data: event });
  }

  /**
   * A live event from another feature (e.g. a trade offer changed) to every connected participant,
   * in order with the messages. Returns how many sockets got it.
   */
  async push(conversationId: string, name: string, data: unknown): Promise<number> {
    this.bind(conversationId);
    return this.serial(async () => this.fanOut({ type: "event", name, data }));
  }

  /**
   * A session ended (sign-out, revoked family, password change, suspension, account deletion):
   * close the user's sockets here, those of one family or, with `family` null, all of them.
   */
  async endSessions(userId: string, family: string | null, reason: string): Promise<number> {
    let closed = 0;
    for (const ws of this.ctx.getWebSockets(userId)) {
      if (!belongsTo(ws.deserializeAttachment() as SocketState | null, userId, family)) continue;
      closeSocket(ws, SOCKET_CLOSE.sessionEnded, reason);
      closed++;
      await this.left(ws);
    }
    return closed;
  }

  /** Send to every ready socket (only `onlyUserId`'s when given), except `except`. */
  private fanOut(frame: RoomFrame, except?: WebSocket, onlyUserId?: string): number {
    const text = JSON.stringify(frame);
    const now = Date.now();
    let sent = 0;
    for (const ws of onlyUserId ? this.ctx.getWebSockets(onlyUserId) : this.ctx.getWebSockets()) {
      if (ws === except) continue;
      const state = ws.deserializeAttachment() as SocketState | null;
      if (!state?.ready) continue; // its catch-up (queued after this write) will include it
      if (isExpired(state, now)) {
        // Not even the alarm's few milliseconds late: an expired socket hears nothing more.
        void this.expire(ws);
        continue;
      }
      if (sendText(ws, text)) sent++;
    }
    return sent;
  }

  /**
   * After the mirror (the inbox counts from D1): the badge may lag the chat by a moment, never the
   * other way round. Awaited by the mirror (off the ack's path), so an alarm that ends cannot drop it.
   */
  private async notifyInboxes(userIds: string[], conversationId: string): Promise<void> {
    const results = await Promise.allSettled(
      userIds.filter((id) => id !== SYSTEM_USER_ID).map((userId) => inboxStub(this.env, userId).changed(userId, conversationId)),
    );
    for (const r of results) if (r.status === "rejected") console.error("UserInbox notification failed", r.reason);
  }

  // ---- offline e-mail ---------------------------------------------------------------------------

  // Presence lives in the synchronous KV storage, so two handlers cannot interleave a read and a write.
  private presence(): Record<string, Presence> {
    return this.ctx.storage.kv.get<Record<string, Presence>>("presence") ?? {};
  }

  /** Save, and make sure the alarm fires no later than `dueAt` (one adjustment at a time). */
  private savePresence(presence: Record<string, Presence>, dueAt?: number): Promise<void> {
    this.ctx.storage.kv.put("presence", presence);
    return dueAt === undefined ? Promise.resolve() : this.armAlarm(dueAt);
  }

  /**
   * The one alarm serves the D1 mirror, the offline mail and the sockets' expiry: it fires at the
   * earliest of them. A pending mirror alarm is never moved later (the alarm re-arms the rest).
   */
  private armAlarm(dueAt: number): Promise<void> {
    const adjust = this.alarmChain.then(async () => {
      const current = await this.ctx.storage.getAlarm();
      if (this.mirrorArmedAt !== 0) return;
      if (current === null || current > dueAt) await this.ctx.storage.setAlarm(dueAt);
    });
    this.alarmChain = adjust.catch(() => undefined);
    return adjust;
  }

  /** Recipients who are away get an e-mail check; an HTTP sender counts as present. */
  private async afterMessage(senderId: string, participants: string[], senderPresentOverHttp: boolean): Promise<void> {
    const away = participants.filter((id) => id !== senderId && !this.isOnline(id));
    if (away.length === 0 && !senderPresentOverHttp) return;
    const presence = this.presence();
    const now = Date.now();
    const seenSender = senderPresentOverHttp && !this.isOnline(senderId) ? senderId : null;
    const { changed, due } = noteMessage(presence, away, seenSender, now);
    if (changed) await this.savePresence(presence, due === undefined ? undefined : Math.max(now, due));
  }

  async alarm(): Promise<void> {
    this.mirrorArmedAt = 0;
    // First D1, so the offline mail below counts what the room has stored.
    await this.mirrorSafely();
    const now = Date.now();
    const expired: WebSocket[] = [];
    let next = closeExpired(this.ctx.getWebSockets(), now, (ws) => expired.push(ws));
    for (const ws of expired) await this.left(ws);
    const conversationId = this.conversationId ?? this.ctx.storage.kv.get<string>("conversationId");
    if (!conversationId) return next === undefined ? undefined : this.armAlarm(next);
    const presence = this.presence();
    for (const [userId, p] of Object.entries(presence)) {
      if (!p.pending) continue;
      if (this.isOnline(userId)) {
        // They are here and see messages live; leaving re-arms the check.
        presence[userId] = { ...p, pending: false };
        continue;
      }
      const due = mailDueAt(p);
      if (due > now) {
        next = next === undefined ? due : Math.min(next, due);
        continue;
      }
      const mailed = await mailUnreadMessages(this.env, conversationId, userId);
      presence[userId] = { ...p, pending: false, ...(mailed ? { lastMailed: now } : {}) };
    }
    await this.savePresence(presence, next);
  }
}
