// Messages in D1, the mirror of the rooms' own copies (docs/decisions/107-chat-acknowledged-by-its-room.md):
// the rooms write them (room-mirror.ts); what is read from D1 here is for the offline mail, which
// the room's alarm sends right after its mirror has run.
import type { Db } from "../../db/client";

/** SQL: the message is one `viewer` (a bound parameter) may see: for both participants, or for them. */
function visibleTo(viewer: string): string {
  return `(recipient_id IS NULL OR recipient_id = ${viewer})`;
}

/** Unread messages in one conversation for `userId` (sent by anyone else). */
export async function unreadInConversation(db: Db, conversationId: string, userId: string): Promise<{ count: number; senders: string[] }> {
  const { results } = await db
    .prepare(
      `SELECT sender_id, COUNT(*) AS n FROM messages WHERE conversation_id = ?1 AND sender_id <> ?2 AND read_at IS NULL AND ${visibleTo("?2")} GROUP BY sender_id`,
    )
    .bind(conversationId, userId)
    .all<{ sender_id: string; n: number }>();
  return { count: results.reduce((sum, r) => sum + r.n, 0), senders: results.map((r) => r.sender_id) };
}
