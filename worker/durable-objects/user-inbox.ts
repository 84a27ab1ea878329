// One UserInbox per user (docs/decisions/029-live-unread-badge.md): every open tab of the user keeps
// one hibernatable WebSocket here, and the rooms call `changed` when a message arrives or is read,
// so the header badge and the inbox update within a moment, on every tab. The badge still polls
// every 10 s as the fallback (spec part 1 §9).
import { DurableObject } from "cloudflare:workers";
import { HEARTBEAT_PING, HEARTBEAT_PONG, type InboxFrame } from "../../domain/messaging";
import type { Bindings } from "../env";
import { getDb, type Db } from "../db/client";
import { unreadCount } from "../services/conversations";

export const INBOX_USER_HEADER = "X-Lekebytte-User";

export class UserInbox extends DurableObject<Bindings> {
  /** One count query at a time; changes that arrive meanwhile are folded into one more. */
  private refreshing: Promise<void> | null = null;
  private again: { userId: string; conversationId?: string } | null = null;
  private readonly db: Db;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.db = getDb(env.DB);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(HEARTBEAT_PING, HEARTBEAT_PONG));
  }

  async fetch(request: Request): Promise<Response> {
    const userId = request.headers.get(INBOX_USER_HEADER);
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket" || !userId) {
      return new Response("Expected an authenticated WebSocket upgrade", { status: 400 });
    }
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [userId]);
    server.serializeAttachment({ userId });
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

  /** Close every tab's socket (the account was deleted). */
  async disconnect(): Promise<void> {
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.close(1008, "account deleted");
      } catch {
        // already closed
      }
    }
  }

  private broadcast(frame: InboxFrame): void {
    const text = JSON.stringify(frame);
    for (const ws of this.ctx.getWebSockets()) {
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
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "");
    } catch {
      // already closed
    }
  }
}
