// A ConversationRoom's own copy of its conversation (docs/decisions/107-chat-acknowledged-by-its-room.md):
// the messages in the object's SQLite storage (`ctx.storage.sql`), and what the room needs to
// accept a message without asking D1: the two participants and, per participant, a deleted
// account and a suspension. The room is the source of a conversation's messages; D1 holds a
// mirror of them (room-mirror.ts) for the inbox, moderation, the export and mail.
//
// Every function over the room's own SQL storage is synchronous: its writes need no await, and the
// runtime's output gate holds anything the room sends after them (frames, RPC answers) until they
// are durable (docs/decisions/138). Only the reads of D1 (loadRoom, loadParticipants, currentRoom)
// are async.
import { CHAT_REFUSALS, SYSTEM_USER_ID, type ChatMessage, type MessageRemovedEvent } from "../../../domain/chat";
import { suspensionMessage } from "../../../domain/moderation";
import { RATE_LIMITED_MESSAGE, RATE_RULES } from "../../../domain/rate-limits";
import type { Db } from "../../db/client";
import { nowIso } from "../../lib/crypto";
import { AppError } from "../../lib/errors";

/** A participant's standing as the room last read it from D1. */
export interface ParticipantState {
  deleted: boolean;
  /** The end of an active suspension (ISO), or null. */
  suspendedUntil: string | null;
  suspensionReason: string | null;
}

/** What the room loaded from D1 when it first served its conversation (kv key "room"). */
export interface RoomInfo {
  conversationId: string;
  buyerId: string;
  sellerId: string;
  users: Record<string, ParticipantState>;
  /** When `users` was read from D1 (ms): re-read after USER_STATE_MAX_AGE_MS as a safety net. */
  usersLoadedAt: number;
}

/**
 * The Worker tells the room when a participant is suspended, unsuspended or deleted
 * (live.ts `participantChanged`); this re-read only covers a room that missed that call.
 */
export const USER_STATE_MAX_AGE_MS = 10 * 60_000;

/** A row of the room's `messages` table. `version` counts changes; `mirrored` is the version D1 has. */
export interface RoomRow {
  id: string;
  seq: number;
  sender_id: string;
  content: string;
  recipient_id: string | null;
  read_at: string | null;
  created_at: string;
  version: number;
  mirrored: number;
  [key: string]: SqlStorageValue;
}

const ROW_COLUMNS = "id, seq, sender_id, content, recipient_id, read_at, created_at, version, mirrored";

export function createSchema(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS messages (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    sender_id TEXT NOT NULL,
    content TEXT NOT NULL,
    recipient_id TEXT,
    read_at TEXT,
    created_at TEXT NOT NULL,
    sent_ms INTEGER NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    mirrored INTEGER NOT NULL DEFAULT 0
  )`);
  // The rate limit counts a sender's recent messages; the mirror looks for rows D1 lacks.
  sql.exec("CREATE INDEX IF NOT EXISTS messages_sender_sent ON messages (sender_id, sent_ms)");
  sql.exec("CREATE INDEX IF NOT EXISTS messages_unmirrored ON messages (seq) WHERE version > mirrored");
}

export function toMessage(row: RoomRow, conversationId: string): ChatMessage {
  return {
    id: row.id,
    conversation_id: conversationId,
    sender_id: row.sender_id,
    seq: row.seq,
    content: row.content,
    read_at: row.read_at,
    created_at: row.created_at,
  };
}

export function rowById(sql: SqlStorage, id: string): RoomRow | null {
  return sql.exec<RoomRow>(`SELECT ${ROW_COLUMNS} FROM messages WHERE id = ?`, id).toArray()[0] ?? null;
}

export function lastSeq(sql: SqlStorage): number {
  return sql.exec<{ seq: number }>("SELECT COALESCE(MAX(seq), 0) AS seq FROM messages").one().seq;
}

export interface NewMessage {
  id: string;
  senderId: string;
  content: string;
  recipientId: string | null;
}

/** Append with the next seq; the caller has checked everything (the write path in conversation-room.ts). */
export function insertMessage(sql: SqlStorage, input: NewMessage, now = Date.now()): RoomRow {
  const createdAt = new Date(now).toISOString();
  return sql
    .exec<RoomRow>(
      `INSERT INTO messages (seq, id, sender_id, content, recipient_id, read_at, created_at, sent_ms, version, mirrored)
       VALUES ((SELECT COALESCE(MAX(seq), 0) + 1 FROM messages), ?, ?, ?, ?, NULL, ?, ?, 1, 0)
       RETURNING ${ROW_COLUMNS}`,
      input.id,
      input.senderId,
      input.content,
      input.recipientId,
      createdAt,
      now,
    )
    .one();
}

/**
 * The sliding-window rate limit for one sender in this room, counted from the messages themselves
 * (no extra write): null while the window has room, else the seconds until its oldest message leaves it.
 */
export function rateLimitRetryAfter(
  sql: SqlStorage,
  senderId: string,
  limit: number,
  windowSeconds: number,
  now = Date.now(),
): number | null {
  const since = now - windowSeconds * 1000;
  const row = sql
    .exec<{ n: number; oldest: number | null }>(
      "SELECT COUNT(*) AS n, MIN(sent_ms) AS oldest FROM messages WHERE sender_id = ? AND sent_ms > ?",
      senderId,
      since,
    )
    .one();
  if (row.n < limit) return null;
  return Math.max(1, Math.ceil(((row.oldest ?? now) + windowSeconds * 1000 - now) / 1000));
}

/** SQL: a row `?`-bound viewer may see (for both participants, or for them alone). */
const VISIBLE = "(recipient_id IS NULL OR recipient_id = ?)";

export function messagesAfter(sql: SqlStorage, conversationId: string, viewerId: string, afterSeq: number, limit: number): ChatMessage[] {
  return sql
    .exec<RoomRow>(`SELECT ${ROW_COLUMNS} FROM messages WHERE seq > ? AND ${VISIBLE} ORDER BY seq LIMIT ?`, afterSeq, viewerId, limit)
    .toArray()
    .map((r) => toMessage(r, conversationId));
}

/** The newest `limit` messages `viewerId` may see (before `beforeSeq` when given), ascending. */
export function messagePage(
  sql: SqlStorage,
  conversationId: string,
  viewerId: string,
  limit: number,
  beforeSeq?: number,
): { messages: ChatMessage[]; has_more: boolean } {
  const rows = sql
    .exec<RoomRow>(
      `SELECT ${ROW_COLUMNS} FROM messages WHERE seq < ? AND ${VISIBLE} ORDER BY seq DESC LIMIT ?`,
      beforeSeq ?? Number.MAX_SAFE_INTEGER,
      viewerId,
      limit + 1,
    )
    .toArray();
  return {
    messages: rows
      .slice(0, limit)
      .reverse()
      .map((r) => toMessage(r, conversationId)),
    has_more: rows.length > limit,
  };
}

/** The highest seq of `senderId`'s own messages the other party has read (0 when none). */
export function readHorizon(sql: SqlStorage, senderId: string): number {
  return sql
    .exec<{ seq: number }>("SELECT COALESCE(MAX(seq), 0) AS seq FROM messages WHERE sender_id = ? AND read_at IS NOT NULL", senderId)
    .one().seq;
}

/** Mark the reader's unread messages (not their own, visible to them) read up to `upToSeq`. */
export function markRead(
  sql: SqlStorage,
  readerId: string,
  upToSeq?: number,
): { upToSeq: number; count: number; readAt: string; wasMirrored: boolean } {
  const readAt = nowIso();
  const rows = sql
    .exec<{ seq: number; mirrored: number }>(
      `UPDATE messages SET read_at = ?, version = version + 1
       WHERE sender_id <> ? AND read_at IS NULL AND seq <= ? AND ${VISIBLE} RETURNING seq, mirrored`,
      readAt,
      readerId,
      upToSeq ?? Number.MAX_SAFE_INTEGER,
      readerId,
    )
    .toArray();
  // wasMirrored: D1 has one of them, still unread there.
  return {
    upToSeq: rows.reduce((max, r) => Math.max(max, r.seq), 0),
    count: rows.length,
    readAt,
    wasMirrored: rows.some((r) => r.mirrored > 0),
  };
}

/** Whether D1 has a message `readerId` has not read (their inbox counts it). */
export function hasMirroredUnread(sql: SqlStorage, readerId: string): boolean {
  return (
    sql
      .exec(`SELECT 1 FROM messages WHERE sender_id <> ? AND read_at IS NULL AND mirrored > 0 AND ${VISIBLE} LIMIT 1`, readerId, readerId)
      .toArray().length > 0
  );
}

/** Replace a message's text (moderation); null when the room has no such message. */
export function replaceContent(sql: SqlStorage, id: string, content: string): RoomRow | null {
  return (
    sql
      .exec<RoomRow>(`UPDATE messages SET content = ?, version = version + 1 WHERE id = ? RETURNING ${ROW_COLUMNS}`, content, id)
      .toArray()[0] ?? null
  );
}

// ---- loading from D1 ------------------------------------------------------------------------------

const IMPORT_PAGE = 500;

type ImportedRow = Pick<ChatMessage, "id" | "seq" | "sender_id" | "content" | "read_at" | "created_at"> & { recipient_id: string | null };
type StandingRow = { id: string; deleted_at: string | null; suspended_until: string | null; suspension_reason: string | null };

const IMPORT_SQL = `SELECT id, seq, sender_id, content, recipient_id, read_at, created_at FROM messages
  WHERE conversation_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3`;

/** ?1: a JSON array of user ids, or (with ?3 set) ignored in favour of conversation ?3's two participants. */
const STANDING_SQL = `SELECT u.id, u.deleted_at, s.suspended_until, s.suspension_reason FROM users u
  LEFT JOIN user_moderation_status s ON s.user_id = u.id AND s.is_suspended = 1 AND s.suspended_until > ?2
  WHERE u.id IN (SELECT value FROM json_each(?1))
     OR u.id IN (SELECT buyer_id FROM conversations WHERE id = ?3 UNION SELECT seller_id FROM conversations WHERE id = ?3)`;

/**
 * The first time a room serves its conversation: the participants, their standing and the messages
 * D1 already has (conversations from before the room kept its own copy, marked mirrored), in one
 * D1 batch (more pages only past IMPORT_PAGE messages). Null when D1 has no such conversation.
 */
export async function loadRoom(db: Db, sql: SqlStorage, conversationId: string): Promise<RoomInfo | null> {
  let after = lastSeq(sql);
  const [convs, standing, firstPage] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT buyer_id, seller_id FROM conversations WHERE id = ?1").bind(conversationId),
    db.prepare(STANDING_SQL).bind("[]", nowIso(), conversationId),
    db.prepare(IMPORT_SQL).bind(conversationId, after, IMPORT_PAGE),
  ]);
  const conv = convs.results[0] as { buyer_id: string; seller_id: string } | undefined;
  if (!conv) return null;
  let page = firstPage.results as ImportedRow[];
  for (;;) {
    for (const m of page) {
      sql.exec(
        `INSERT OR IGNORE INTO messages (seq, id, sender_id, content, recipient_id, read_at, created_at, sent_ms, version, mirrored)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 1)`,
        m.seq,
        m.id,
        m.sender_id,
        m.content,
        m.recipient_id,
        m.read_at,
        m.created_at,
        Date.parse(m.created_at) || 0,
      );
    }
    if (page.length < IMPORT_PAGE) break;
    after = page.at(-1)!.seq;
    page = (await db.prepare(IMPORT_SQL).bind(conversationId, after, IMPORT_PAGE).all<ImportedRow>()).results;
  }
  const participants = [conv.buyer_id, conv.seller_id];
  return {
    conversationId,
    buyerId: conv.buyer_id,
    sellerId: conv.seller_id,
    users: standingOf(participants, standing.results as StandingRow[]),
    usersLoadedAt: Date.now(),
  };
}

/** Deleted accounts and active suspensions of the participants, one D1 read. */
export async function loadParticipants(db: Db, userIds: string[]): Promise<Record<string, ParticipantState>> {
  const { results } = await db.prepare(STANDING_SQL).bind(JSON.stringify(userIds), nowIso(), null).all<StandingRow>();
  return standingOf(userIds, results);
}

function standingOf(userIds: string[], rows: StandingRow[]): Record<string, ParticipantState> {
  const users: Record<string, ParticipantState> = {};
  for (const r of rows) {
    users[r.id] = { deleted: !!r.deleted_at, suspendedUntil: r.suspended_until, suspensionReason: r.suspension_reason };
  }
  // A participant row that is gone entirely counts as deleted (the write path refuses as for a deleted account).
  for (const id of userIds) users[id] ??= { deleted: true, suspendedUntil: null, suspensionReason: null };
  return users;
}

export function isParticipant(room: RoomInfo, userId: string): boolean {
  return userId === room.buyerId || userId === room.sellerId;
}

/** Who sees a message: its one recipient, or both participants. */
export function audienceOf(room: RoomInfo, recipientId: string | null): string[] {
  return recipientId ? [recipientId] : [room.buyerId, room.sellerId];
}

/** The participants whose unread count a row changes: everyone who sees it but its sender. */
export function readersOf(room: RoomInfo, row: Pick<RoomRow, "sender_id" | "recipient_id">): string[] {
  return audienceOf(room, row.recipient_id).filter((id) => id !== row.sender_id && id !== SYSTEM_USER_ID);
}

/** The checks D1's write condition made before (decision 028), from the room's cached standing. */
export function assertMayWrite(sql: SqlStorage, room: RoomInfo, senderId: string, recipientId: string | null): void {
  const system = senderId === SYSTEM_USER_ID;
  if (!system && !isParticipant(room, senderId)) throw new AppError("NOT_FOUND", CHAT_REFUSALS.conversationNotFound);
  if (recipientId && !isParticipant(room, recipientId)) throw new AppError("CONFLICT", CHAT_REFUSALS.notStored);
  if (!system) {
    // A suspended user sends nothing, over the socket or HTTP (moderation/suspension.ts).
    const sender = room.users[senderId];
    if (sender?.suspendedUntil && sender.suspendedUntil > nowIso()) {
      throw new AppError("SUSPENDED", suspensionMessage(sender.suspendedUntil, sender.suspensionReason));
    }
  }
  if (room.users[room.buyerId]?.deleted || room.users[room.sellerId]?.deleted) {
    throw new AppError("CONFLICT", CHAT_REFUSALS.recipientDeleted);
  }
  if (!system) {
    const rule = RATE_RULES.messageSend;
    const retryAfter = rateLimitRetryAfter(sql, senderId, rule.limit, rule.windowSeconds);
    if (retryAfter !== null) throw new AppError("RATE_LIMITED", RATE_LIMITED_MESSAGE, undefined, { "Retry-After": String(retryAfter) });
  }
}

/**
 * The room's conversation as loaded from D1 the first time (participants, their standing, the
 * messages D1 already had), kept in the room's KV storage; the participants' standing is read again
 * when it is older than USER_STATE_MAX_AGE_MS.
 */
export async function currentRoom(
  kv: SyncKvStorage,
  db: Db,
  sql: SqlStorage,
  cached: RoomInfo | null,
  conversationId: string,
): Promise<RoomInfo> {
  let info = cached ?? kv.get<RoomInfo>("room") ?? null;
  if (!info) {
    info = await loadRoom(db, sql, conversationId);
    if (!info) throw new AppError("NOT_FOUND", CHAT_REFUSALS.conversationNotFound);
    kv.put("room", info);
  } else if (Date.now() - info.usersLoadedAt > USER_STATE_MAX_AGE_MS) {
    info = { ...info, users: await loadParticipants(db, [info.buyerId, info.sellerId]), usersLoadedAt: Date.now() };
    kv.put("room", info);
  }
  return info;
}

/** A message's text replaced (a moderator's removal, a withdrawn message): the event that shows it, or null when the room lacks it. */
export function removeContent(sql: SqlStorage, id: string, content: string): MessageRemovedEvent | null {
  const row = replaceContent(sql, id, content);
  return row ? { id: row.id, seq: row.seq, content: row.content } : null;
}
