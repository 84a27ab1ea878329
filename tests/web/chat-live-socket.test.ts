// The reconnecting socket (docs/product.md "Limits and timings"): heartbeat every 25 s, reconnect after 1, 2, 5, then 10 s.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SOCKET_CLOSE } from "../../domain/chat";
import { LiveSocket, type LiveStatus } from "../../web/lib/liveSocket";
import { FakeWebSocket } from "./fakeWebSocket";

vi.mock("../../web/api/client", () => ({ refreshSessionOnce: vi.fn(() => Promise.resolve(true)) }));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function start() {
  const frames: unknown[] = [];
  const statuses: LiveStatus[] = [];
  const ended = vi.fn();
  const socket = new LiveSocket({
    url: () => "ws://test/live",
    onFrame: (f) => frames.push(f),
    onStatus: (s) => statuses.push(s),
    onSessionEnded: ended,
  });
  socket.start();
  return { socket, frames, statuses, ended };
}

describe("LiveSocket", () => {
  it("reconnects after 1, 2, 5, then every 10 seconds while the server is away", async () => {
    const { socket } = start();
    const gaps: number[] = [];
    let last = Date.now();
    for (let i = 0; i < 6; i++) {
      const before = FakeWebSocket.instances.length;
      FakeWebSocket.last().drop();
      while (FakeWebSocket.instances.length === before) await vi.advanceTimersByTimeAsync(100);
      gaps.push(Math.round((Date.now() - last) / 100) * 100);
      last = Date.now();
    }
    expect(gaps).toEqual([1000, 2000, 5000, 10000, 10000, 10000]);
    socket.stop();
  });

  it("starts again at 1 s once a connection has worked", async () => {
    const { socket } = start();
    FakeWebSocket.last().drop();
    await vi.advanceTimersByTimeAsync(1000);
    FakeWebSocket.last().drop();
    await vi.advanceTimersByTimeAsync(2000);
    const ws = FakeWebSocket.last();
    ws.open();
    ws.receive({ type: "hello" });
    const before = FakeWebSocket.instances.length;
    ws.drop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeWebSocket.instances.length).toBe(before + 1);
    socket.stop();
  });

  it("sends a heartbeat every 25 s and passes frames on (not the pong)", async () => {
    const { socket, frames, statuses } = start();
    const ws = FakeWebSocket.last();
    ws.open();
    expect(statuses).toEqual(["connecting", "open"]);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(ws.sent).toEqual(["ping"]);
    ws.receive("pong");
    ws.receive({ type: "unread", count: 3 });
    expect(frames).toEqual([{ type: "unread", count: 3 }]);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(ws.sent).toEqual(["ping", "ping"]);
    socket.stop();
    expect(statuses.at(-1)).toBe("closed");
  });

  it("a connection that stays silent through two heartbeats is replaced", async () => {
    const { socket } = start();
    const ws = FakeWebSocket.last();
    ws.open();
    await vi.advanceTimersByTimeAsync(75_000);
    expect(ws.readyState).toBe(FakeWebSocket.CLOSED);
    expect(FakeWebSocket.instances.length).toBeGreaterThan(1);
    socket.stop();
  });
});

describe("LiveSocket and the session (docs/decisions/080)", () => {
  it("closed because the access token expired: refreshes the session and reconnects at once, without showing a disconnect", async () => {
    const { refreshSessionOnce } = await import("../../web/api/client");
    vi.mocked(refreshSessionOnce).mockClear();
    const { socket, statuses } = start();
    const ws = FakeWebSocket.last();
    ws.open();
    ws.receive({ type: "sync" });
    ws.closedByServer(SOCKET_CLOSE.expired, "session expired");
    await vi.advanceTimersByTimeAsync(0);
    expect(refreshSessionOnce).toHaveBeenCalledTimes(1);
    expect(FakeWebSocket.instances).toHaveLength(2); // no backoff delay
    FakeWebSocket.last().open();
    expect(statuses).toEqual(["connecting", "open", "connecting", "open"]);
    socket.stop();
  });

  it("a second expiry close in a row, without a frame between, waits like any failure (no busy loop)", async () => {
    const { socket } = start();
    FakeWebSocket.last().open();
    FakeWebSocket.last().closedByServer(SOCKET_CLOSE.expired);
    await vi.advanceTimersByTimeAsync(0);
    FakeWebSocket.last().open();
    FakeWebSocket.last().closedByServer(SOCKET_CLOSE.expired);
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeWebSocket.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(600);
    expect(FakeWebSocket.instances).toHaveLength(3);
    socket.stop();
  });

  it("closed because the session ended (signed out elsewhere, revoked): stays closed, also when the tab comes back", async () => {
    const { socket, statuses, ended } = start();
    FakeWebSocket.last().open();
    FakeWebSocket.last().closedByServer(SOCKET_CLOSE.sessionEnded, "signed out");
    expect(ended).toHaveBeenCalledTimes(1); // the app asks who is signed in now
    await vi.advanceTimersByTimeAsync(60_000);
    window.dispatchEvent(new Event("online"));
    document.dispatchEvent(new Event("visibilitychange"));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(statuses.at(-1)).toBe("closed");
    socket.stop();
  });

  it("refused for too many sockets: retries with the usual backoff", async () => {
    const { socket } = start();
    FakeWebSocket.last().closedByServer(SOCKET_CLOSE.tooMany, "too many connections");
    await vi.advanceTimersByTimeAsync(900);
    expect(FakeWebSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(FakeWebSocket.instances).toHaveLength(2);
    socket.stop();
  });
});
