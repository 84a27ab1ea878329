// One UserInbox per user (docs/decisions/029-live-unread-badge.md): every open tab of the user keeps
// one hibernatable WebSocket here, and the rooms call `changed` when a message arrives or is read,
// so the header badge and the inbox update within a moment, on every tab. The badge still polls
// every 10 s as the fallback (docs/product.md "Limits and timings"). Each socket belongs to a session like a room's
// (docs/decisions/080): closed when its access token expires (checked on fan-out and by the alarm)
// and when its session ends (`endSessions`).
import { DurableObject } from "cloudflare:workers";
import { HEARTBEAT_PING, HEARTBEAT_PONG, INBOX_SOCKETS_PER_USER, SOCKET_CLOSE, type InboxFrame } from "../../../domain/chat";
import type { Bindings } from "../../env";
import type { Db } from "../../db/client";
import { unreadCount } from "./conversations";
import { belongsTo, closeExpired, closeSocket, isExpired, openCount, refuseSocket, sessionOf, type SocketSession } from "./socket-session";
import { countD1InLocalMode } from "../../db/usage";

export class UserInbox extends DurableObject<Bindings> {
  /** One count query at a time; changes that arrive meanwhile are folded into one more. */
  private refreshing: Promise<void> | null = null;
  private again: { userId: string; conversationId?: string } | null = null;
  private readonly db: Db;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, countD1InLocalMode(env));
    this.db = this.env.DB;
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(HEARTBEAT_PING, HEARTBEAT_PONG));
  }

  async fetch(request: Request): Promise<Response> {
    const session = sessionOf(request);
    if (!session) return new Response("Expected an authenticated WebSocket upgrade", { status: 400 });
    const { userId } = session;
    // One socket per tab; more than a person has tabs is refused before it costs a count query.
    if (openCount(this.ctx.getWebSockets()) >= INBOX_SOCKETS_PER_USER) return refuseSocket("too many connections");
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [userId]);
    server.serializeAttachment(session satisfies SocketSession);
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > session.expiresAt * 1000) await this.ctx.storage.setAlarm(session.expiresAt * 1000);
    // The tab may have missed changes while it was disconnected: start from the current count.
    void this.changed(userId);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Something changed in one of the user's conversations: push the new unread count to every tab. */
  async changed(userId: string, conversationId?: string): Promise<void> {
    if (this.ctx.getWebSockets().length === 0) return;
    if (this.refreshing) {
      this.again = { userId, conversationId }; // the tabs refetch their whole inbox list anyway
      return this.refreshing;
    }
    this.refreshing = (async () => {
      try {
        let next: { userId: string; conversationId?: string } | null = { userId, conversationId };
        while (next) {
          const current: { userId: string; conversationId?: string } = next;
          this.again = null;
          const count = await unreadCount(this.db, current.userId);
          this.broadcast({ type: "unread", count, ...(current.conversationId ? { conversation_id: current.conversationId } : {}) });
          next = this.again;
        }
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  /** A session ended: close its tabs' sockets (`family` null: every session of the user but `keep`). */
  async endSessions(userId: string, family: string | null, reason: string, keep?: string): Promise<number> {
    let closed = 0;
    for (const ws of this.ctx.getWebSockets()) {
      if (!belongsTo(ws.deserializeAttachment() as SocketSession | null, userId, family, keep)) continue;
      closeSocket(ws, SOCKET_CLOSE.sessionEnded, reason);
      closed++;
    }
    return closed;
  }

  /** The earliest access token has run out: close those sockets, wake again for the next one. */
  async alarm(): Promise<void> {
    const next = closeExpired(this.ctx.getWebSockets(), Date.now());
    if (next !== undefined) await this.ctx.storage.setAlarm(next);
  }

  private broadcast(frame: InboxFrame): void {
    const text = JSON.stringify(frame);
    const now = Date.now();
    for (const ws of this.ctx.getWebSockets()) {
      if (isExpired(ws.deserializeAttachment() as SocketSession | null, now)) {
        closeSocket(ws, SOCKET_CLOSE.expired, "session expired");
        continue;
      }
      try {
        ws.send(text);
      } catch {
        // closing: the tab refetches when it reconnects
      }
    }
  }

  async webSocketMessage(): Promise<void> {
    // Tabs only listen (the heartbeat is answered by the auto-response).
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    closeSocket(ws, code === 1005 || code === 1006 ? 1000 : code, "");
  }
}
