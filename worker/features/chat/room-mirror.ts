// The D1 mirror of a room's messages (docs/decisions/107-chat-acknowledged-by-its-room.md): the
// rows D1 lacks (new ones, or changed since: read, removed by a moderator) are written in one D1
// batch, keyed by message id, so running it twice (a retried alarm, an alarm and a flush at once)
// never doubles a row. A read mark or a removal never goes back: the upsert keeps the earlier
// `read_at` and the moderator's text. Only then does the room mark the rows mirrored.
import { SYSTEM_USER_ID, type MessageRemovedEvent } from "../../../domain/chat";
import { REMOVED_MESSAGE_TEXT } from "../../../domain/moderation";
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { readersOf, removeContent, type RoomInfo, type RoomRow } from "./room-store";
import { inboxStub } from "./stubs";

/** A mirror that failed (D1 unreachable) is tried again this much later, for as long as it takes. */
export const MIRROR_RETRY_MS = 5_000;
/** A pending mirror alarm that has not run this long after it was due is set again by the next write. */
export const MIRROR_REARM_MS = 2_000;

/**
 * A change only the room's participants see (they are connected and get it live) reaches D1 within
 * this window, batched with the others of its room: 5–15 s, spread so that rooms busy together (a
 * burst, a restart) do not all mirror in the same moment.
 */
export const MIRROR_WINDOW_MS = 5_000;

export function mirrorWindowMs(random: () => number = Math.random): number {
  return Math.round(MIRROR_WINDOW_MS * (0.5 + random()));
}

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
  const upsert = db.prepare(
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
  const results = await db.batch<{ id: string }>([
    ...rows.map((r) =>
      upsert.bind(r.id, conversationId, r.sender_id, r.seq, r.content, r.recipient_id, r.read_at, r.created_at, REMOVED_MESSAGE_TEXT),
    ),
    db
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

/**
 * Every row D1 lacks, in rounds of MIRROR_BATCH (20 at most, then `more`): written to D1, marked
 * mirrored, rows D1 holds for another conversation handed to `withdraw`, and then `changed` with the
 * rows D1 now has (whose readers' inboxes may need telling: `inboxesToTell`). Returns how many rows it wrote.
 */
export async function mirrorRows(
  db: Db,
  sql: SqlStorage,
  info: RoomInfo,
  on: { withdraw: (row: RoomRow) => void; changed: (rows: RoomRow[]) => Promise<void> },
): Promise<{ written: number; more: boolean }> {
  let written = 0;
  for (let round = 0; round < 20; round++) {
    const rows = unmirroredRows(sql);
    if (rows.length === 0) return { written, more: false };
    const { mirrored, foreign } = await mirrorToD1(db, info.conversationId, rows);
    markMirrored(sql, mirrored);
    for (const row of foreign) on.withdraw(row);
    await on.changed(mirrored);
    written += mirrored.length;
    if (rows.length < MIRROR_BATCH) return { written, more: false };
  }
  return { written, more: true };
}

/**
 * The readers whose inboxes a mirror of `rows` must tell (they count from D1): every reader of a row
 * read since, and the readers of an unread row who are away from the room. A reader in the room sees
 * the message live; their count goes up and down again in D1 unseen, and they are told when they
 * read a message D1 had, or when they leave the room.
 */
export function inboxesToTell(info: RoomInfo, rows: RoomRow[], inRoom: (userId: string) => boolean): string[] {
  const told = rows.flatMap((row) => readersOf(info, row).filter((id) => row.read_at !== null || !inRoom(id)));
  return [...new Set(told)];
}

/**
 * After the mirror (the inbox counts from D1): the badge may lag the chat by a moment, never the
 * other way round. Awaited by the mirror (off the ack's path), so an alarm that ends cannot drop it.
 */
export async function notifyInboxes(env: Bindings, userIds: string[], conversationId: string): Promise<void> {
  const results = await Promise.allSettled(
    userIds.filter((id) => id !== SYSTEM_USER_ID).map((userId) => inboxStub(env, userId).changed(userId, conversationId)),
  );
  for (const r of results) if (r.status === "rejected") console.error("UserInbox notification failed", r.reason);
}

/**
 * D1 holds this message id for another conversation: the sender reused an id seen elsewhere, which
 * no honest client does. The message is withdrawn in the room (shown removed, never mirrored) rather
 * than left where moderation cannot see it. Returns the event that shows it removed, or null.
 */
export function withdrawRow(sql: SqlStorage, id: string): MessageRemovedEvent | null {
  const event = removeContent(sql, id, REMOVED_MESSAGE_TEXT);
  if (event) sql.exec("UPDATE messages SET mirrored = version WHERE id = ?", id);
  return event;
}

/** Whether D1 is known not to hold the conversation (false when D1 cannot be asked). */
export async function conversationMissing(db: Db, conversationId: string): Promise<boolean> {
  try {
    return (await db.prepare("SELECT 1 FROM conversations WHERE id = ?1").bind(conversationId).first()) === null;
  } catch {
    return false;
  }
}
