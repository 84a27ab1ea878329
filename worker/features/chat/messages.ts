// Messages in D1: the one write path for every message (socket, HTTP, system), catch-up by sequence
// and read marking. Callers go through the ConversationRoom so it can fan out in order
// (worker/features/chat/live.ts); these functions only touch D1.
import { SYSTEM_USER_ID, type ChatMessage, type MessagePage, CHAT_REFUSALS } from "../../../domain/messaging";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { nowIso } from "../../lib/crypto";

export const MESSAGE_COLUMNS = "id, conversation_id, sender_id, seq, content, read_at, created_at";

export interface StoreResult {
  message: ChatMessage;
  /** False when this id was already stored (a retried send): nothing new to fan out. */
  created: boolean;
  buyerId: string;
  sellerId: string;
}

export interface StoreInput {
  conversationId: string;
  senderId: string;
  id: string;
  /** Already validated and trimmed (domain/schemas/messaging.ts). */
  content: string;
  /** Only this participant sees the message (system messages only); both when absent. */
  recipientId?: string;
}

/** SQL: the message is one `viewer` (a bound parameter) may see: for both participants, or for them. */
function visibleTo(viewer: string): string {
  return `(recipient_id IS NULL OR recipient_id = ${viewer})`;
}

/**
 * Store a message with the conversation's next sequence number, exactly once per id.
 *
 * D1 has no interactive transactions, so this is one batch (one transaction) of two statements with
 * the same condition: bump `conversations.last_seq` and insert the message at the new value, both
 * only if the id is new, the sender takes part (or is the system user) and neither participant has
 * deleted their account. A retry with the same id changes nothing and returns the stored row (one
 * more read); two sends at once get consecutive numbers (the unique (conversation_id, seq) index
 * backs this up).
 */
export async function storeMessage(db: Db, input: StoreInput): Promise<StoreResult> {
  const d1 = db.$client;
  const now = nowIso();
  const system = input.senderId === SYSTEM_USER_ID ? 1 : 0;
  // Only the system user writes to one participant; that participant must take part.
  const recipient = system && input.recipientId ? input.recipientId : null;
  // ?1 conversation, ?2 message id, ?3 sender, ?4 system sender, ?7 recipient (or null)
  const mayWrite = `c.id = ?1
    AND (?3 IN (c.buyer_id, c.seller_id) OR ?4 = 1)
    AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = ?2)
    AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id IN (c.buyer_id, c.seller_id) AND u.deleted_at IS NOT NULL)
    AND (?7 IS NULL OR ?7 IN (c.buyer_id, c.seller_id))`;
  const [bumped, inserted] = await d1.batch<Record<string, unknown>>([
    d1
      // A message for one participant leaves updated_at alone: the other's inbox order must not move.
      .prepare(
        `UPDATE conversations AS c SET last_seq = last_seq + 1, updated_at = CASE WHEN ?7 IS NULL THEN ?5 ELSE updated_at END
         WHERE ${mayWrite} RETURNING buyer_id, seller_id`,
      )
      .bind(input.conversationId, input.id, input.senderId, system, now, null, recipient),
    d1
      .prepare(
        `INSERT INTO messages (id, conversation_id, sender_id, seq, content, recipient_id, created_at)
         SELECT ?2, c.id, ?3, c.last_seq, ?6, ?7, ?5 FROM conversations c WHERE ${mayWrite}
         RETURNING ${MESSAGE_COLUMNS}`,
      )
      .bind(input.conversationId, input.id, input.senderId, system, now, input.content, recipient),
  ]);
  const created = inserted.results[0] as unknown as ChatMessage | undefined;
  if (created) {
    const conv = bumped.results[0] as { buyer_id: string; seller_id: string };
    return { message: created, created: true, buyerId: conv.buyer_id, sellerId: conv.seller_id };
  }
  // Nothing new: a retry of a stored message, or a refusal.
  const row = await db.$client
    .prepare(
      `SELECT m.id, m.conversation_id, m.sender_id, m.seq, m.content, m.read_at, m.created_at, c.buyer_id, c.seller_id
       FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ?1`,
    )
    .bind(input.id)
    .first<ChatMessage & { buyer_id: string; seller_id: string }>();
  if (!row) throw await refusal(db, input);
  if (row.conversation_id !== input.conversationId || row.sender_id !== input.senderId) {
    // Another message already has this id: never hand someone else's message back.
    throw new AppError("CONFLICT", CHAT_REFUSALS.notStored);
  }
  const { buyer_id: buyerId, seller_id: sellerId, ...message } = row;
  return { message, created: false, buyerId, sellerId };
}

/** Why nothing was stored: the conversation is not the sender's, or a participant deleted their account. */
async function refusal(db: Db, input: StoreInput): Promise<AppError> {
  const conv = await db.$client
    .prepare(
      `SELECT c.buyer_id, c.seller_id, EXISTS (SELECT 1 FROM users u WHERE u.id IN (c.buyer_id, c.seller_id) AND u.deleted_at IS NOT NULL) AS gone
       FROM conversations c WHERE c.id = ?1`,
    )
    .bind(input.conversationId)
    .first<{ buyer_id: string; seller_id: string; gone: number }>();
  const participant = conv && (input.senderId === SYSTEM_USER_ID || input.senderId === conv.buyer_id || input.senderId === conv.seller_id);
  if (!conv || !participant) return new AppError("NOT_FOUND", CHAT_REFUSALS.conversationNotFound);
  if (conv.gone) return new AppError("CONFLICT", CHAT_REFUSALS.recipientDeleted);
  return new AppError("CONFLICT", CHAT_REFUSALS.notStored);
}

/** Every message `viewerId` may see after `afterSeq`, ascending, at most `limit`. */
export async function messagesAfter(
  db: Db,
  conversationId: string,
  viewerId: string,
  afterSeq: number,
  limit: number,
): Promise<ChatMessage[]> {
  const { results } = await db.$client
    .prepare(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ?1 AND seq > ?2 AND ${visibleTo("?4")} ORDER BY seq LIMIT ?3`)
    .bind(conversationId, afterSeq, limit, viewerId)
    .all<ChatMessage>();
  return results;
}

/** The newest `limit` messages `viewerId` may see (before `beforeSeq` when given), returned ascending. */
export async function messagePage(
  db: Db,
  conversationId: string,
  viewerId: string,
  limit: number,
  beforeSeq?: number,
): Promise<MessagePage> {
  const { results } = await db.$client
    .prepare(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ?1 AND seq < ?2 AND ${visibleTo("?4")} ORDER BY seq DESC LIMIT ?3`,
    )
    .bind(conversationId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1, viewerId)
    .all<ChatMessage>();
  const hasMore = results.length > limit;
  return { messages: results.slice(0, limit).reverse(), has_more: hasMore };
}

export interface ReadResult {
  /** Highest sequence marked now (0 when nothing was unread). */
  upToSeq: number;
  count: number;
  readAt: string;
}

/**
 * Mark the reader's unread messages read, up to `upToSeq` (or all). Only messages not sent by the
 * reader, and only when the reader takes part in the conversation (docs/product.md "States", "Who may do what").
 */
export async function markRead(db: Db, conversationId: string, readerId: string, upToSeq?: number): Promise<ReadResult> {
  const readAt = nowIso();
  const { results } = await db.$client
    .prepare(
      `UPDATE messages SET read_at = ?3
       WHERE conversation_id = ?1 AND sender_id <> ?2 AND read_at IS NULL AND seq <= ?4 AND ${visibleTo("?2")}
         AND EXISTS (SELECT 1 FROM conversations c WHERE c.id = ?1 AND ?2 IN (c.buyer_id, c.seller_id))
       RETURNING seq`,
    )
    .bind(conversationId, readerId, readAt, upToSeq ?? Number.MAX_SAFE_INTEGER)
    .all<{ seq: number }>();
  return { upToSeq: results.reduce((max, r) => Math.max(max, r.seq), 0), count: results.length, readAt };
}

/** The highest seq of `senderId`'s own messages that the other party has read (0 when none). */
export async function readHorizon(db: Db, conversationId: string, senderId: string): Promise<number> {
  const row = await db.$client
    .prepare("SELECT COALESCE(MAX(seq), 0) AS seq FROM messages WHERE conversation_id = ?1 AND sender_id = ?2 AND read_at IS NOT NULL")
    .bind(conversationId, senderId)
    .first<{ seq: number }>();
  return row?.seq ?? 0;
}

/** Unread messages in one conversation for `userId` (sent by anyone else). */
export async function unreadInConversation(db: Db, conversationId: string, userId: string): Promise<{ count: number; senders: string[] }> {
  const { results } = await db.$client
    .prepare(
      `SELECT sender_id, COUNT(*) AS n FROM messages WHERE conversation_id = ?1 AND sender_id <> ?2 AND read_at IS NULL AND ${visibleTo("?2")} GROUP BY sender_id`,
    )
    .bind(conversationId, userId)
    .all<{ sender_id: string; n: number }>();
  return { count: results.reduce((sum, r) => sum + r.n, 0), senders: results.map((r) => r.sender_id) };
}
