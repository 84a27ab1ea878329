// The D1 tables of the mail feature. The whole schema: worker/db/tables.ts.
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "../../db/columns";

/** Local-mode e-mail outbox shown at /dev/mail (never used in production). */
export const devOutbox = sqliteTable(
  "dev_outbox",
  {
    id: text("id").primaryKey(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    createdAt: createdAt(),
  },
  (t) => [index("dev_outbox_created_idx").on(t.createdAt)],
);
