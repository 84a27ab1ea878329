// The wire between a ConversationRoom and its sockets (docs/decisions/028-live-chat.md): reading a
// client frame (a malformed one is refused whole, with the error frame that answers it), writing
// room frames, and the result a room call hands back to the Worker. No state: the room keeps that.
import type { ErrorCode } from "../../../domain/errors";
import { MAX_CLIENT_FRAME_BYTES, type ClientFrame, type RoomFrame, CHAT_REFUSALS } from "../../../domain/messaging";
import { clientFrameSchema } from "../../../domain/schemas/messaging";
import { AppError } from "../../lib/errors";

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
