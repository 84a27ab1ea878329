// Users (+ their profile row) inserted straight into D1 for worker tests.
import { fakerNB_NO as faker } from "@faker-js/faker";
import { env } from "cloudflare:workers";
import type { Role } from "../../domain/roles";
import type { profiles } from "../../worker/features/account/schema";
import type { users } from "../../worker/features/auth/schema";
import { hashPassword, TEST_SCRYPT_PARAMS } from "../../worker/features/auth/password";
import { nextTimestamp } from "./clock";

/** A well-formed hash nobody can sign in with. */
export const UNUSABLE_PASSWORD_HASH = "scrypt$32768$8$3$dGVzdC1vbmx5LXNhbHQ=$bm90LWEtcmVhbC1wYXNzd29yZC1oYXNoLXRlc3Q=";

/**
 * Test users' passwords are hashed at a lower scrypt cost than sign-up's (N = 2^10, p = 1 against
 * 2^15 and 3): the stored hash names its cost and `verifyPassword` checks at that cost, so signing in
 * as a test user runs the real check in a few milliseconds instead of ~260 ms. Hashed once per
 * password per test process. Accounts made through the API (`POST /api/auth/signup`, a reset, a
 * change) are hashed with the production cost, and tests/worker/auth checks that.
 */
const testHashes = new Map<string, Promise<string>>();

export function testPasswordHash(password: string): Promise<string> {
  let hash = testHashes.get(password);
  if (!hash) {
    hash = hashPassword(password, TEST_SCRYPT_PARAMS);
    testHashes.set(password, hash);
  }
  return hash;
}

export interface UserOverrides {
  id?: string;
  email?: string;
  /** A password to sign in with (hashed by `testPasswordHash`). */
  password?: string;
  emailConfirmed?: boolean;
  deletedAt?: string | null;
  displayName?: string | null;
  postalCode?: string | null;
  role?: Role;
  stripeAccountId?: string | null;
  createdAt?: string;
}

export type TestUser = Awaited<ReturnType<typeof createUser>>;

let sequence = 0;

export async function createUser(overrides: UserOverrides = {}, db: D1Database = env.DB) {
  sequence += 1;
  const id = overrides.id ?? crypto.randomUUID();
  const email = (overrides.email ?? `bruker${sequence}-${id.slice(0, 8)}@test.lekebytte.no`).toLowerCase();
  const createdAt = overrides.createdAt ?? nextTimestamp();
  const passwordHash = overrides.password ? await testPasswordHash(overrides.password) : UNUSABLE_PASSWORD_HASH;
  const user = {
    id,
    email,
    passwordHash,
    emailConfirmedAt: overrides.emailConfirmed === false ? null : createdAt,
    deletedAt: overrides.deletedAt ?? null,
    createdAt,
    updatedAt: createdAt,
  } satisfies typeof users.$inferInsert;
  const profile = {
    userId: id,
    displayName: overrides.displayName === undefined ? faker.person.firstName() : overrides.displayName,
    postalCode: overrides.postalCode === undefined ? "0150" : overrides.postalCode,
    role: overrides.role ?? "user",
    stripeAccountId: overrides.stripeAccountId ?? null,
    createdAt,
    updatedAt: createdAt,
  } satisfies typeof profiles.$inferInsert;
  // The profile's Stripe flags take their defaults (off).
  await db.batch([
    db
      .prepare(
        "INSERT INTO users (id, email, password_hash, email_confirmed_at, deleted_at, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
      )
      .bind(user.id, user.email, user.passwordHash, user.emailConfirmedAt, user.deletedAt, user.createdAt, user.updatedAt),
    db
      .prepare(
        "INSERT INTO profiles (user_id, display_name, postal_code, role, stripe_account_id, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
      )
      .bind(
        profile.userId,
        profile.displayName,
        profile.postalCode,
        profile.role,
        profile.stripeAccountId,
        profile.createdAt,
        profile.updatedAt,
      ),
  ]);
  return { ...user, password: overrides.password, profile };
}
