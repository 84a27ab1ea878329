// A WebSocket that stays connected (docs/product.md "Limits and timings"): heartbeat every 25 s, reconnect after 1, 2,
// 5, then every 10 s, and at once when the tab becomes visible or the network comes back. Used by
// the chat and by the header's live unread badge; both are lazy chunks. A socket lives no longer
// than its session (docs/decisions/080): when the server closes it because the access token expired,
// the session is refreshed and the socket reconnects at once, so nobody notices; when the session
// ended (signed out, revoked, suspended, account deleted) it stays closed.
import { HEARTBEAT_MS, HEARTBEAT_PING, HEARTBEAT_PONG, reconnectDelay, SOCKET_CLOSE } from "../../domain/chat";
import { refreshSessionOnce } from "../api/client";

export type LiveStatus = "connecting" | "open" | "closed";

export interface LiveSocketOptions {
  /** The address for the next attempt (the chat adds the last seq it has). */
  url: () => string;
  onFrame: (frame: unknown) => void;
  onStatus?: (status: LiveStatus) => void;
  /** The server ended the socket's session (signed out elsewhere, revoked, suspended, deleted). */
  onSessionEnded?: () => void;
}

/** Two missed heartbeats: the connection is dead even if the browser has not noticed (phones asleep). */
const SILENCE_LIMIT_MS = 2 * HEARTBEAT_MS + 5_000;

export class LiveSocket {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private failuresSinceOpen = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private lastHeard = 0;
  private stopped = true;
  /** The server ended the session: no reconnect until start() again (a new page, a new sign-in). */
  private ended = false;
  /** Expiry closes since the last frame: a second one in a row waits like any failure (no busy loop). */
  private expiredInARow = 0;
  status: LiveStatus = "closed";

  constructor(private readonly options: LiveSocketOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.ended = false;
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    clearTimeout(this.retryTimer);
    this.dropSocket();
    this.setStatus("closed");
  }

  /** Sends when open; false when the caller must use another path (HTTP) or wait. */
  send(text: string): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    try {
      this.ws.send(text);
      return true;
    } catch {
      return false;
    }
  }

  private setStatus(status: LiveStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.options.onStatus?.(status);
  }

  private readonly wake = (): void => {
    if (this.stopped || this.ended || document.visibilityState === "hidden") return;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) this.reconnectNow();
      return;
    }
    if (this.status === "closed") this.reconnectNow();
  };

  private reconnectNow(): void {
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.dropSocket();
    this.connect();
  }

  private connect(): void {
    if (this.stopped) return;
    this.setStatus("connecting");
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.options.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.failuresSinceOpen = 0;
      this.lastHeard = Date.now();
      this.setStatus("open");
      clearInterval(this.heartbeat);
      this.heartbeat = setInterval(() => {
        if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) return this.reconnectNow();
        this.send(HEARTBEAT_PING);
      }, HEARTBEAT_MS);
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      this.attempt = 0; // a healthy connection: the next outage starts again at 1 s
      this.expiredInARow = 0;
      if (event.data === HEARTBEAT_PONG || typeof event.data !== "string") return;
      let frame: unknown;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      this.options.onFrame(frame);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.dropSocket();
      if (event.code === SOCKET_CLOSE.sessionEnded) return this.end();
      if (event.code === SOCKET_CLOSE.expired && this.expiredInARow++ === 0) return this.renew();
      this.scheduleRetry();
    });
  }

  /** The access token ran out: a fresh one, then straight back (the chat catches up from its last seq). */
  private renew(): void {
    this.setStatus("connecting");
    void refreshSessionOnce()
      .catch(() => false)
      .then((refreshed) => {
        if (this.stopped) return;
        // Refused: another tab may have refreshed first (its cookies are ours too); the usual backoff finds out.
        if (refreshed) this.connect();
        else this.scheduleRetry();
      });
  }

  private end(): void {
    this.ended = true;
    clearTimeout(this.retryTimer);
    this.setStatus("closed");
    this.options.onSessionEnded?.();
  }

  private dropSocket(): void {
    clearInterval(this.heartbeat);
    const ws = this.ws;
    this.ws = null;
    if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)) {
      try {
        ws.close(1000, "bye");
      } catch {
        // already closing
      }
    }
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    this.setStatus("closed");
    this.failuresSinceOpen += 1;
    const delay = reconnectDelay(this.attempt++);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      // A refused upgrade looks like any other failure; after two in a row the access cookie may have
      // expired (a sleeping laptop), so refresh the session once before trying again.
      const refresh = this.failuresSinceOpen >= 2 ? refreshSessionOnce().catch(() => false) : Promise.resolve(true);
      void refresh.then(() => this.connect());
    }, delay);
  }
}
