// The D1 tables of the favourites feature. The whole schema: worker/db/tables.ts.
import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../db/columns";
import { users } from "../auth/schema";
import { listings } from "../listings/schema";

export const favourites = sqliteTable(
  "favourites",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    listingId: text("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.listingId] }), index("favourites_listing_idx").on(t.listingId)],
);
