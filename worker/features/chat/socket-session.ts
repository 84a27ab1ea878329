// A socket belongs to a session (docs/decisions/080-sockets-belong-to-a-session.md). The Worker
// forwards an authenticated upgrade with the user, the session family and the access token's expiry
// in internal headers; both objects (ConversationRoom, UserInbox) keep them in the socket's
// attachment, so they survive hibernation. A socket is closed when its access token expires (the
// client refreshes and reconnects) and when its session ends (revocation paths call the objects).
import { SOCKET_CLOSE } from "../../../domain/chat";

/** Headers the Worker sets when it forwards an authenticated upgrade (never taken from a client). */
export const SOCKET_USER_HEADER = "X-Lekebytte-User";
export const SOCKET_FAMILY_HEADER = "X-Lekebytte-Session";
export const SOCKET_EXPIRES_HEADER = "X-Lekebytte-Expires";

export interface SocketSession {
  userId: string;
  /** The session family (one sign-in); revoking it closes the socket. */
  family: string;
  /** The access token's expiry, epoch seconds: the socket lives no longer without a fresh one. */
  expiresAt: number;
}

export function sessionHeaders(session: SocketSession): Record<string, string> {
  return {
    [SOCKET_USER_HEADER]: session.userId,
    [SOCKET_FAMILY_HEADER]: session.family,
    [SOCKET_EXPIRES_HEADER]: String(session.expiresAt),
  };
}

/** The session the Worker forwarded, or null when the request did not come that way. */
export function sessionOf(request: Request): SocketSession | null {
  const userId = request.headers.get(SOCKET_USER_HEADER);
  const family = request.headers.get(SOCKET_FAMILY_HEADER);
  const expiresAt = Number(request.headers.get(SOCKET_EXPIRES_HEADER));
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket" || !userId || !family || !Number.isSafeInteger(expiresAt)) return null;
  return { userId, family, expiresAt };
}

/** True when the socket's access token has run out (a socket without one, from before this rule, too). */
export function isExpired(session: Partial<SocketSession> | null, now = Date.now()): boolean {
  return !(typeof session?.expiresAt === "number" && session.expiresAt * 1000 > now);
}

/** Which sockets a revocation ends: all of the user's, or those of one session family. */
/**
 * Whether a socket is one of the sessions being ended: the user's, of `family` (null: of every
 * family) and not of `keep` (the session that ends the others stays).
 */
export function belongsTo(session: Partial<SocketSession> | null, userId: string, family: string | null, keep?: string): boolean {
  if (session?.userId !== userId) return false;
  if (keep !== undefined && session.family === keep) return false;
  return family === null || session.family === family;
}

export function closeSocket(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // already closed
  }
}

/**
 * Past the cap: a new socket is accepted only to be closed at once with the reason, before it costs
 * anything (no catch-up, no fan-out). The browser sees the close code, never an HTTP status.
 */
export function refuseSocket(reason: string): Response {
  const pair = new WebSocketPair();
  const server = pair[1];
  server.accept();
  closeSocket(server, SOCKET_CLOSE.tooMany, reason);
  return new Response(null, { status: 101, webSocket: pair[0] });
}

/** Open sockets among `sockets` (the runtime still lists closing ones for a moment). */
export function openCount(sockets: WebSocket[]): number {
  return sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
}

/**
 * Close the expired sockets among `sockets` and return the earliest expiry (ms) of those left, for
 * the object's next alarm. `closed` is told about each socket it closes.
 */
export function closeExpired(sockets: WebSocket[], now: number, closed?: (ws: WebSocket) => void): number | undefined {
  let next: number | undefined;
  for (const ws of sockets) {
    if (ws.readyState !== WebSocket.OPEN) continue;
    const session = ws.deserializeAttachment() as Partial<SocketSession> | null;
    if (isExpired(session, now)) {
      closeSocket(ws, SOCKET_CLOSE.expired, "session expired");
      closed?.(ws);
    } else {
      const at = session!.expiresAt! * 1000;
      next = next === undefined ? at : Math.min(next, at);
    }
  }
  return next;
}
