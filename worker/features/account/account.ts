import { afterSellerDeleted, refundHeldOrdersOf } from "../payments/orders";
import { deleteProblemPhotosOf, problemPhotoPrefix } from "../payments/problem-photos";
import { WRONG_PASSWORD_MESSAGE } from "../../../domain/schemas/account";
import type { Actor, Bindings } from "../../env";
import { RATE_RULES } from "../../../domain/rate-limits";
import { enforceRateLimits } from "../../lib/rate-limit";
import { pendingEmailChange } from "../auth/email-change";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { nowIso } from "../../lib/crypto";
import { DUMMY_PASSWORD_HASH, verifyPassword } from "../auth/password";
import { forgetVippsOf } from "../auth/vipps-login";
import { exportReviews } from "../reviews/reviews";
import { exportSavedSearches } from "../saved-searches/saved-searches";
import { endSessionSockets, participantChanged } from "../chat/live";
import { callOffTradesOf } from "../trades/offers";
import { leaveQueuesOf } from "../giveaways/giveaways";
import { ACCOUNT_REFUSALS } from "../../../domain/account";

export interface Profile {
  user_id: string;
  email: string;
  display_name: string | null;
  postal_code: string | null;
  /** "Gateadresse": the owner's only (the sender's address on a parcel); no public answer carries it. */
  street_address: string | null;
  role: "user" | "moderator" | "admin";
  stripe_account_id: string | null;
  created_at: string;
  /** A new address waiting for its confirmation link ("Endre e-post"), or null. */
  pending_email: string | null;
}

export async function getProfile(db: Db, userId: string): Promise<Profile> {
  const row = await db
    .prepare(
      `SELECT u.id AS user_id, u.email, p.display_name, p.postal_code, p.street_address, COALESCE(p.role, 'user') AS role,
              p.stripe_account_id, COALESCE(p.created_at, u.created_at) AS created_at
       FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = ?1 AND u.deleted_at IS NULL`,
    )
    .bind(userId)
    .first<Omit<Profile, "pending_email">>();
  if (!row) throw new AppError("NOT_FOUND", ACCOUNT_REFUSALS.profileNotFound);
  return { ...row, pending_email: await pendingEmailChange(db, userId) };
}

export async function updateProfile(
  db: Db,
  userId: string,
  input: { display_name: string | null; postal_code: string | null; street_address?: string | null },
): Promise<Profile> {
  // An absent street address keeps the stored one (?6 = 0); null removes it.
  const setsStreet = input.street_address !== undefined;
  await db
    .prepare(
      `INSERT INTO profiles (user_id, display_name, postal_code, street_address, updated_at) VALUES (?1, ?2, ?3, ?5, ?4)
       ON CONFLICT (user_id) DO UPDATE SET display_name = ?2, postal_code = ?3,
         street_address = CASE WHEN ?6 THEN ?5 ELSE street_address END, updated_at = ?4`,
    )
    .bind(userId, input.display_name, input.postal_code, nowIso(), input.street_address ?? null, setsStreet ? 1 : 0)
    .run();
  return getProfile(db, userId);
}

async function all<T = Record<string, unknown>>(db: Db, sql: string, ...params: unknown[]): Promise<T[]> {
  return (
    await db
      .prepare(sql)
      .bind(...params)
      .all<T>()
  ).results;
}

/**
 * Deleting the account and downloading the data export ask for the password again
 * (docs/decisions/019-password-confirmation.md), so a session left open on a shared computer is
 * not enough to take everything. A wrong password is 400 (not 401: the session itself is fine).
 */
export async function confirmPassword(db: Db, userId: string, password: string, field = "password"): Promise<void> {
  const row = await db
    .prepare("SELECT password_hash FROM users WHERE id = ?1 AND deleted_at IS NULL")
    .bind(userId)
    .first<{ password_hash: string }>();
  const ok = await verifyPassword(password, row?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!row || !ok) throw new AppError("INVALID_CREDENTIALS", WRONG_PASSWORD_MESSAGE, { [field]: WRONG_PASSWORD_MESSAGE });
}

/**
 * The password again (delete, export, "Endre passord", "Endre e-post"), limited like sign-in
 * guesses: per account first, then per address. `field`: where the form shows a wrong password.
 */
export async function reauthenticate(db: Db, actor: Actor, address: string, password: string, field = "password"): Promise<void> {
  await enforceRateLimits(db, [
    [RATE_RULES.reauthAccount, actor.id],
    [RATE_RULES.reauthAddress, address],
  ]);
  await confirmPassword(db, actor.id, password, field);
}

/** Everything stored about the user, as promised on the privacy page (GDPR access/portability). */
export async function exportUserData(db: Db, userId: string): Promise<Record<string, unknown>> {
  const profile = await getProfile(db, userId);
  const account = await db
    .prepare("SELECT id, email, email_confirmed_at, phone, phone_verified_at, created_at, updated_at FROM users WHERE id = ?1")
    .bind(userId)
    .first();
  const [
    listings,
    favourites,
    conversations,
    messages,
    tradeOffers,
    trades,
    payments,
    orders,
    reports,
    newsletter,
    contact,
    sessions,
    moderation,
  ] = await Promise.all([
    all(db, "SELECT * FROM listings WHERE user_id = ?1 ORDER BY created_at", userId),
    all(db, "SELECT listing_id, created_at FROM favourites WHERE user_id = ?1 ORDER BY created_at", userId),
    all(db, "SELECT * FROM conversations WHERE buyer_id = ?1 OR seller_id = ?1 ORDER BY created_at", userId),
    all(
      db,
      `SELECT m.id, m.conversation_id, m.sender_id, m.sender_id = ?1 AS sent_by_me, m.seq, m.content, m.read_at, m.created_at FROM messages m
         JOIN conversations c ON c.id = m.conversation_id WHERE (c.buyer_id = ?1 OR c.seller_id = ?1) AND (m.recipient_id IS NULL OR m.recipient_id = ?1)
         ORDER BY m.conversation_id, m.seq`,
      userId,
    ),
    all(db, "SELECT * FROM trade_offers WHERE from_user_id = ?1 OR to_user_id = ?1 ORDER BY created_at", userId),
    all(db, "SELECT * FROM trades WHERE user1_id = ?1 OR user2_id = ?1 ORDER BY created_at", userId),
    all(db, "SELECT * FROM payments WHERE buyer_id = ?1 OR seller_id = ?1 ORDER BY created_at", userId),
    all(
      db,
      "SELECT o.* FROM orders o JOIN payments p ON p.id = o.payment_id WHERE p.buyer_id = ?1 OR p.seller_id = ?1 ORDER BY o.paid_at",
      userId,
    ),
    all(
      db,
      "SELECT id, target_type, target_id, reason, description, priority, status, created_at FROM reports WHERE reporter_id = ?1",
      userId,
    ),
    all(db, "SELECT email, name, source, metadata, created_at FROM newsletter_subscribers WHERE email = ?1", profile.email),
    all(
      db,
      "SELECT name, email, subject, message, created_at FROM contact_messages WHERE user_id = ?1 OR email = ?2",
      userId,
      profile.email,
    ),
    all(
      db,
      "SELECT created_at, expires_at, rotated_at, revoked_at, user_agent, city, country FROM sessions WHERE user_id = ?1 ORDER BY created_at",
      userId,
    ),
    all(db, "SELECT warning_count, is_suspended, suspended_until, last_action_at FROM user_moderation_status WHERE user_id = ?1", userId),
  ]);
  return {
    exported_at: nowIso(),
    account,
    profile,
    listings,
    favourites,
    conversations,
    messages,
    trade_offers: tradeOffers,
    trades: trades,
    payments,
    orders,
    reports,
    newsletter_subscriptions: newsletter,
    contact_messages: contact,
    sessions,
    moderation_status: moderation,
    email_changes: await all(
      db,
      "SELECT old_email, new_email, created_at, confirmed_at, stopped_at FROM email_changes WHERE user_id = ?1 ORDER BY created_at",
      userId,
    ),
    saved_searches: await exportSavedSearches(db, userId),
    // The user's own places in give-away queues (with their messages) and the give-aways they took part in.
    giveaway_queue: await all(
      db,
      "SELECT listing_id, message, status, created_at, updated_at, reserved_at, conversation_id FROM giveaway_queue WHERE user_id = ?1 ORDER BY created_at",
      userId,
    ),
    giveaways: await all(
      db,
      "SELECT id, listing_id, giver_id, taker_id, conversation_id, given_at FROM giveaways WHERE giver_id = ?1 OR taker_id = ?1 ORDER BY given_at",
      userId,
    ),
    reviews: await exportReviews(db, userId),
    // The Vipps login linked to the account (its phone is in `account`).
    vipps_login: await all(db, "SELECT sub, created_at AS linked_at, last_login_at FROM vipps_identities WHERE user_id = ?1", userId),
  };
}

/**
 * Delete an account: personal data is removed or anonymised in one D1 batch, all sessions end,
 * and the user's photos are removed from R2. Messages and trades stay readable for the other
 * party, who sees "Slettet bruker" (docs/decisions/031-chat-data.md); pending offers and agreed
 * trades are called off (decision 046), give-away queues left and closed (decision 075), money held
 * for the user's buyers is refunded (decision 105); the user's open chat sockets are closed and their
 * conversations' rooms take no more messages.
 */
export async function deleteAccount(env: Bindings, userId: string): Promise<void> {
  const profile = await getProfile(env.DB, userId);
  const now = nowIso();
  const db = env.DB;
  await db.batch([
    // Live offers and agreed trades are called off first, so the other party's listings are free again.
    ...callOffTradesOf(db, userId, now),
    // The user leaves every give-away queue and the queues of their own listings close (decision 075).
    ...leaveQueuesOf(db, userId, now),
    // A seller's money still held for buyers goes back to them (decision 105): in this batch, so a
    // buyer's confirmation at the same moment is either before the deletion or finds it refunded.
    ...refundHeldOrdersOf(db, userId, now),
    // The photos of their problem reports go with them (decision 108); the objects below.
    deleteProblemPhotosOf(db, userId),
    db.prepare("DELETE FROM sessions WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM email_codes WHERE user_id = ?1").bind(userId),
    // The Vipps login and the phone it verified (decision 128).
    ...forgetVippsOf(db, userId),
    db.prepare("DELETE FROM password_resets WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM email_changes WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM favourites WHERE user_id = ?1").bind(userId),
    // Saved searches with their index keys and matches (foreign keys cascade), and digest claims.
    db.prepare("DELETE FROM saved_searches WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM saved_search_digests WHERE user_id = ?1").bind(userId),
    // Reviews they wrote keep their stars (the other party's average) but lose their words, shown
    // from "Slettet bruker"; reviews about them go with their profile page (404), decision 071.
    db.prepare("UPDATE reviews SET text = NULL WHERE reviewer_id = ?1").bind(userId),
    db.prepare("UPDATE listings SET status = 'deleted', images = '[]', updated_at = ?2 WHERE user_id = ?1").bind(userId, now),
    db.prepare("DELETE FROM newsletter_subscribers WHERE email = ?1").bind(profile.email),
    db.prepare("UPDATE analytics_sessions SET user_id = NULL WHERE user_id = ?1").bind(userId),
    db
      .prepare(
        "UPDATE profiles SET display_name = NULL, postal_code = NULL, street_address = NULL, stripe_account_id = NULL, role = 'user', updated_at = ?2 WHERE user_id = ?1",
      )
      .bind(userId, now),
    db
      .prepare("UPDATE users SET email = ?2, password_hash = '!', deleted_at = ?3, updated_at = ?3 WHERE id = ?1")
      .bind(userId, `deleted+${userId}@lekebytte.invalid`, now),
  ]);
  // Photos live under the owner's prefixes (listings, problem reports); remove them all (paged, 1000 keys per delete).
  for (const prefix of [`${userId}/`, problemPhotoPrefix(userId)]) {
    let cursor: string | undefined;
    do {
      const page = await env.IMAGES.list({ prefix, cursor });
      if (page.objects.length) await env.IMAGES.delete(page.objects.map((o) => o.key));
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  // Their rooms refuse every further message in the conversation (they cache who is deleted, decision 107).
  await participantChanged(env, userId);
  await endSessionSockets(env, userId, null, "account deleted");
  await afterSellerDeleted(env, userId, now);
}
