// What the ConversationRoom (conversation-room.ts) is asked and keeps per socket.
import type { SocketSession } from "./socket-session";

/** Headers the Worker sets when it forwards an authenticated upgrade (never taken from a client). */
export const ROOM_CONVERSATION_HEADER = "X-Lekebytte-Conversation";
export const ROOM_AFTER_HEADER = "X-Lekebytte-After";

export interface SocketState extends SocketSession {
  conversationId: string;
  /** False until the catch-up has been sent: the fan-out skips it so nothing arrives twice. */
  ready: boolean;
}

export interface PostInput {
  conversationId: string;
  senderId: string;
  id: string;
  content: string;
  /** The feature that posts it has e-mailed the recipients itself (a new trade offer): no offline mail for it. */
  mailed?: boolean;
  /** System messages only: the one participant who sees it (the notification test); both when absent. */
  recipientId?: string;
  /**
   * Return only once D1 has it too (other features' system messages: they and their callers read
   * D1 next). A participant's send is answered as soon as the room has stored it.
   */
  mirrored?: boolean;
}

export interface ReadInput {
  conversationId: string;
  readerId: string;
  upToSeq?: number;
  /** Return once D1 has the marks (a reader over HTTP reads its unread count from D1 next). */
  mirrored?: boolean;
}
