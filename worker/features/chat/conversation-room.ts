// One ConversationRoom per conversation (docs/decisions/028-live-chat.md, 107). It holds the
// participants' WebSockets (Hibernation API) and is the one place that writes a message: into its
// own SQLite storage (room-store.ts), then the ack to the sender and the fan-out, in sequence order;
// its alarm mirrors the messages to D1 afterwards (room-mirror.ts). The Worker has checked session,
// Origin and participation before it forwards an upgrade; the socket's session travels in its
// attachment and lives no longer than the session (decision 080: checked on every frame, on fan-out
// and by the alarm; revocation calls `endSessions`). Frames are in room-frames.ts, presence and the
// offline mail in room-presence.ts. The senders' standing (suspended, deleted) is cached in the room
// and refreshed when the Worker says it changed; the rate limit counts the sender's messages here.
import { DurableObject } from "cloudflare:workers";
import {
  HEARTBEAT_PING,
  HEARTBEAT_PONG,
  ROOM_SOCKETS_PER_USER,
  SOCKET_CLOSE,
  SYSTEM_USER_ID,
  CHAT_REFUSALS,
  MESSAGE_REMOVED_EVENT,
  type ChatMessage,
  type MessagePage,
  type RoomFrame,
} from "../../../domain/chat";
import { REMOVED_MESSAGE_TEXT } from "../../../domain/moderation";
import { sendMessageSchema } from "../../../domain/schemas/chat";
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { AppError } from "../../lib/errors";
import { mailUnreadMessages } from "./mail";
import { conversationMissing, inboxesToTell, mirrorRows, notifyInboxes, unmirroredRows, withdrawRow } from "./room-mirror";
import { MirrorClock } from "./room-mirror-clock";
import {
  assertMayWrite,
  createSchema,
  currentRoom,
  hasMirroredUnread,
  insertMessage,
  isParticipant,
  loadParticipants,
  markRead,
  messagePage,
  readersOf,
  removeContent,
  rowById,
  toMessage,
  type RoomInfo,
  type RoomRow,
} from "./room-store";
import { belongsTo, closeExpired, closeSocket, isExpired, openCount, refuseSocket, sessionOf } from "./socket-session";
import { PresenceBook } from "./room-presence";
import { answerClientFrame, failure, fanOutTo, send, sendCatchUp, type RoomResult } from "./room-frames";
import { ROOM_AFTER_HEADER, ROOM_CONVERSATION_HEADER, type PostInput, type ReadInput, type SocketState } from "./room-types";
import { countD1InLocalMode } from "../../db/usage";

export { ROOM_AFTER_HEADER, ROOM_CONVERSATION_HEADER, type PostInput, type ReadInput } from "./room-types";

export class ConversationRoom extends DurableObject<Bindings> {
  /** Writes and catch-ups run one at a time, so fan-out follows the sequence numbers. */
  private chain: Promise<unknown> = Promise.resolve();
  private alarmChain: Promise<unknown> = Promise.resolve();
  private conversationId: string | null = null;
  private info: RoomInfo | null = null;
  /** When the D1 mirror is due (docs/decisions/140). */
  private readonly mirrorClock = new MirrorClock((at) => void this.ctx.storage.setAlarm(at));
  private readonly db: Db;
  private readonly sql: SqlStorage;
  private readonly presence: PresenceBook;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, countD1InLocalMode(env));
    this.db = this.env.DB;
    this.sql = ctx.storage.sql;
    this.presence = new PresenceBook(
      ctx.storage.kv,
      (userId) => this.isOnline(userId),
      (dueAt) => this.armAlarm(dueAt),
    );
    createSchema(this.sql);
    // Rows D1 lacks from before a restart: their alarm is stored with them, this only covers one that was
    // lost. Within the window, so rooms woken together by a restart do not all mirror at once.
    if (unmirroredRows(this.sql, 1).length > 0) this.mirrorClock.arm(false);
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

  /** The room's conversation (room-store.ts `currentRoom`). Runs inside the chain, so the first load happens once. */
  private async room(conversationId: string): Promise<RoomInfo> {
    this.bind(conversationId);
    this.info = await currentRoom(this.ctx.storage.kv, this.db, this.sql, this.info, conversationId);
    return this.info;
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
      if (!sendCatchUp(ws, this.sql, conversationId, userId, after)) return;
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
    await answerClientFrame(ws, data, {
      send: (input) => this.write({ conversationId: state.conversationId, senderId: state.userId, ...input }, ws),
      read: (upToSeq) => this.read({ conversationId: state.conversationId, readerId: state.userId, upToSeq }),
    });
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
    // Away now: what the room holds for them goes to D1 for their badge and inbox, and an inbox that
    // was not told of a message while they were here counts again, both from the alarm, now.
    if (this.mirrorClock.pending || hasMirroredUnread(this.sql, state.userId)) this.mirrorClock.leftRoom(state.userId);
    await this.presence.left(state.userId, Date.now());
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
        if (!existing) assertMayWrite(this.sql, room, input.senderId, recipientId);
        // A retry of a stored message gets it back; an id that is someone else's message never does.
        if (existing && existing.sender_id !== input.senderId) throw new AppError("CONFLICT", CHAT_REFUSALS.notStored);
        const row =
          existing ?? insertMessage(this.sql, { id: parsed.data.id, senderId: input.senderId, content: parsed.data.content, recipientId });
        // No await from the insert to the frames: the output gate holds them (and the RPC's answer)
        // until the row and the mirror alarm are durable (docs/decisions/138).
        // Someone away from the room sees D1 (badge, inbox): at once. Everyone here sees it live.
        if (!existing) this.mirrorClock.arm(readersOf(room, row).some((id) => !this.isOnline(id)));
        const message = toMessage(row, input.conversationId);
        if (origin) send(origin, { type: "ack", id: message.id, message });
        if (!existing) this.fanOut({ type: "message", message }, origin, recipientId ?? undefined);
        return { message, created: !existing, room };
      });
      if (stored.created) {
        const participants = recipientId ? [recipientId] : [stored.room.buyerId, stored.room.sellerId];
        if (!input.mailed) await this.presence.afterMessage(input.senderId, participants, !origin && !system);
      }
      if (input.mirrored) await this.mirrorSafely();
      return { ok: true, value: stored.message };
    } catch (err) {
      return failure(err);
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
          // D1 counts a mirrored message unread until the mark gets there; an unmirrored one goes with it.
          this.mirrorClock.arm(marked.wasMirrored);
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
      const event = removeContent(this.sql, messageId, content);
      if (!event) return false;
      this.mirrorClock.arm(true);
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

  /**
   * Write every row D1 lacks to D1, then tell the inboxes whose counts changed (they count from D1).
   * Safe to run twice at once (the alarm and a flush): the upsert is keyed by message id. Returns
   * how many rows it wrote. Also called by the Worker before it reads D1 for a user's data (the export).
   */
  async mirror(): Promise<number> {
    const info = this.info ?? this.ctx.storage.kv.get<RoomInfo>("room");
    if (!info) return 0;
    const { written, more } = await mirrorRows(this.db, this.sql, info, {
      withdraw: (row) => this.withdraw(row),
      changed: (rows) =>
        notifyInboxes(
          this.env,
          inboxesToTell(info, rows, (id) => this.isOnline(id)),
          info.conversationId,
        ),
    });
    if (more) this.mirrorClock.arm(true); // more than a few rounds' worth: the next alarm goes on
    return written;
  }

  /** The mirror, its failure logged and retried (D1 unreachable for a moment); not when D1 has no such conversation (deleted, or restored to before it): the rows stay in the room. */
  private async mirrorSafely(): Promise<void> {
    try {
      await this.mirror();
    } catch (err) {
      const conversationId = (this.info ?? this.ctx.storage.kv.get<RoomInfo>("room"))?.conversationId; // an alarm may wake the room
      if (conversationId && (await conversationMissing(this.db, conversationId)))
        return console.warn("ConversationRoom: D1 has no conversation for the room; its rows stay unmirrored", conversationId);
      console.error("ConversationRoom mirror to D1 failed; retrying", err);
      this.mirrorClock.retry();
    }
  }

  /** A message whose id D1 holds for another conversation is withdrawn (room-mirror.ts `withdrawRow`). */
  private withdraw(row: RoomRow): void {
    const event = withdrawRow(this.sql, row.id);
    if (event) this.fanOut({ type: "event", name: MESSAGE_REMOVED_EVENT, data: event });
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
  async endSessions(userId: string, family: string | null, reason: string, keep?: string): Promise<number> {
    let closed = 0;
    for (const ws of this.ctx.getWebSockets(userId)) {
      if (!belongsTo(ws.deserializeAttachment() as SocketState | null, userId, family, keep)) continue;
      closeSocket(ws, SOCKET_CLOSE.sessionEnded, reason);
      closed++;
      await this.left(ws);
    }
    return closed;
  }

  /** Send to every ready socket (only `onlyUserId`'s when given), except `except`; an expired one is closed. */
  private fanOut(frame: RoomFrame, except?: WebSocket, onlyUserId?: string): number {
    const sockets = onlyUserId ? this.ctx.getWebSockets(onlyUserId) : this.ctx.getWebSockets();
    return fanOutTo(sockets, frame, except, (ws) => void this.expire(ws));
  }

  // ---- offline e-mail ---------------------------------------------------------------------------

  /**
   * The one alarm serves the D1 mirror, the offline mail and the sockets' expiry: it fires at the
   * earliest of them. A pending mirror alarm is never moved later (the alarm re-arms the rest).
   */
  private armAlarm(dueAt: number): Promise<void> {
    const adjust = this.alarmChain.then(async () => {
      const current = await this.ctx.storage.getAlarm();
      if (this.mirrorClock.pending) return;
      if (current === null || current > dueAt) await this.ctx.storage.setAlarm(dueAt);
    });
    this.alarmChain = adjust.catch(() => undefined);
    return adjust;
  }

  async alarm(): Promise<void> {
    const left = this.mirrorClock.fired();
    // First D1, so the offline mail below counts what the room has stored.
    await this.mirrorSafely();
    if (left.length > 0 && this.conversationId) await notifyInboxes(this.env, left, this.conversationId);
    const now = Date.now();
    const expired: WebSocket[] = [];
    const next = closeExpired(this.ctx.getWebSockets(), now, (ws) => expired.push(ws));
    for (const ws of expired) await this.left(ws);
    const conversationId = this.conversationId ?? this.ctx.storage.kv.get<string>("conversationId");
    if (!conversationId) return next === undefined ? undefined : this.armAlarm(next);
    await this.presence.mailWhoIsAway(now, next, (userId) => mailUnreadMessages(this.env, conversationId, userId));
  }
}
