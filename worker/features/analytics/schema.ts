// The D1 tables of the analytics feature. The whole schema: worker/db/tables.ts.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../db/columns";
import { users } from "../auth/schema";
import { listings } from "../listings/schema";

/** Analytics sessions (docs/product.md "Data"); raw events go to R2 through the queue, not to D1. */
export const analyticsSessions = sqliteTable(
  "analytics_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    userAgent: text("user_agent"),
    referrer: text("referrer"),
    entryPage: text("entry_page"),
    deviceType: text("device_type", { enum: ["desktop", "mobile", "tablet"] }),
    browser: text("browser"),
    os: text("os"),
    createdAt: createdAt(),
  },
  (t) => [index("analytics_sessions_created_idx").on(t.createdAt)],
);

/** Daily rollups per listing, upserted by the queue consumer; seller statistics read these. */
export const listingStatsDaily = sqliteTable(
  "listing_stats_daily",
  {
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    day: text("day").notNull(), // YYYY-MM-DD, Oslo
    views: integer("views").notNull().default(0),
    uniqueSessions: integer("unique_sessions").notNull().default(0),
    totalViewMs: integer("total_view_ms").notNull().default(0),
    searchAppearances: integer("search_appearances").notNull().default(0),
    messageClicks: integer("message_clicks").notNull().default(0),
    tradeOfferClicks: integer("trade_offer_clicks").notNull().default(0),
    favourites: integer("favourites").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.day] })],
);

/**
 * Queue messages whose analytics are already counted (idempotency on the Queues message id): a
 * redelivered message is skipped. Purged by the cron after two days; a redelivery comes within
 * minutes (retries with backoff), not days.
 */
export const analyticsProcessedMessages = sqliteTable(
  "analytics_processed_messages",
  {
    messageId: text("message_id").primaryKey(),
    processedAt: text("processed_at").notNull(),
  },
  (t) => [index("analytics_processed_messages_at_idx").on(t.processedAt)],
);

/**
 * The working set behind the daily rollups: one row per visit to a listing page (its reports at
 * the start, on scrolling, after 30 s and on leaving update the same row, keeping the largest
 * duration and depth). Rollups are recomputed from it, so a report counted twice changes nothing.
 * Rows older than two days are purged by the cron; the rollups keep the figures.
 */
export const analyticsListingViews = sqliteTable(
  "analytics_listing_views",
  {
    viewId: text("view_id").primaryKey(),
    listingId: text("listing_id").notNull(),
    day: text("day").notNull(), // YYYY-MM-DD, Oslo, when the view started (server time)
    sessionId: text("session_id").notNull(),
    durationMs: integer("duration_ms").notNull().default(0),
    scrollDepth: integer("scroll_depth").notNull().default(0),
  },
  (t) => [index("analytics_listing_views_listing_day_idx").on(t.listingId, t.day), index("analytics_listing_views_day_idx").on(t.day)],
);
