// The D1 tables of the reviews feature. The whole schema: worker/db/tables.ts.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DEAL_KINDS } from "../../../domain/reviews";
import { createdAt } from "../../db/columns";
import { users } from "../auth/schema";

/**
 * A review of one party of a completed deal by the other (decision 070). A deal is
 * (deal_kind, deal_id): a sale's `orders.id`, a trade's `trades.id`, a give-away's
 * id. One review per reviewer and deal (unique index: of two submits at once exactly one lands).
 * `window_closes_at` is the deal's completion plus 14 days, copied so the blind-visibility rule
 * (the other party has written, or the window has closed) needs no join to the deal tables.
 */
export const reviews = sqliteTable(
  "reviews",
  {
    id: text("id").primaryKey(),
    dealKind: text("deal_kind", { enum: DEAL_KINDS }).notNull(),
    dealId: text("deal_id").notNull(),
    reviewerId: text("reviewer_id")
      .notNull()
      .references(() => users.id),
    revieweeId: text("reviewee_id")
      .notNull()
      .references(() => users.id),
    rating: integer("rating").notNull(),
    text: text("text"),
    windowClosesAt: text("window_closes_at").notNull(),
    /** Hidden by a moderator: shown to nobody and left out of the average. */
    isHidden: integer("is_hidden", { mode: "boolean" }).notNull().default(false),
    hiddenReason: text("hidden_reason"),
    hiddenAt: text("hidden_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("reviews_deal_reviewer_unique").on(t.dealKind, t.dealId, t.reviewerId),
    index("reviews_reviewee_idx").on(t.revieweeId, t.createdAt),
  ],
);
