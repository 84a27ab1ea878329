// The D1 tables of the newsletter feature. The whole schema: worker/db/tables.ts.
import { sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../db/columns";

export const newsletterSubscribers = sqliteTable(
  "newsletter_subscribers",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name"),
    source: text("source").notNull().default("website"),
    metadata: text("metadata", { mode: "json" }).$type<{ signup_page?: string; variant?: string }>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("newsletter_email_unique").on(t.email)],
);
