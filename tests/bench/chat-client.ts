// One participant's chat socket for the chat benchmark, speaking the same protocol as the web client
// (web/routes/chat/useChat.ts, web/lib/liveSocket.ts): catch-up from the last seq it has, sends with
// client ids that stay pending until acknowledged and are sent again (same id) after a reconnect,
// reconnect delays of 1, 2, 5, then 10 s. It records what it sent, what was acknowledged and what
// it received, for the benchmark's exactly-once and order checks.
import { reconnectDelay, type ChatMessage, type RoomFrame } from "../../domain/chat";

export interface Sent {
  id: string;
  content: string;
  /** performance.now() when the user "pressed send". */
  at: number;
  /** Sent and delivered on one connection each (the live latency figures); false once it had to be sent again. */
  live: boolean;
  ackedAt?: number;
  seq?: number;
}

export interface Received {
  id: string;
  seq: number;
  senderId: string;
  at: number;
  via: "message" | "sync";
}

export class ChatClient {
  ws: WebSocket | null = null;
  open = false;
  stopped = false;
  /** Highest seq received in order (the `after` of the next connection). */
  lastSeq = 0;
  readonly sent = new Map<string, Sent>();
  readonly received: Received[] = [];
  /** Seqs that arrived out of order or twice (must stay empty). */
  readonly disorder: string[] = [];
  errors = 0;
  reconnects = 0;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private readyResolvers: (() => void)[] = [];

  constructor(
    private readonly base: string,
    private readonly origin: string,
    readonly conversationId: string,
    readonly userId: string,
    private token: string,
    private readonly onReceive: (client: ChatClient, message: ChatMessage, at: number, via: "message" | "sync") => void,
  ) {}

  setToken(token: string): void {
    this.token = token;
  }

  /** Resolves once connected and caught up. */
  ready(): Promise<void> {
    if (this.open) return Promise.resolve();
    return new Promise((resolve) => this.readyResolvers.push(resolve));
  }

  connect(): void {
    if (this.stopped) return;
    const url = `${this.base.replace(/^http/, "ws")}/api/conversations/${this.conversationId}/live?after=${this.lastSeq}`;
    // Node's WebSocket (undici) accepts headers: the session cookie and our Origin, as a browser sends them.
    const ws = new WebSocket(url, { headers: { Cookie: `lb_access=${this.token}`, Origin: this.origin } } as unknown as string[]);
    this.ws = ws;
    ws.addEventListener("message", (event) => this.onFrame(JSON.parse(String(event.data)) as RoomFrame & { read_up_to?: number }));
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.open = false;
      this.ws = null;
      if (this.stopped) return;
      this.reconnects++;
      const delay = reconnectDelay(this.attempt++);
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
    ws.addEventListener("error", () => {
      /* a close event follows */
    });
  }

  private onFrame(frame: RoomFrame): void {
    const now = performance.now();
    switch (frame.type) {
      case "sync":
        for (const m of frame.messages) this.accept(m, now, "sync");
        if (frame.done) {
          this.open = true;
          this.attempt = 0;
          // Whatever was not acknowledged before the connection went away is sent again, same id.
          for (const s of this.sent.values()) {
            if (s.ackedAt !== undefined) continue;
            s.live = false; // delivered after an outage: counted as caught up, not in the live latency
            this.transmit(s);
          }
          this.readyResolvers.splice(0).forEach((r) => r());
        }
        break;
      case "message":
        this.accept(frame.message, now, "message");
        break;
      case "ack": {
        // A retry of a message the catch-up already brought back is acknowledged again: not a repeat.
        const known = frame.message.seq <= this.lastSeq && this.received.some((r) => r.id === frame.id);
        if (!known) this.accept(frame.message, now, "message");
        this.acked(frame.id, frame.message.seq, now);
        break;
      }
      case "error": {
        this.errors++;
        const s = frame.id ? this.sent.get(frame.id) : undefined;
        // Refused for now (rate limit, a failed write): try the same id again a little later.
        if (s) setTimeout(() => this.transmit(s), Math.max(1000, (frame.retry_after ?? 1) * 1000));
        break;
      }
    }
  }

  /** Every message of the conversation passes here once, in seq order, or it is recorded as disorder. */
  private accept(m: ChatMessage, at: number, via: "message" | "sync"): void {
    if (m.seq <= this.lastSeq) {
      // Our own ack repeats a message we already have only if it arrived twice: record it.
      this.disorder.push(`${this.userId.slice(0, 8)} got seq ${m.seq} after ${this.lastSeq}`);
      return;
    }
    if (m.seq !== this.lastSeq + 1) this.disorder.push(`${this.userId.slice(0, 8)} skipped from ${this.lastSeq} to ${m.seq}`);
    this.lastSeq = m.seq;
    this.received.push({ id: m.id, seq: m.seq, senderId: m.sender_id, at, via });
    // Our own message in the catch-up is stored: its ack was lost with the connection.
    if (m.sender_id === this.userId) this.acked(m.id, m.seq, at);
    this.onReceive(this, m, at, via);
  }

  private acked(id: string, seq: number, at: number): void {
    const s = this.sent.get(id);
    if (s && s.ackedAt === undefined) {
      s.ackedAt = at;
      s.seq = seq;
    }
  }

  send(id: string, content: string): Sent {
    const s: Sent = { id, content, at: performance.now(), live: this.open };
    this.sent.set(id, s);
    if (this.open) this.transmit(s);
    return s;
  }

  private transmit(s: Sent): void {
    if (!this.open || !this.ws || s.ackedAt !== undefined) return;
    try {
      this.ws.send(JSON.stringify({ type: "send", id: s.id, content: s.content }));
    } catch {
      // closing: sent again after the reconnect
    }
  }

  unacked(): number {
    let n = 0;
    for (const s of this.sent.values()) if (s.ackedAt === undefined) n++;
    return n;
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.ws?.close();
  }
}
