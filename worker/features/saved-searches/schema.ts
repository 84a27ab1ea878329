// The D1 tables of the saved-searches feature. The whole schema: worker/db/tables.ts.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { SAVED_SEARCH_ALERTS } from "../../../domain/saved-searches";
import { createdAt, updatedAt } from "../../db/columns";
import { users } from "../auth/schema";
import { listings } from "../listings/schema";

/**
 * Saved searches ("Lagrede søk", docs/decisions/040–043). `query` is the canonical search query
 * (domain/searchUrl.ts); `filters_key` is the same without the sort order, unique per user. Matching
 * considers listings whose search rowid (`listing_search_map.rid`) is above `since_rid` (created
 * after the search was saved); "new since the last visit" are matches above `seen_rid`.
 */
export const savedSearches = sqliteTable(
  "saved_searches",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    query: text("query").notNull(),
    filtersKey: text("filters_key").notNull(),
    alert: text("alert", { enum: SAVED_SEARCH_ALERTS }).notNull().default("immediate"),
    sinceRid: integer("since_rid").notNull().default(0),
    seenRid: integer("seen_rid").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("saved_searches_user_filters_unique").on(t.userId, t.filtersKey),
    index("saved_searches_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * The matching index: each saved search under the keys of its most selective facet (`c:lego`,
 * `p:0150`, `t:lego duplo`, …); a new listing looks up the keys it has (decision 040).
 */
export const savedSearchKeys = sqliteTable(
  "saved_search_keys",
  {
    key: text("key").notNull(),
    savedSearchId: text("saved_search_id")
      .notNull()
      .references(() => savedSearches.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.key, t.savedSearchId] }), index("saved_search_keys_search_idx").on(t.savedSearchId)],
);

/**
 * One row per saved search and matching listing: a listing matches a saved search once. The alert
 * state is `pending` (an e-mail is due), `done` (sent, or dropped because the listing went away) or
 * `off` (the search had no alert when it matched). `user_id` is the search's owner (for the digest).
 */
export const savedSearchMatches = sqliteTable(
  "saved_search_matches",
  {
    savedSearchId: text("saved_search_id")
      .notNull()
      .references(() => savedSearches.id, { onDelete: "cascade" }),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    listingRid: integer("listing_rid").notNull(),
    userId: text("user_id").notNull(),
    alertState: text("alert_state", { enum: ["pending", "done", "off"] }).notNull(),
    matchedAt: text("matched_at").notNull(),
    alertedAt: text("alerted_at"),
  },
  (t) => [
    primaryKey({ columns: [t.savedSearchId, t.listingId] }),
    index("saved_search_matches_search_rid_idx").on(t.savedSearchId, t.listingRid),
    index("saved_search_matches_state_listing_idx").on(t.alertState, t.listingId),
    index("saved_search_matches_user_state_idx").on(t.userId, t.alertState),
    index("saved_search_matches_matched_idx").on(t.matchedAt),
  ],
);

/** One daily digest per user and Oslo day; `claim` tells the cron run that won it. */
export const savedSearchDigests = sqliteTable(
  "saved_search_digests",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: text("day").notNull(), // YYYY-MM-DD, Oslo
    claim: text("claim").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index("saved_search_digests_day_idx").on(t.day, t.claim)],
);

/** How far the hourly cron has matched listings (search rowid); one row, id 1. */
export const savedSearchCursor = sqliteTable("saved_search_cursor", {
  id: integer("id").primaryKey(),
  rid: integer("rid").notNull(),
  updatedAt: updatedAt(),
});
