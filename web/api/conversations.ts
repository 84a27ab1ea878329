import { queryOptions } from "@tanstack/react-query";
import type { ChatMessage, ConversationDetail, ConversationSummary, MessagePage } from "../../domain/messaging";
import { apiFetch } from "./client";

export type { ChatMessage, ConversationDetail, ConversationSummary, MessagePage };

export const conversationKeys = {
  all: ["conversations"] as const,
  list: ["conversations", "list"] as const,
  detail: (id: string) => ["conversations", "detail", id] as const,
  messages: (id: string) => ["conversations", "messages", id] as const,
};

export const conversationsQuery = () =>
  queryOptions({
    queryKey: conversationKeys.list,
    queryFn: ({ signal }) => apiFetch<ConversationSummary[]>("/api/conversations", { signal }),
  });

export const conversationQuery = (id: string) =>
  queryOptions({
    queryKey: conversationKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<ConversationDetail>(`/api/conversations/${encodeURIComponent(id)}`, { signal }),
  });

/** The newest page; the chat keeps its own live copy from there (web/routes/chat/useChat.ts). */
export const messagesQuery = (id: string) =>
  queryOptions({
    queryKey: conversationKeys.messages(id),
    queryFn: ({ signal }) => apiFetch<MessagePage>(`/api/conversations/${encodeURIComponent(id)}/messages`, { signal }),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

export function fetchOlderMessages(id: string, beforeSeq: number): Promise<MessagePage> {
  return apiFetch<MessagePage>(`/api/conversations/${encodeURIComponent(id)}/messages?before=${beforeSeq}`);
}

/** "Send melding" on a listing: the one conversation with its seller, new or existing. */
export function startConversation(listingId: string): Promise<{ id: string }> {
  return apiFetch<{ id: string }>("/api/conversations", { method: "POST", body: { listing_id: listingId } });
}

/** The HTTP send path (no socket, or no acknowledgement in time): the same id lands once. */
export function postMessage(conversationId: string, message: { id: string; content: string }): Promise<ChatMessage> {
  return apiFetch<ChatMessage>(`/api/conversations/${encodeURIComponent(conversationId)}/messages`, { method: "POST", body: message });
}

export function markRead(conversationId: string, upToSeq?: number): Promise<{ count: number; up_to_seq: number }> {
  return apiFetch(`/api/conversations/${encodeURIComponent(conversationId)}/read`, { method: "POST", body: upToSeq === undefined ? {} : { up_to_seq: upToSeq } });
}

export async function fetchUnreadCount(): Promise<number> {
  return (await apiFetch<{ count: number }>("/api/conversations/unread-count")).count;
}

/** ws(s)://this-host/path: the socket goes to the same origin as the page (cookies, Origin check). */
export function liveUrl(path: string): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss:" : "ws:"}//${host}${path}`;
}
