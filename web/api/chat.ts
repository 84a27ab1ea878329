// The chat feature: conversations, messages, the unread badge, the live sockets' address and the
// local-only notification test (/api/test-notifications).
import { queryOptions } from "@tanstack/react-query";
import type { ChatMessage } from "../../domain/chat";
import { api, call, type ResponseBody as Body } from "./client";

/** GET /api/conversations: the inbox, newest activity first. */
export type ConversationSummary = Body<typeof api.conversations.$get>[number];

/** GET /api/conversations/:id: the chat header (listing, price, the other party). */
export type ConversationDetail = Body<(typeof api.conversations)[":id"]["$get"]>;

/** GET /api/conversations/:id/messages: ascending by seq; `has_more` when older ones exist. */
export type MessagePage = Body<(typeof api.conversations)[":id"]["messages"]["$get"]>;

/** A stored message, as the API and the chat socket send it (the socket's frames are in domain/chat.ts). */
export type { ChatMessage };

const param = (value: string) => encodeURIComponent(value);

// The keys and the badge's count live in chat-badge.ts (in every page's first load); the rest of
// this client loads with the pages that use it.
export { chatKeys, fetchUnreadCount } from "./chat-badge";
import { chatKeys } from "./chat-badge";

export const conversationsQuery = () =>
  queryOptions({
    queryKey: chatKeys.list,
    queryFn: ({ signal }) => call(api.conversations.$get(undefined, { init: { signal } })),
  });

export const conversationQuery = (id: string) =>
  queryOptions({
    queryKey: chatKeys.detail(id),
    queryFn: ({ signal }) => call(api.conversations[":id"].$get({ param: { id: param(id) } }, { init: { signal } })),
  });

/** The newest page; the chat keeps its own live copy from there (web/routes/chat/useChat.ts). */
export const messagesQuery = (id: string) =>
  queryOptions({
    queryKey: chatKeys.messages(id),
    queryFn: ({ signal }) => call(api.conversations[":id"].messages.$get({ param: { id: param(id) }, query: {} }, { init: { signal } })),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

export function fetchOlderMessages(id: string, beforeSeq: number): Promise<MessagePage> {
  return call(api.conversations[":id"].messages.$get({ param: { id: param(id) }, query: { before: String(beforeSeq) } }));
}

/** "Send melding" on a listing: the one conversation with its seller, new or existing. */
export function startConversation(listingId: string): Promise<{ id: string }> {
  return call(api.conversations.$post({ json: { listing_id: listingId } }));
}

/** The HTTP send path (no socket, or no acknowledgement in time): the same id lands once. */
export function postMessage(conversationId: string, message: { id: string; content: string }): Promise<ChatMessage> {
  return call(api.conversations[":id"].messages.$post({ param: { id: param(conversationId) }, json: message }));
}

export function markRead(conversationId: string, upToSeq?: number): Promise<{ count: number; up_to_seq: number }> {
  return call(
    api.conversations[":id"].read.$post({
      param: { id: param(conversationId) },
      json: upToSeq === undefined ? {} : { up_to_seq: upToSeq },
    }),
  );
}

/** ws(s)://this-host/path: the socket goes to the same origin as the page (cookies, Origin check). */
export function liveUrl(path: string): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss:" : "ws:"}//${host}${path}`;
}

/** GET /api/test-notifications: answers only where the notification test exists (local mode). */
export const testNotificationsQuery = () =>
  queryOptions({
    queryKey: chatKeys.testNotifications,
    queryFn: ({ signal }) => call(api["test-notifications"].$get(undefined, { init: { signal } })),
    retry: false,
    staleTime: Infinity,
  });

/** A message from the system user into the user's latest conversation. */
export function sendTestNotification(content: string) {
  return call(api["test-notifications"].$post({ json: { content } }));
}
