// Chat rules and the live protocol shared by the Worker, the Durable Objects and the SPA
// (docs/product.md "Messages and chat", "States", "Validation", "Limits and timings"; docs/decisions/028-live-chat.md).
import { formatNumber } from "./format";

/** A message is trimmed and must hold 1 to 2,000 characters. */
export const MESSAGE_MAX_LENGTH = 2000;
/** The sender of system messages (notification test, later trades): migrations/0003_system_user.sql. */
export const SYSTEM_USER_ID = "00000000-0000-0000-0000-000000000000";
/** The other party's name when they have none, and when they deleted their account. */
export const ANONYMOUS_NAME = "Anonym";
export const DELETED_USER_NAME = "Slettet bruker";

/** Heartbeat (docs/product.md "Limits and timings"): the client sends PING, the Durable Object's auto-response answers PONG without waking it. */
export const HEARTBEAT_MS = 25_000;
export const HEARTBEAT_PING = "ping";
export const HEARTBEAT_PONG = "pong";
/** Reconnect delays (docs/product.md "Limits and timings"): 1, 2, 5, then 10 s for every further attempt. */
export const RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000] as const;
/** How long the client waits for an acknowledgement before it sends the same message over HTTP. */
export const SEND_ACK_TIMEOUT_MS = 8_000;

/** E-mail about new messages: after 15 minutes away from the conversation, at most once an hour. */
export const OFFLINE_MAIL_AFTER_MS = 15 * 60_000;
export const OFFLINE_MAIL_INTERVAL_MS = 60 * 60_000;

/** Messages per page when a chat opens (older ones load on request), and per catch-up frame. */
export const MESSAGE_PAGE_SIZE = 100;
export const CATCH_UP_PAGE_SIZE = 500;
/** Largest frame a client may send over the socket (a 2,000-character message is far below). */
export const MAX_CLIENT_FRAME_BYTES = 16 * 1024;

/**
 * Close codes a server sends when it ends a socket on purpose (docs/decisions/080): the client acts
 * on them. `expired`: the access token ran out; refresh the session and reconnect at once.
 * `sessionEnded`: signed out, session revoked, password changed, account suspended or deleted; stay
 * closed. `tooMany`: the user already has the maximum of sockets here; retry with the usual backoff.
 */
export const SOCKET_CLOSE = { expired: 4001, sessionEnded: 4003, tooMany: 4029 } as const;
/** Open sockets one user may hold in one conversation (several tabs of one chat), and to their inbox (one per tab). */
export const ROOM_SOCKETS_PER_USER = 5;
export const INBOX_SOCKETS_PER_USER = 10;

export function reconnectDelay(attempt: number): number {
  return RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)];
}

/** A stored message as the API and the sockets send it. */
export interface ChatMessage {
  id: string;
  conversation_id: string;
  sender_id: string;
  seq: number;
  content: string;
  read_at: string | null;
  created_at: string;
}

export interface ConversationListing {
  id: string;
  title: string;
  price: number | null;
  is_free: boolean;
  /** Empty when the listing is deleted or hidden (its photos are no longer served). */
  images: string[];
  status: string;
}

export interface ConversationOtherUser {
  id: string;
  /** Display name, "Anonym" without one, "Slettet bruker" after the account was deleted. */
  display_name: string;
  deleted: boolean;
}

/** GET /api/conversations/:id: the chat header. */
export interface ConversationDetail {
  id: string;
  listing_id: string;
  buyer_id: string;
  seller_id: string;
  last_seq: number;
  updated_at: string;
  listing: ConversationListing;
  other_user: ConversationOtherUser;
}

/** GET /api/conversations: one entry of the inbox. */
export interface ConversationSummary extends ConversationDetail {
  last_message: Pick<ChatMessage, "content" | "created_at" | "sender_id"> | null;
  unread_count: number;
}

/** GET /api/conversations/:id/messages: ascending by seq; `has_more` when older ones exist. */
export interface MessagePage {
  messages: ChatMessage[];
  has_more: boolean;
}

/** Frames a client sends to a ConversationRoom (besides the plain-text heartbeat). */
export type ClientFrame = { type: "send"; id: string; content: string } | { type: "read"; up_to_seq?: number };

/** Frames a ConversationRoom sends. */
export type RoomFrame =
  /** After connecting: every message with seq > the client's `after`, in order (several frames if many). */
  | { type: "sync"; messages: ChatMessage[]; last_seq: number; done: boolean }
  /** To the socket that sent it: stored (or already stored by an earlier try with the same id). */
  | { type: "ack"; id: string; message: ChatMessage }
  /** A new message for every other socket in the room. */
  | { type: "message"; message: ChatMessage }
  /** `reader_id` has read every message up to `up_to_seq` not sent by them. */
  | { type: "read"; reader_id: string; up_to_seq: number; read_at: string }
  /** A send (with its id) or another frame was refused. */
  | { type: "error"; id?: string; code: string; message: string; retry_after?: number }
  /** Pushed by other features (e.g. a trade offer changed): `name` says what, `data` is theirs. */
  | { type: "event"; name: string; data: unknown };

/** Frames a UserInbox sends to every open tab of its user. */
export type InboxFrame = { type: "unread"; count: number; conversation_id?: string };

/** What the Worker and the ConversationRoom answer when a conversation or a message is refused. */
export const CHAT_REFUSALS = {
  conversationNotFound: "Samtale ikke funnet", // 404, also to anyone who is not a participant
  messageToSelf: "Du kan ikke sende melding til deg selv", // 403
  recipientDeleted: "Du kan ikke sende meldinger til en slettet bruker.", // 409
  notStored: "Meldingen kunne ikke lagres. Prøv å sende den på nytt.", // 409
  invalidFrame: "Ugyldig melding.",
  unknownFrameType: "Ukjent meldingstype.",
  notWebSocket: "Denne adressen må åpnes som WebSocket.", // 400
  /** The local notification test only. */
  notSignedIn: "Ikke logget inn",
  noConversations: "Ingen samtaler funnet",
  /** 429: the limit and how long until the next one may be made. */
  testNotificationsLimited: (perMinute: number, seconds: number) =>
    `Du kan lage høyst ${perMinute} test-meldinger i minuttet. Vent ${seconds === 1 ? "1 sekund" : `${seconds} sekunder`} og prøv igjen.`,
} as const;

/** Characters as a person counts them (an emoji is one), not UTF-16 code units. */
export function messageLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export const MESSAGE_TOO_LONG_TEXT = `Meldingen kan ikke være lengre enn ${formatNumber(MESSAGE_MAX_LENGTH)} tegn`;

// The live events a conversation's room sends besides messages (worker/features/chat/live.ts
// pushConversationEvent); the chat page refetches ["conversations", "event", id, name] on each.
/** A moderator removed a message. */
export const MESSAGE_REMOVED_EVENT = "message_removed";
/** A trade offer of the conversation changed. */
export const TRADE_OFFER_EVENT = "trade_offer";
/** A paid order's money changed (held, handed over, released, refunded: decision 105). */
export const ORDER_EVENT = "order";
/** A review of one of its deals was written (the prompt reloads). */
export const REVIEW_EVENT = "review";

/** MESSAGE_REMOVED_EVENT's data: the message's id and place, and the text both parties now see. */
export interface MessageRemovedEvent {
  id: string;
  seq: number;
  content: string;
}
