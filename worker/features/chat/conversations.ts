// Conversations in D1: start or reopen the one conversation per (listing, buyer, seller), the chat
// header, the inbox and the unread count. Only participants ever see a conversation; to anyone else
// it does not exist (404).
import { ANONYMOUS_NAME, DELETED_USER_NAME, type ConversationDetail, type ConversationSummary, CHAT_REFUSALS } from "../../../domain/chat";
import { isPublicListing } from "../../../domain/listing-lifecycle";
import type { ListingStatus } from "../../../domain/taxonomy";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { nowIso } from "../../lib/crypto";
import { LISTING_REFUSALS } from "../../../domain/listings";
import { UUID_RE } from "../../lib/uuid";

export const INBOX_PAGE_SIZE = 50;

export interface Participants {
  id: string;
  buyer_id: string;
  seller_id: string;
  listing_id: string;
}

/** The conversation if `userId` takes part in it; otherwise null (callers answer 404). */
export async function participantsFor(db: Db, conversationId: string, userId: string): Promise<Participants | null> {
  if (!UUID_RE.test(conversationId)) return null;
  return db
    .prepare("SELECT id, buyer_id, seller_id, listing_id FROM conversations WHERE id = ?1 AND ?2 IN (buyer_id, seller_id)")
    .bind(conversationId, userId)
    .first<Participants>();
}

export async function requireParticipant(db: Db, conversationId: string, userId: string): Promise<Participants> {
  const conv = await participantsFor(db, conversationId, userId);
  if (!conv) throw new AppError("NOT_FOUND", CHAT_REFUSALS.conversationNotFound);
  return conv;
}

/**
 * "Send melding" on a listing: the one conversation for (listing, buyer, seller), created on first
 * use. Two starts at the same moment meet at the unique index: INSERT OR IGNORE, then read it back,
 * so both get the same conversation.
 */
export async function startConversation(db: Db, listingId: string, buyerId: string): Promise<{ id: string; created: boolean }> {
  const listing = await db
    .prepare("SELECT id, user_id, status, is_hidden FROM listings WHERE id = ?1")
    .bind(listingId)
    .first<{ id: string; user_id: string; status: ListingStatus; is_hidden: number }>();
  if (!listing) throw new AppError("NOT_FOUND", LISTING_REFUSALS.notFound);
  if (listing.user_id === buyerId) throw new AppError("FORBIDDEN", CHAT_REFUSALS.messageToSelf);
  const existing = await findConversation(db, listingId, buyerId, listing.user_id);
  if (existing) return { id: existing, created: false };
  // A new conversation only about a listing the buyer can see (docs/product.md "Listings").
  if (!isPublicListing({ status: listing.status, is_hidden: !!listing.is_hidden })) {
    throw new AppError("NOT_FOUND", LISTING_REFUSALS.notFound);
  }
  const seller = await db
    .prepare("SELECT deleted_at FROM users WHERE id = ?1")
    .bind(listing.user_id)
    .first<{ deleted_at: string | null }>();
  if (!seller || seller.deleted_at) throw new AppError("NOT_FOUND", LISTING_REFUSALS.notFound);
  return openConversation(db, listingId, buyerId, listing.user_id);
}

/**
 * The conversation about a completed sale (payments): found or created whatever state the listing
 * is in now (the sale has just marked it sold, so "Send melding"'s visibility rule would refuse a
 * new one). The payment itself shows that these two deal with each other about this listing.
 */
export async function conversationForSale(db: Db, listingId: string, buyerId: string, sellerId: string): Promise<string> {
  const existing = await findConversation(db, listingId, buyerId, sellerId);
  return existing ?? (await openConversation(db, listingId, buyerId, sellerId)).id;
}

/** Create the conversation, or read back the one a concurrent start created first. */
async function openConversation(db: Db, listingId: string, buyerId: string, sellerId: string): Promise<{ id: string; created: boolean }> {
  const now = nowIso();
  const inserted = await db
    .prepare(
      `INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, 0, ?5, ?5)
       ON CONFLICT (listing_id, buyer_id, seller_id) DO NOTHING RETURNING id`,
    )
    .bind(crypto.randomUUID(), listingId, buyerId, sellerId, now)
    .first<{ id: string }>();
  if (inserted) return { id: inserted.id, created: true };
  const winner = await findConversation(db, listingId, buyerId, sellerId);
  if (!winner) throw new Error("conversation insert ignored but no row found");
  return { id: winner, created: false };
}

async function findConversation(db: Db, listingId: string, buyerId: string, sellerId: string): Promise<string | null> {
  const row = await db
    .prepare("SELECT id FROM conversations WHERE listing_id = ?1 AND buyer_id = ?2 AND seller_id = ?3")
    .bind(listingId, buyerId, sellerId)
    .first<{ id: string }>();
  return row?.id ?? null;
}

interface DetailRow extends Pick<ConversationDetail, "id" | "listing_id" | "buyer_id" | "seller_id" | "last_seq" | "updated_at"> {
  title: string;
  price: number | null;
  is_free: number;
  images: string;
  listing_status: string;
  is_hidden: number;
  other_id: string;
  other_name: string | null;
  other_deleted_at: string | null;
}

// ?1 is the viewer. The listing and the other party are joined for the header and the inbox.
const DETAIL_SELECT = `
  SELECT c.id, c.listing_id, c.buyer_id, c.seller_id, c.last_seq, c.updated_at,
         l.title, l.price, l.is_free, l.images, l.status AS listing_status, l.is_hidden,
         o.id AS other_id, p.display_name AS other_name, o.deleted_at AS other_deleted_at`;
const DETAIL_FROM = `
  FROM conversations c
  JOIN listings l ON l.id = c.listing_id
  JOIN users o ON o.id = CASE WHEN c.buyer_id = ?1 THEN c.seller_id ELSE c.buyer_id END
  LEFT JOIN profiles p ON p.user_id = o.id`;

function otherName(row: Pick<DetailRow, "other_name" | "other_deleted_at">): string {
  if (row.other_deleted_at) return DELETED_USER_NAME;
  return row.other_name?.trim() || ANONYMOUS_NAME;
}

function toDetail(row: DetailRow): ConversationDetail {
  const photosServed = row.listing_status !== "deleted" && !row.is_hidden;
  let images: string[] = [];
  try {
    images = photosServed ? (JSON.parse(row.images) as string[]) : [];
  } catch {
    images = [];
  }
  return {
    id: row.id,
    listing_id: row.listing_id,
    buyer_id: row.buyer_id,
    seller_id: row.seller_id,
    last_seq: row.last_seq,
    updated_at: row.updated_at,
    listing: { id: row.listing_id, title: row.title, price: row.price, is_free: !!row.is_free, images, status: row.listing_status },
    other_user: { id: row.other_id, display_name: otherName(row), deleted: !!row.other_deleted_at },
  };
}

/** The chat header: listing, price, the other party. */
export async function getConversation(db: Db, conversationId: string, viewerId: string): Promise<ConversationDetail> {
  if (!UUID_RE.test(conversationId)) throw new AppError("NOT_FOUND", CHAT_REFUSALS.conversationNotFound);
  const row = await db
    .prepare(`${DETAIL_SELECT} ${DETAIL_FROM} WHERE c.id = ?2 AND ?1 IN (c.buyer_id, c.seller_id)`)
    .bind(viewerId, conversationId)
    .first<DetailRow>();
  if (!row) throw new AppError("NOT_FOUND", CHAT_REFUSALS.conversationNotFound);
  return toDetail(row);
}

/**
 * The inbox: the viewer's conversations with at least one message, newest activity first, each with
 * its last message and the viewer's unread count.
 */
export async function listConversations(db: Db, viewerId: string, offset = 0): Promise<ConversationSummary[]> {
  const { results } = await db
    .prepare(
      `${DETAIL_SELECT},
         m.content AS last_content, m.created_at AS last_created_at, m.sender_id AS last_sender_id,
         (SELECT COUNT(*) FROM messages u WHERE u.conversation_id = c.id AND u.sender_id <> ?1 AND u.read_at IS NULL AND (u.recipient_id IS NULL OR u.recipient_id = ?1)) AS unread_count
       ${DETAIL_FROM}
       JOIN messages m ON m.id = (SELECT v.id FROM messages v WHERE v.conversation_id = c.id AND (v.recipient_id IS NULL OR v.recipient_id = ?1) ORDER BY v.seq DESC LIMIT 1)
       WHERE (c.buyer_id = ?1 OR c.seller_id = ?1) AND c.last_seq > 0
       ORDER BY c.updated_at DESC, c.id
       LIMIT ?2 OFFSET ?3`,
    )
    .bind(viewerId, INBOX_PAGE_SIZE, offset)
    .all<
      DetailRow & { last_content: string | null; last_created_at: string | null; last_sender_id: string | null; unread_count: number }
    >();
  return results.map((row) => ({
    ...toDetail(row),
    last_message:
      row.last_content !== null && row.last_created_at && row.last_sender_id
        ? { content: row.last_content, created_at: row.last_created_at, sender_id: row.last_sender_id }
        : null,
    unread_count: row.unread_count,
  }));
}

/** Unread messages for the header badge: sent by anyone else, in any of the user's conversations. */
export async function unreadCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .prepare(
      `SELECT COUNT(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
       WHERE (c.buyer_id = ?1 OR c.seller_id = ?1) AND m.sender_id <> ?1 AND m.read_at IS NULL AND (m.recipient_id IS NULL OR m.recipient_id = ?1)`,
    )
    .bind(userId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The conversation the notification test writes into: the user's most recently active one. */
export async function latestConversationId(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .prepare("SELECT id FROM conversations WHERE buyer_id = ?1 OR seller_id = ?1 ORDER BY updated_at DESC LIMIT 1")
    .bind(userId)
    .first<{ id: string }>();
  return row?.id ?? null;
}

/** Every conversation a user takes part in (account deletion closes their live connections). */
export async function conversationIdsOf(db: Db, userId: string): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT id FROM conversations WHERE buyer_id = ?1 OR seller_id = ?1")
    .bind(userId)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}
