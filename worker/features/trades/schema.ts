// The D1 tables of the trades feature. The whole schema: worker/db/tables.ts.
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { TRADE_OFFER_STATUSES } from "../../../domain/trades";
import { createdAt, updatedAt } from "../../db/columns";
import { users } from "../auth/schema";
import { conversations } from "../chat/schema";
import { listings } from "../listings/schema";

export const tradeOffers = sqliteTable(
  "trade_offers",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    fromUserId: text("from_user_id")
      .notNull()
      .references(() => users.id),
    toUserId: text("to_user_id")
      .notNull()
      .references(() => users.id),
    offeredListingId: text("offered_listing_id")
      .notNull()
      .references(() => listings.id),
    requestedListingId: text("requested_listing_id")
      .notNull()
      .references(() => listings.id),
    message: text("message"),
    status: text("status", { enum: TRADE_OFFER_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    expiresAt: text("expires_at").notNull(),
    /**
     * The id of the request that made the last status change. A change is one D1 batch whose first
     * statement moves the offer and stamps this request's fresh id; the batch's later statements
     * apply only where the offer carries that id, so they follow exactly the request that won
     * (decision 046).
     */
    changeId: text("change_id"),
  },
  (t) => [
    index("trade_offers_conversation_idx").on(t.conversationId, t.createdAt),
    index("trade_offers_from_idx").on(t.fromUserId, t.createdAt),
    index("trade_offers_to_idx").on(t.toUserId, t.createdAt),
    index("trade_offers_offered_idx").on(t.offeredListingId, t.status),
    index("trade_offers_requested_idx").on(t.requestedListingId, t.status),
  ],
);

export const trades = sqliteTable(
  "trades",
  {
    id: text("id").primaryKey(),
    tradeOfferId: text("trade_offer_id")
      .notNull()
      .references(() => tradeOffers.id),
    user1Id: text("user1_id")
      .notNull()
      .references(() => users.id),
    user2Id: text("user2_id")
      .notNull()
      .references(() => users.id),
    user1ListingId: text("user1_listing_id")
      .notNull()
      .references(() => listings.id),
    user2ListingId: text("user2_listing_id")
      .notNull()
      .references(() => listings.id),
    /** pending from the accept until both parties confirm the handover (completed) or either cancels. */
    status: text("status", { enum: ["pending", "completed", "cancelled"] })
      .notNull()
      .default("completed"),
    createdAt: createdAt(),
    completedAt: text("completed_at"),
    /** When each party confirmed the handover (user1 sent the offer, user2 received it). */
    user1ConfirmedAt: text("user1_confirmed_at"),
    user2ConfirmedAt: text("user2_confirmed_at"),
  },
  (t) => [
    uniqueIndex("trades_offer_unique").on(t.tradeOfferId),
    index("trades_user1_idx").on(t.user1Id, t.createdAt),
    index("trades_user2_idx").on(t.user2Id, t.createdAt),
  ],
);
