// Chat bodies as the Worker sends them: the conversation's header and inbox entry, messages and
// their pages, starting a conversation, read marks, the unread count, and test notifications.
import type { InferResponseType } from "hono/client";
import { SYSTEM_USER_ID } from "../../domain/chat";
import { type Api, TEST_CONVERSATION_ID, TEST_LISTING_ID, TEST_SELLER_ID, TEST_USER_ID } from "./api-core";

export type ConversationSummaryBody = InferResponseType<Api["conversations"]["$get"], 200>[number];
export type ConversationDetailBody = InferResponseType<Api["conversations"][":id"]["$get"], 200>;
export type MessagePageBody = InferResponseType<Api["conversations"][":id"]["messages"]["$get"], 200>;
export type ChatMessageBody = MessagePageBody["messages"][number];
export type StartConversationBody = InferResponseType<Api["conversations"]["$post"], 201>;
export type MarkReadBody = InferResponseType<Api["conversations"][":id"]["read"]["$post"], 200>;
export type UnreadCountBody = InferResponseType<Api["conversations"]["unread-count"]["$get"], 200>;
export type TestNotificationBody = InferResponseType<Api["test-notifications"]["$post"], 201>;
export type TestNotificationsAvailableBody = InferResponseType<Api["test-notifications"]["$get"], 200>;

/**
 * GET /api/conversations/:id: the chat header, seen by the test user (the buyer) about a listing of
 * TEST_SELLER_ID.
 */
export function conversationDetailBody(overrides: Partial<ConversationDetailBody> = {}): ConversationDetailBody {
  return {
    id: TEST_CONVERSATION_ID,
    listing_id: TEST_LISTING_ID,
    buyer_id: TEST_USER_ID,
    seller_id: TEST_SELLER_ID,
    last_seq: 0,
    updated_at: new Date().toISOString(),
    listing: { id: TEST_LISTING_ID, title: "Brio togbane", price: 350, is_free: false, images: [], status: "active" },
    other_user: { id: TEST_SELLER_ID, display_name: "Ola Hansen", deleted: false },
    ...overrides,
  };
}

/** One entry of GET /api/conversations (the inbox): the header plus the last message and the unread count. */
export function conversationSummaryBody(overrides: Partial<ConversationSummaryBody> = {}): ConversationSummaryBody {
  return {
    ...conversationDetailBody({ last_seq: 1 }),
    last_message: { content: "Hei!", created_at: new Date().toISOString(), sender_id: TEST_SELLER_ID },
    unread_count: 0,
    ...overrides,
  };
}

let messageCounter = 0;

/** A stored message (GET …/messages, POST …/messages, and the socket's frames). */
export function chatMessageBody(overrides: Partial<ChatMessageBody> = {}): ChatMessageBody {
  messageCounter += 1;
  return {
    id: `${String(messageCounter).padStart(8, "0")}-0000-4000-8000-000000000000`,
    conversation_id: TEST_CONVERSATION_ID,
    sender_id: TEST_SELLER_ID,
    seq: messageCounter,
    content: `Melding ${messageCounter}`,
    read_at: null,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

/** GET /api/conversations/:id/messages: ascending by seq. */
export function messagePageBody(messages: ChatMessageBody[] = [], hasMore = false): MessagePageBody {
  return { messages, has_more: hasMore };
}

/** POST /api/conversations ("Send melding"): the conversation's id (201 new, 200 existing). */
export function startConversationBody(id = TEST_CONVERSATION_ID): StartConversationBody {
  return { id };
}

/** POST /api/conversations/:id/read. */
export function markReadBody(count = 0, upToSeq = 0): MarkReadBody {
  return { count, up_to_seq: upToSeq };
}

/** GET /api/conversations/unread-count. */
export function unreadCountBody(count = 0): UnreadCountBody {
  return { count };
}

/** GET /api/test-notifications: the page exists (local mode only; production answers 404). */
export function testNotificationsAvailableBody(): TestNotificationsAvailableBody {
  return { enabled: true };
}

/** POST /api/test-notifications (local mode): the conversation written into and the system message. */
export function testNotificationBody(overrides: Partial<TestNotificationBody> = {}): TestNotificationBody {
  return {
    conversation_id: TEST_CONVERSATION_ID,
    message: chatMessageBody({ sender_id: SYSTEM_USER_ID, content: "Test melding for notifikasjoner" }),
    ...overrides,
  };
}
