// TEMPORARY, kept in this one file on purpose: the payments issue needs the conversation between
// buyer and seller and a system message about the sale before the messaging service exists. At
// merge these two functions are replaced by the messaging service (conversations start/reuse, the
// seq-allocating message store and the ConversationRoom fan-out); callers only use these two.
//
// Both are safe to run twice or concurrently: the conversation is unique per (listing, buyer,
// seller), and a message is identified by its id (insert-or-ignore) with its seq allocated in the
// same D1 batch only when the message is new.
import { nowIso } from "../lib/crypto";

/** The nil-UUID system user (migration 0003), sender of system messages. */
export const SYSTEM_USER_ID = "00000000-0000-0000-0000-000000000000";

/** The one conversation for (listing, buyer, seller): reused if it exists, created otherwise. */
export async function findOrCreateConversation(db: D1Database, listingId: string, buyerId: string, sellerId: string): Promise<string> {
  const now = nowIso();
  const inserted = await db
    .prepare(
      `INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, 0, ?5, ?5)
       ON CONFLICT (listing_id, buyer_id, seller_id) DO NOTHING RETURNING id`,
    )
    .bind(crypto.randomUUID(), listingId, buyerId, sellerId, now)
    .first<{ id: string }>();
  if (inserted) return inserted.id;
  const existing = await db
    .prepare("SELECT id FROM conversations WHERE listing_id = ?1 AND buyer_id = ?2 AND seller_id = ?3")
    .bind(listingId, buyerId, sellerId)
    .first<{ id: string }>();
  if (!existing) throw new Error("conversation insert was ignored but no conversation exists");
  return existing.id;
}

export interface SystemMessage {
  conversationId: string;
  /** Stable per cause (e.g. derived from the payment id), so a retry stores it once. */
  messageId: string;
  content: string;
  senderId?: string;
}

/**
 * Store a message with the conversation's next seq, in one D1 batch: the counter moves and the row
 * is written only if no message with this id exists yet. Returns the message's seq and whether it
 * was new.
 */
export async function postSystemMessage(db: D1Database, message: SystemMessage): Promise<{ seq: number; created: boolean }> {
  const now = nowIso();
  const { conversationId, messageId, content } = message;
  const sender = message.senderId ?? SYSTEM_USER_ID;
  const [, insert, read] = await db.batch<{ seq: number }>([
    db
      .prepare(
        `UPDATE conversations SET last_seq = last_seq + 1, updated_at = ?2
         WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM messages WHERE id = ?3)`,
      )
      .bind(conversationId, now, messageId),
    db
      .prepare(
        `INSERT INTO messages (id, conversation_id, sender_id, seq, content, created_at)
         SELECT ?1, id, ?3, last_seq, ?4, ?5 FROM conversations
         WHERE id = ?2 AND NOT EXISTS (SELECT 1 FROM messages WHERE id = ?1)
         RETURNING seq`,
      )
      .bind(messageId, conversationId, sender, content, now),
    db.prepare("SELECT seq FROM messages WHERE id = ?1 AND conversation_id = ?2").bind(messageId, conversationId),
  ]);
  const row = read.results[0];
  if (!row) throw new Error(`message ${messageId} was not stored in conversation ${conversationId}`);
  return { seq: row.seq, created: insert.results.length > 0 };
}
