// The D1 tables of the account feature. The whole schema: worker/db/tables.ts.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ROLES } from "../../../domain/roles";
import { createdAt, updatedAt } from "../../db/columns";
import { users } from "../auth/schema";

export const profiles = sqliteTable("profiles", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  displayName: text("display_name"),
  postalCode: text("postal_code"),
  /** Street and number ("Storgata 1"): the sender's address on a parcel the seller sends. */
  streetAddress: text("street_address"),
  role: text("role", { enum: ROLES }).notNull().default("user"),
  stripeAccountId: text("stripe_account_id"),
  /** Cached from the connected account (retrieve and account.updated): may it take card payments, get payouts. */
  stripeChargesEnabled: integer("stripe_charges_enabled", { mode: "boolean" }).notNull().default(false),
  stripePayoutsEnabled: integer("stripe_payouts_enabled", { mode: "boolean" }).notNull().default(false),
  stripeDetailsSubmitted: integer("stripe_details_submitted", { mode: "boolean" }).notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
