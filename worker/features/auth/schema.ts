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
    /** MSISDN as Vipps gives it (4791234567); only from Vipps Login, never typed in. */
    phone: text("phone"),
    /** When Vipps last vouched for `phone` ("Verifisert med Vipps"); null without a linked Vipps login. */
    phoneVerifiedAt: text("phone_verified_at"),
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
 * Vipps Login (docs/decisions/128-vipps-login.md): the Vipps `sub` (one per person and sales unit)
 * that signs in to an account. One Vipps login per account, one account per Vipps login.
 */
export const vippsIdentities = sqliteTable(
  "vipps_identities",
  {
    sub: text("sub").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastLoginAt: text("last_login_at"),
  },
  (t) => [uniqueIndex("vipps_identities_user_unique").on(t.userId)],
);

/**
 * One started Vipps Login (an OpenID Connect authorization request), kept until its callback: the
 * `state` (hashed, the key), the browser that started it (a hash of its cookie), the `nonce` the ID
 * token must carry and the PKCE verifier. Used once, then marked.
 */
export const vippsLoginStates = sqliteTable(
  "vipps_login_states",
  {
    stateHash: text("state_hash").primaryKey(),
    browserHash: text("browser_hash").notNull(),
    nonce: text("nonce").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    /** "login" from /auth; "link" from the profile of a signed-in user (`user_id`). */
    purpose: text("purpose", { enum: ["login", "link"] }).notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    returnPath: text("return_path"),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("vipps_login_states_expires_idx").on(t.expiresAt)],
);

/**
 * A Vipps login whose verified e-mail belongs to an existing account: it waits here until the person
 * proves the account (its password, or the link mailed to its address), then the two are linked.
 */
export const vippsLinkRequests = sqliteTable(
  "vipps_link_requests",
  {
    id: text("id").primaryKey(),
    /** The browser's cookie for this request, hashed. */
    tokenHash: text("token_hash").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sub: text("sub").notNull(),
    phone: text("phone"),
    /** The mailed link's code, hashed; null until "Send meg en lenke". */
    mailCodeHash: text("mail_code_hash"),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("vipps_link_requests_token_unique").on(t.tokenHash),
    uniqueIndex("vipps_link_requests_mail_code_unique").on(t.mailCodeHash),
    index("vipps_link_requests_user_idx").on(t.userId),
    index("vipps_link_requests_expires_idx").on(t.expiresAt),
  ],
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
