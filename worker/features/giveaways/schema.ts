// The D1 tables of the giveaways feature. The whole schema: worker/db/tables.ts.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { GIVEAWAY_ENTRY_STATUSES } from "../../../domain/giveaways";
import { createdAt, updatedAt } from "../../db/columns";
import { users } from "../auth/schema";
import { conversations } from "../chat/schema";
import { listings } from "../listings/schema";

/**
 * The give-away queue (docs/decisions/075-giveaway-queue.md): one row per person and free listing,
 * ordered by `created_at` (when they joined; joining again after leaving starts at the back). At
 * most one entry per listing is reserved. `giver_id` is the listing's owner when the person joined.
 * `change_id` works as in trade_offers (decision 046): a move's later statements follow only the
 * request whose first statement won. `unseen` is 1 while the taker has not seen the giver's last
 * move on their entry (reserved, released, given to someone else): the in-app notice.
 */
export const giveawayQueue = sqliteTable(
  "giveaway_queue",
  {
    id: text("id").primaryKey(),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id),
    giverId: text("giver_id")
      .notNull()
      .references(() => users.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    message: text("message").notNull(),
    status: text("status", { enum: GIVEAWAY_ENTRY_STATUSES }).notNull().default("waiting"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    reservedAt: text("reserved_at"),
    conversationId: text("conversation_id").references(() => conversations.id),
    changeId: text("change_id"),
    unseen: integer("unseen", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("giveaway_queue_listing_user_unique").on(t.listingId, t.userId),
    uniqueIndex("giveaway_queue_one_reserved_unique").on(t.listingId).where(sql`status = 'reserved'`),
    index("giveaway_queue_listing_order_idx").on(t.listingId, t.status, t.createdAt),
    index("giveaway_queue_user_idx").on(t.userId, t.updatedAt),
  ],
);

/**
 * A completed give-away: who gave which listing to whom and when (one per listing). The deal that
 * reviews can refer to, beside completed sales and trades.
 */
export const giveaways = sqliteTable(
  "giveaways",
  {
    id: text("id").primaryKey(),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id),
    giverId: text("giver_id")
      .notNull()
      .references(() => users.id),
    takerId: text("taker_id")
      .notNull()
      .references(() => users.id),
    entryId: text("entry_id")
      .notNull()
      .references(() => giveawayQueue.id),
    conversationId: text("conversation_id").references(() => conversations.id),
    givenAt: text("given_at").notNull(),
  },
  (t) => [
    uniqueIndex("giveaways_listing_unique").on(t.listingId),
    index("giveaways_giver_idx").on(t.giverId, t.givenAt),
    index("giveaways_taker_idx").on(t.takerId, t.givenAt),
  ],
);
