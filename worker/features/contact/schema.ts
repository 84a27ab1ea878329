// The D1 tables of the contact feature. The whole schema: worker/db/tables.ts.
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../db/columns";
import { users } from "../auth/schema";

export const contactMessages = sqliteTable(
  "contact_messages",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    handledAt: text("handled_at"),
    createdAt: createdAt(),
  },
  (t) => [index("contact_messages_created_idx").on(t.createdAt)],
);
