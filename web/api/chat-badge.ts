// The chat's react-query keys and the header badge's unread count: the header is on every page, so
// this is in every page's first load, and the rest of the chat client (web/api/chat.ts, which
// re-exports these) is not.
import { api, call } from "./client";

export const chatKeys = {
  all: ["conversations"] as const,
  list: ["conversations", "list"] as const,
  detail: (id: string) => ["conversations", "detail", id] as const,
  messages: (id: string) => ["conversations", "messages", id] as const,
  /** Every conversation's live-event queries (trade offers, reviews). */
  events: ["conversations", "event"] as const,
  /** One conversation's live-event queries: the chat fetches them again after each catch-up. */
  eventsOf: (conversationId: string) => [...chatKeys.events, conversationId] as const,
  /** What a conversation's room announces as event `name`: the chat invalidates it when the event arrives. */
  event: (conversationId: string, name: string) => [...chatKeys.eventsOf(conversationId), name] as const,
  /** The header badge's count; live pushes write it with queryClient.setQueryData. */
  unreadCount: ["messages", "unread-count"] as const,
  testNotifications: ["test-notifications"] as const,
};

export async function fetchUnreadCount(): Promise<number> {
  return (await call(api.conversations["unread-count"].$get())).count;
}
