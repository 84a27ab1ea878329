// The D1 mirror of a room's messages (docs/decisions/107-chat-acknowledged-by-its-room.md): the
// rows D1 lacks (new ones, or changed since: read, removed by a moderator) are written in one D1
// batch, keyed by message id, so running it twice (a retried alarm, an alarm and a flush at once)
// never doubles a row. A read mark or a removal never goes back: the upsert keeps the earlier
// `read_at` and the moderator's text. Only then does the room mark the rows mirrored.
import { REMOVED_MESSAGE_TEXT } from "../../../domain/moderation";
import type { Db } from "../../db/client";
import type { RoomRow } from "./room-store";

/** Rows per D1 batch (each one statement, plus the conversation's update). */
export const MIRROR_BATCH = 50;

export interface MirrorResult {
  /** Rows D1 now has at the version sent. */
  mirrored: RoomRow[];
  /**
   * Rows whose id D1 already holds for another conversation (a client that reused an id it saw
   * elsewhere): never written over the other conversation's message.
   */
  foreign: RoomRow[];
}

export function unmirroredRows(sql: SqlStorage, limit = MIRROR_BATCH): RoomRow[] {
  return sql
    .exec<RoomRow>(
      `SELECT id, seq, sender_id, content, recipient_id, read_at, created_at, version, mirrored
       FROM messages WHERE version > mirrored ORDER BY seq LIMIT ?`,
      limit,
    )
    .toArray();
}

/** Write `rows` to D1 (one batch, one transaction). */
export async function mirrorToD1(db: Db, conversationId: string, rows: RoomRow[]): Promise<MirrorResult> {
  if (rows.length === 0) return { mirrored: [], foreign: [] };
  const d1 = db.$client;
  const upsert = d1.prepare(
    `INSERT INTO messages (id, conversation_id, sender_id, seq, content, recipient_id, read_at, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
     ON CONFLICT (id) DO UPDATE SET
       read_at = COALESCE(messages.read_at, excluded.read_at),
       content = CASE WHEN messages.content = ?9 THEN messages.content ELSE excluded.content END
     WHERE messages.conversation_id = excluded.conversation_id
     RETURNING id`,
  );
  const lastSeq = rows.reduce((max, r) => Math.max(max, r.seq), 0);
  // A message for one participant leaves updated_at alone: the other's inbox order must not move.
  const shared = rows
    .filter((r) => r.recipient_id === null)
    .reduce<string | null>((max, r) => (max && max > r.created_at ? max : r.created_at), null);
  const results = await d1.batch<{ id: string }>([
    ...rows.map((r) =>
      upsert.bind(r.id, conversationId, r.sender_id, r.seq, r.content, r.recipient_id, r.read_at, r.created_at, REMOVED_MESSAGE_TEXT),
    ),
    d1
      .prepare(
        `UPDATE conversations SET last_seq = MAX(last_seq, ?2),
           updated_at = CASE WHEN ?3 IS NOT NULL AND ?3 > updated_at THEN ?3 ELSE updated_at END
         WHERE id = ?1`,
      )
      .bind(conversationId, lastSeq, shared),
  ]);
  const mirrored: RoomRow[] = [];
  const foreign: RoomRow[] = [];
  rows.forEach((r, i) => (results[i].results.length > 0 ? mirrored : foreign).push(r));
  return { mirrored, foreign };
}

/** D1 has these rows at the versions sent; a row changed meanwhile stays unmirrored for the next run. */
export function markMirrored(sql: SqlStorage, rows: RoomRow[]): void {
  for (const r of rows) sql.exec("UPDATE messages SET mirrored = MAX(mirrored, ?) WHERE id = ?", r.version, r.id);
}
