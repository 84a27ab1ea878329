// Real WebSocket upgrades through exports.default.fetch (the Worker's own routing, session and
// Origin checks, then the Durable Object), with a frame queue the tests can wait on.
import { env } from "cloudflare:workers";
import type { InboxFrame, RoomFrame } from "../../../domain/chat";
import { ORIGIN, type Client } from "./http";

type Frame = RoomFrame | InboxFrame | (Record<string, unknown> & { type: string });

export class LiveSocket<F extends { type: string } = RoomFrame> {
  readonly frames: F[] = [];
  private waiters: (() => void)[] = [];
  closed = false;
  /** The close code and reason the server sent (the client acts on the code, decision 080). */
  closeCode: number | null = null;
  closeReason = "";

  constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (event) => {
      const data = typeof event.data === "string" ? event.data : new TextDecoder().decode(event.data as ArrayBuffer);
      this.frames.push((data === "pong" ? { type: "pong" } : JSON.parse(data)) as F);
      this.wake();
    });
    ws.addEventListener("close", (event) => {
      this.closed = true;
      this.closeCode = event.code;
      this.closeReason = event.reason;
      this.wake();
    });
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w());
  }

  /** Until a frame or the close arrives, or `ms` pass. */
  private nextEvent(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  send(frame: unknown) {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** Resolves with the first received frame (from `from` on) matching `match`, removing nothing. */
  async waitFor<T extends F = F>(match: (f: F) => boolean, timeoutMs = 5_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(match);
      if (found) return found as T;
      if (this.closed) throw new Error(`socket closed before the frame arrived; got ${JSON.stringify(this.frames)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for a frame; got ${JSON.stringify(this.frames)}`);
      await this.nextEvent(left);
    }
  }

  /** Resolves with the close code once the server has closed the socket. */
  async waitClosed(timeoutMs = 5_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the socket is still open; got ${JSON.stringify(this.frames)}`);
      await this.nextEvent(left);
    }
    return this.closeCode!;
  }

  ofType<K extends F["type"]>(type: K): Extract<F, { type: K }>[] {
    return this.frames.filter((f) => f.type === type) as Extract<F, { type: K }>[];
  }

  close() {
    try {
      this.ws.close(1000, "done");
    } catch {
      // already closed
    }
  }
}

export interface UpgradeResult<F extends { type: string }> {
  res: Response;
  socket: LiveSocket<F> | null;
}

/** Open a socket at `path` as `client` (its cookies), with our Origin unless told otherwise. */
export async function upgrade<F extends { type: string } = RoomFrame>(
  client: Client,
  path: string,
  { origin = ORIGIN as string | null } = {},
): Promise<UpgradeResult<F>> {
  const headers = new Headers({ Upgrade: "websocket" });
  if (origin !== null) headers.set("Origin", origin);
  const res = await client.request(path, { headers: origin === null ? withoutOrigin(headers) : headers });
  if (res.status !== 101 || !res.webSocket) return { res, socket: null };
  const ws = res.webSocket;
  ws.accept();
  return { res, socket: new LiveSocket<F>(ws) };
}

/** Client.request sets Origin when missing; an explicit empty marker removes it again. */
function withoutOrigin(headers: Headers): Headers {
  headers.set("Origin", "");
  return headers;
}

/** Opens the chat socket and waits until its catch-up is complete. */
export async function openChat(client: Client, conversationId: string, after = 0): Promise<LiveSocket> {
  const { res, socket } = await upgrade(client, `/api/conversations/${conversationId}/live?after=${after}`);
  if (!socket) throw new Error(`upgrade refused: ${res.status} ${await res.text()}`);
  await socket.waitFor((f) => f.type === "sync" && f.done);
  return socket;
}

export type AnyFrame = Frame;

/**
 * The room's D1 mirror, run now as its alarm runs it moments after a write (decision 107): afterwards
 * D1 has everything the room has acknowledged. Returns how many rows it wrote.
 */
export async function mirrored(conversationId: string): Promise<number> {
  return env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conversationId)).mirror();
}
