// The D1 tables of the auth feature. The whole schema: worker/db/tables.ts.
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "../../db/columns";

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    emailConfirmedAt: text("email_confirmed_at"),
    deletedAt: text("deleted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

/**
 * Rotating refresh tokens (hashed); a family is one sign-in. Reuse of a rotated token revokes the
 * family. `expires_at` slides with every rotation, `family_expires_at` (the sign-in plus the
 * absolute lifetime) is copied unchanged to every successor.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    familyId: text("family_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    familyExpiresAt: text("family_expires_at"),
    rotatedAt: text("rotated_at"),
    revokedAt: text("revoked_at"),
    userAgent: text("user_agent"),
    /** Where the request that made this token came from, as the platform reports it (city, ISO country), if it does. */
    city: text("city"),
    country: text("country"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("sessions_token_hash_unique").on(t.tokenHash),
    index("sessions_user_idx").on(t.userId),
    index("sessions_family_idx").on(t.familyId),
    index("sessions_expires_idx").on(t.expiresAt),
  ],
);

/** One-time e-mail confirmation codes (hashed). */
export const emailCodes = sqliteTable(
  "email_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    purpose: text("purpose", { enum: ["signup"] })
      .notNull()
      .default("signup"),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("email_codes_hash_unique").on(t.codeHash), index("email_codes_user_idx").on(t.userId)],
);

/**
 * "Lag nytt passord" links (hashed tokens; docs/decisions/125-account-recovery.md). A link is
 * single-use (`used_at`) and dies when a newer one is asked for, or when the password changes any
 * other way (`replaced_at`). `use_nonce` marks the request that used it, so the statements of the
 * same batch act only for the one request that won the token.
 */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    replacedAt: text("replaced_at"),
    useNonce: text("use_nonce"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("password_resets_token_unique").on(t.tokenHash), index("password_resets_user_idx").on(t.userId)],
);

/**
 * "Endre e-post": the account's address changes only when the link mailed to the new address is
 * opened (`confirm_hash`); the old address gets a link that stops it (`stop_hash`), before or after
 * the confirmation, and ends every session.
 */
export const emailChanges = sqliteTable(
  "email_changes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    oldEmail: text("old_email").notNull(),
    newEmail: text("new_email").notNull(),
    confirmHash: text("confirm_hash").notNull(),
    stopHash: text("stop_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    stopExpiresAt: text("stop_expires_at").notNull(),
    confirmedAt: text("confirmed_at"),
    stoppedAt: text("stopped_at"),
    replacedAt: text("replaced_at"),
    useNonce: text("use_nonce"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("email_changes_confirm_unique").on(t.confirmHash),
    uniqueIndex("email_changes_stop_unique").on(t.stopHash),
    index("email_changes_user_idx").on(t.userId),
  ],
);
