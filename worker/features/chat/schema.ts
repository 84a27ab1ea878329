// The D1 tables of the chat feature. The whole schema: worker/db/tables.ts.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "../../db/columns";
import { users } from "../auth/schema";
import { listings } from "../listings/schema";

export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id),
    buyerId: text("buyer_id")
      .notNull()
      .references(() => users.id),
    sellerId: text("seller_id")
      .notNull()
      .references(() => users.id),
    /** Highest message sequence issued in this conversation. */
    lastSeq: integer("last_seq").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("conversations_listing_buyer_seller_unique").on(t.listingId, t.buyerId, t.sellerId),
    index("conversations_buyer_idx").on(t.buyerId, t.updatedAt),
    index("conversations_seller_idx").on(t.sellerId, t.updatedAt),
  ],
);

export const messages = sqliteTable(
  "messages",
  {
    /** Client-generated UUID: a retried send is stored once (insert-or-ignore). */
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    senderId: text("sender_id")
      .notNull()
      .references(() => users.id),
    seq: integer("seq").notNull(),
    content: text("content").notNull(),
    /**
     * Null: both participants see it. Set: only this participant does (the notification test's
     * message, docs/decisions/090-phone-findings.md).
     */
    recipientId: text("recipient_id").references(() => users.id),
    readAt: text("read_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("messages_conversation_seq_unique").on(t.conversationId, t.seq),
    index("messages_unread_idx").on(t.conversationId, t.senderId, t.readAt),
  ],
);
