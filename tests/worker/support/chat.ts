// Shared by the chat socket tests (tests/worker/chat/chat-live-*.integration.test.ts): a conversation
// with both participants signed in, D1's copy of its messages once the room's mirror has run, sending
// on a socket and waiting for the room's answer, and a conversation's row in the inbox.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { ChatMessage, ConversationSummary, RoomFrame } from "../../../domain/chat";
import { createConversation, signedInClient } from "../../factories";
import type { Client } from "./http";
import { mirrored, type LiveSocket } from "./live";

export type Ack = Extract<RoomFrame, { type: "ack" }>;
export type Msg = Extract<RoomFrame, { type: "message" }>;
export type Err = Extract<RoomFrame, { type: "error" }>;

export async function setup() {
  const conv = await createConversation();
  const buyer = await signedInClient(conv.buyer.id);
  const seller = await signedInClient(conv.seller.id);
  return { conv, buyer, seller };
}

/** D1's copy once the room's mirror has run (its alarm runs it moments after each write). */
export async function rows(conversationId: string) {
  await mirrored(conversationId);
  const { results } = await env.DB.prepare(
    "SELECT id, sender_id, seq, content, read_at FROM messages WHERE conversation_id = ?1 ORDER BY seq",
  )
    .bind(conversationId)
    .all<Pick<ChatMessage, "id" | "sender_id" | "seq" | "content" | "read_at">>();
  return results;
}

export function sendOn(socket: LiveSocket, content: string, id: string = crypto.randomUUID()) {
  socket.send({ type: "send", id, content });
  return id;
}

export const ackFor = (socket: LiveSocket, id: string) => socket.waitFor<Ack>((f) => f.type === "ack" && f.id === id);
export const errorFor = (socket: LiveSocket, id: string) => socket.waitFor<Err>((f) => f.type === "error" && f.id === id);
export const messageFor = (socket: LiveSocket, id: string) => socket.waitFor<Msg>((f) => f.type === "message" && f.message.id === id);

export type InboxTabFrame = { type: string; count?: number };

/** The conversation's row in `client`'s inbox (GET /api/conversations), read now. */
export async function inboxRow(client: Client, conversationId: string): Promise<ConversationSummary> {
  const res = await client.get("/api/conversations");
  expect(res.status).toBe(200);
  const row = ((await res.json()) as ConversationSummary[]).find((c) => c.id === conversationId);
  expect(row).toBeDefined();
  return row!;
}
