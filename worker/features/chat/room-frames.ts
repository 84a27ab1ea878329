// The wire between a ConversationRoom and its sockets (docs/decisions/028-live-chat.md): reading a
// client frame (a malformed one is refused whole, with the error frame that answers it), writing
// room frames (the catch-up, the fan-out), and the result a room call hands back to the Worker. No
// state: the room keeps that.
import type { ErrorCode } from "../../../domain/errors";
import {
  CATCH_UP_PAGE_SIZE,
  CHAT_REFUSALS,
  MAX_CLIENT_FRAME_BYTES,
  type ChatMessage,
  type ClientFrame,
  type RoomFrame,
} from "../../../domain/chat";
import { clientFrameSchema } from "../../../domain/schemas/chat";
import { AppError } from "../../lib/errors";
import { messagesAfter, readHorizon } from "./room-store";
import { isExpired } from "./socket-session";
import type { SocketState } from "./room-types";

export type RoomResult<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; message: string; retryAfter?: number };

/** A send's id echoed on its error frame so the client can match it; bounded, and only if it is text. */
export function frameId(id: unknown): string | undefined {
  return typeof id === "string" ? id.slice(0, 64) : undefined;
}

/** A client frame, or the error frame that refuses it (too large, not JSON, unknown type, wrong fields). */
export function readClientFrame(data: string | ArrayBuffer): { ok: true; frame: ClientFrame } | { ok: false; error: RoomFrame } {
  if (typeof data !== "string" || data.length > MAX_CLIENT_FRAME_BYTES) {
    return { ok: false, error: { type: "error", code: "VALIDATION", message: CHAT_REFUSALS.invalidFrame } };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return { ok: false, error: { type: "error", code: "VALIDATION", message: CHAT_REFUSALS.invalidFrame } };
  }
  const parsed = clientFrameSchema.safeParse(raw);
  if (!parsed.success) {
    // A known type with a wrong-typed field is a bad frame, refused whole (a send's error carries its id).
    const { type, id } = (typeof raw === "object" && raw !== null ? raw : {}) as { type?: unknown; id?: unknown };
    if (type !== "send" && type !== "read")
      return { ok: false, error: { type: "error", code: "VALIDATION", message: CHAT_REFUSALS.unknownFrameType } };
    return {
      ok: false,
      error: { type: "error", id: type === "send" ? frameId(id) : undefined, code: "VALIDATION", message: CHAT_REFUSALS.invalidFrame },
    };
  }
  return { ok: true, frame: parsed.data };
}

/** A failed room call as a result: an AppError keeps its code, message and Retry-After; anything else is INTERNAL. */
export function failure(err: unknown): { ok: false; code: ErrorCode; message: string; retryAfter?: number } {
  if (err instanceof AppError) {
    const retry = err.headers?.["Retry-After"];
    return { ok: false, code: err.code, message: err.message, ...(retry ? { retryAfter: Number(retry) } : {}) };
  }
  console.error("ConversationRoom failure", err);
  const internal = new AppError("INTERNAL");
  return { ok: false, code: internal.code, message: internal.message };
}

export function send(ws: WebSocket, frame: RoomFrame | (RoomFrame & Record<string, unknown>)): boolean {
  return sendText(ws, JSON.stringify(frame));
}

export function sendText(ws: WebSocket, text: string): boolean {
  try {
    ws.send(text);
    return true;
  } catch {
    return false; // closing or closed: the client catches up when it reconnects
  }
}

/** What a client frame asks of the room: store a message, or mark messages read. */
export interface FrameHandlers {
  send(input: { id: string; content: string }): Promise<RoomResult<ChatMessage>>;
  read(upToSeq: number | undefined): Promise<RoomResult<unknown>>;
}

/** Read a client frame, do what it asks, and answer a refusal with an error frame (a send's with its id). */
export async function answerClientFrame(ws: WebSocket, data: string | ArrayBuffer, handlers: FrameHandlers): Promise<void> {
  const read = readClientFrame(data);
  if (!read.ok) {
    send(ws, read.error);
    return;
  }
  const { frame } = read;
  if (frame.type === "send") {
    const result = await handlers.send({ id: frame.id, content: frame.content });
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
    const result = await handlers.read(frame.up_to_seq);
    if (!result.ok) send(ws, { type: "error", code: result.code, message: result.message });
  }
}

/** Everything after `after` in pages of sync frames, the last with the reader's read horizon. False: the socket is gone. */
export function sendCatchUp(ws: WebSocket, sql: SqlStorage, conversationId: string, userId: string, after: number): boolean {
  let cursor = after;
  for (;;) {
    const messages = messagesAfter(sql, conversationId, userId, cursor, CATCH_UP_PAGE_SIZE);
    cursor = messages.at(-1)?.seq ?? cursor;
    const done = messages.length < CATCH_UP_PAGE_SIZE;
    const frame: RoomFrame & { read_up_to?: number } = { type: "sync", messages, last_seq: cursor, done };
    if (done) frame.read_up_to = readHorizon(sql, userId);
    if (!send(ws, frame)) return false;
    if (done) return true;
  }
}

/**
 * Send to every ready socket of `sockets` except `except`; a socket whose session has run out hears
 * nothing more and is handed to `expire`. Returns how many got it.
 */
export function fanOutTo(sockets: WebSocket[], frame: RoomFrame, except: WebSocket | undefined, expire: (ws: WebSocket) => void): number {
  const text = JSON.stringify(frame);
  const now = Date.now();
  let sent = 0;
  for (const ws of sockets) {
    if (ws === except) continue;
    const state = ws.deserializeAttachment() as SocketState | null;
    if (!state?.ready) continue; // its catch-up (queued after this write) will include it
    if (isExpired(state, now)) {
      // Not even the alarm's few milliseconds late: an expired socket hears nothing more.
      expire(ws);
      continue;
    }
    if (sendText(ws, text)) sent++;
  }
  return sent;
}
