// "Logg inn med Vipps" (docs/decisions/128-vipps-login.md): a started login (state, nonce, PKCE
// verifier, bound to the browser), its callback, and what the Vipps identity then does: signs in to
// the account it is linked to, makes a new account for a new person, or, when its verified e-mail is
// an existing account's, waits for that account to be proved (its password or a mailed link) before
// the two are linked. Linking, unlinking and deleting an account keep the phone's "Verifisert med
// Vipps" in step. The OpenID Connect exchange itself is vipps-oidc.ts.
import { DISPLAY_NAME_MAX_LENGTH, EMAIL_MAX_LENGTH } from "../../../domain/limits";
import { RATE_RULES } from "../../../domain/rate-limits";
import { WRONG_PASSWORD_MESSAGE } from "../../../domain/schemas/account";
import { cleanSingleLine } from "../../../domain/text";
import { VIPPS_LINK_REQUEST_TTL_SECONDS, VIPPS_LOGIN_REFUSALS, VIPPS_LOGIN_STATE_TTL_SECONDS } from "../../../domain/vipps-login";
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { isoIn, nowIso, randomToken, sha256Hex } from "../../lib/crypto";
import { purgeEdgeCache, userTag } from "../../lib/edge-cache";
import { AppError } from "../../lib/errors";
import { enforceRateLimits } from "../../lib/rate-limit";
import type { ClientInfo } from "../../lib/request";
import { sessionUser, startSession, type IssuedSession } from "./session-issue";
import { hasPassword, NO_PASSWORD, verifyPassword } from "./password";
import { sendVippsLinkMail } from "./vipps-mail";
import {
  authorizeUrl,
  codeChallenge,
  discover,
  exchangeCode,
  fetchUserinfo,
  verifyIdToken,
  vippsLoginConfig,
  VippsLoginError,
  type VippsLoginConfig,
  type VippsUserinfo,
} from "./vipps-oidc";

type Purpose = "login" | "link";

export type VippsCallbackResult =
  | { kind: "session"; session: IssuedSession; returnPath: string | null }
  | { kind: "linked" }
  | { kind: "link-required"; linkToken: string; email: string };

function requireConfig(env: Bindings): VippsLoginConfig {
  const config = vippsLoginConfig(env);
  if (!config) throw new AppError("SERVICE_UNAVAILABLE", VIPPS_LOGIN_REFUSALS.notConfigured);
  return config;
}

/** A Vipps-side failure: logged for us, one Norwegian message (502) for the person. */
function failed(error: unknown): AppError {
  console.warn("Vipps Login refused:", error instanceof Error ? error.message : String(error));
  return new AppError("PROVIDER_ERROR", VIPPS_LOGIN_REFUSALS.failed);
}

/**
 * Start a login: a fresh `state` (stored hashed), `nonce` and PKCE verifier, bound to the browser's
 * token (its cookie); the answer is the authorize URL the browser goes to.
 */
export async function startVippsLogin(
  env: Bindings,
  input: { purpose: Purpose; userId: string | null; returnPath: string | null; redirectUri: string; browserToken: string },
): Promise<string> {
  const config = requireConfig(env);
  const doc = await discover(config).catch((error: unknown) => {
    throw failed(error);
  });
  const state = randomToken(32);
  const nonce = randomToken(32);
  const verifier = randomToken(48);
  await env.DB.prepare(
    `INSERT INTO vipps_login_states (state_hash, browser_hash, nonce, code_verifier, purpose, user_id, return_path, expires_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
  )
    .bind(
      await sha256Hex(state),
      await sha256Hex(input.browserToken),
      nonce,
      verifier,
      input.purpose,
      input.userId,
      input.returnPath,
      isoIn(VIPPS_LOGIN_STATE_TTL_SECONDS),
    )
    .run();
  return authorizeUrl(doc, config, { redirectUri: input.redirectUri, state, nonce, codeChallenge: await codeChallenge(verifier) });
}

interface StartedLogin {
  nonce: string;
  code_verifier: string;
  purpose: Purpose;
  user_id: string | null;
  return_path: string | null;
}

/**
 * The callback: the state is spent at once (used, expired, unknown or started in another browser
 * all answer the same), then the code is exchanged and the ID token and userinfo checked.
 */
export async function completeVippsLogin(
  env: Bindings,
  input: { browserToken: string | undefined; state: string; code?: string; error?: string; redirectUri: string; client: ClientInfo },
): Promise<VippsCallbackResult> {
  const now = nowIso();
  const started = input.browserToken
    ? await env.DB.prepare(
        `UPDATE vipps_login_states SET used_at = ?3
         WHERE state_hash = ?1 AND browser_hash = ?2 AND used_at IS NULL AND expires_at > ?3
         RETURNING nonce, code_verifier, purpose, user_id, return_path`,
      )
        .bind(await sha256Hex(input.state), await sha256Hex(input.browserToken), now)
        .first<StartedLogin>()
    : null;
  if (!started) throw new AppError("VALIDATION", VIPPS_LOGIN_REFUSALS.expired);
  if (input.error === "access_denied") throw new AppError("VALIDATION", VIPPS_LOGIN_REFUSALS.cancelled);
  if (input.error || !input.code) throw failed(`authorize answered ${input.error}`);

  const config = requireConfig(env);
  let sub: string;
  let info: VippsUserinfo;
  try {
    const doc = await discover(config);
    const tokens = await exchangeCode(doc, config, {
      code: input.code,
      redirectUri: input.redirectUri,
      codeVerifier: started.code_verifier,
    });
    sub = await verifyIdToken(doc, config, tokens.idToken, started.nonce);
    info = await fetchUserinfo(doc, tokens.accessToken, sub);
  } catch (error) {
    if (error instanceof VippsLoginError) throw failed(error);
    throw error;
  }
  const phone = msisdn(info.phone_number);

  if (started.purpose === "link" && started.user_id) {
    await linkIdentity(env, started.user_id, sub, phone);
    return { kind: "linked" };
  }
  return signInWithVipps(env, { sub, info, phone, returnPath: started.return_path, client: input.client });
}

/** Vipps gives the phone as an MSISDN: country code and digits, no "+". */
function msisdn(value: string | undefined): string | null {
  return value && /^\d{8,15}$/.test(value) ? value : null;
}

async function signInWithVipps(
  env: Bindings,
  input: { sub: string; info: VippsUserinfo; phone: string | null; returnPath: string | null; client: ClientInfo },
  retried = false,
): Promise<VippsCallbackResult> {
  const { sub, info, phone } = input;
  const linked = await env.DB.prepare(
    "SELECT v.user_id FROM vipps_identities v JOIN users u ON u.id = v.user_id WHERE v.sub = ?1 AND u.deleted_at IS NULL",
  )
    .bind(sub)
    .first<{ user_id: string }>();
  if (linked) {
    // Vipps vouches for the phone again at every login (a new number replaces the old one).
    await linkIdentity(env, linked.user_id, sub, phone);
    return { kind: "session", session: await sessionFor(env, linked.user_id, input.client), returnPath: input.returnPath };
  }

  const email = info.email?.trim().toLowerCase() ?? "";
  if (!email || email.length > EMAIL_MAX_LENGTH || !/^[^\s@]+@[^\s@]+$/.test(email))
    throw new AppError("VALIDATION", VIPPS_LOGIN_REFUSALS.emailMissing);
  // Only an address Vipps has verified is trusted, for a new account as for a match; a match is
  // never signed in to: it waits for its own proof (docs/decisions/128-vipps-login.md).
  if (info.email_verified !== true) throw new AppError("CONFLICT", VIPPS_LOGIN_REFUSALS.emailUnverified);
  const existing = await env.DB.prepare("SELECT id FROM users WHERE email = ?1 AND deleted_at IS NULL").bind(email).first<{ id: string }>();
  if (existing) {
    const linkToken = randomToken(32);
    await env.DB.prepare(
      "INSERT INTO vipps_link_requests (id, token_hash, user_id, sub, phone, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )
      .bind(crypto.randomUUID(), await sha256Hex(linkToken), existing.id, sub, phone, isoIn(VIPPS_LINK_REQUEST_TTL_SECONDS))
      .run();
    return { kind: "link-required", linkToken, email };
  }

  const userId = crypto.randomUUID();
  const now = nowIso();
  const name = cleanSingleLine(info.name ?? "").slice(0, DISPLAY_NAME_MAX_LENGTH) || null;
  try {
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO users (id, email, password_hash, email_confirmed_at, phone, phone_verified_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`,
      ).bind(userId, email, NO_PASSWORD, now, phone, phone ? now : null),
      env.DB.prepare("INSERT INTO profiles (user_id, display_name) VALUES (?1, ?2)").bind(userId, name),
      env.DB.prepare("INSERT INTO vipps_identities (sub, user_id, last_login_at) VALUES (?1, ?2, ?3)").bind(sub, userId, now),
    ]);
  } catch (error) {
    // The same person's other tab, or a sign-up with this address, got there first: the batch wrote
    // nothing, and the second look finds the link or the account.
    if (!retried && String(error).includes("UNIQUE")) return signInWithVipps(env, input, true);
    throw error;
  }
  return { kind: "session", session: await sessionFor(env, userId, input.client), returnPath: input.returnPath };
}

async function sessionFor(env: Bindings, userId: string, client: ClientInfo): Promise<IssuedSession> {
  const user = await sessionUser(env.DB, userId);
  if (!user) throw new AppError("VALIDATION", VIPPS_LOGIN_REFUSALS.expired);
  return startSession(env, user, client);
}

/**
 * Link `sub` to the account, in one batch that writes nothing when `sub` is another account's: the
 * account's earlier Vipps login goes (a person's new phone number is a new `sub` at Vipps), the
 * phone is marked verified by Vipps, and the e-mail confirmed (Vipps verified it, or the account
 * was proved). Cached pages that show the account's seller card are purged.
 */
async function linkIdentity(env: Bindings, userId: string, sub: string, phone: string | null): Promise<void> {
  const now = nowIso();
  const free = "NOT EXISTS (SELECT 1 FROM vipps_identities o WHERE o.sub = ?2 AND o.user_id <> ?1)";
  const [, , , updated] = await env.DB.batch([
    env.DB.prepare(`DELETE FROM vipps_identities WHERE user_id = ?1 AND sub <> ?2 AND ${free}`).bind(userId, sub),
    env.DB.prepare(
      `INSERT INTO vipps_identities (sub, user_id, last_login_at) SELECT ?2, ?1, ?3 WHERE ${free} ON CONFLICT (sub) DO NOTHING`,
    ).bind(userId, sub, now),
    env.DB.prepare("UPDATE vipps_identities SET last_login_at = ?3 WHERE sub = ?2 AND user_id = ?1").bind(userId, sub, now),
    env.DB.prepare(
      `UPDATE users SET phone = ?3, phone_verified_at = CASE WHEN ?3 IS NULL THEN NULL ELSE ?4 END,
         email_confirmed_at = COALESCE(email_confirmed_at, ?4), updated_at = ?4
       WHERE id = ?1 AND deleted_at IS NULL AND EXISTS (SELECT 1 FROM vipps_identities v WHERE v.sub = ?2 AND v.user_id = ?1)`,
    ).bind(userId, sub, phone, now),
  ]);
  if (!updated.meta.changes) throw new AppError("CONFLICT", VIPPS_LOGIN_REFUSALS.linkedElsewhere);
  await purgeEdgeCache(env, [userTag(userId)]);
}

// ---------------------------------------------------------------- proving a matched account

interface LinkRequest {
  id: string;
  user_id: string;
  sub: string;
  phone: string | null;
  email: string;
  password_hash: string;
}

async function openLinkRequest(env: Bindings, column: "token_hash" | "mail_code_hash", secret: string | undefined): Promise<LinkRequest> {
  const row = secret
    ? await env.DB.prepare(
        `SELECT r.id, r.user_id, r.sub, r.phone, u.email, u.password_hash FROM vipps_link_requests r JOIN users u ON u.id = r.user_id
         WHERE r.${column} = ?1 AND r.used_at IS NULL AND r.expires_at > ?2 AND u.deleted_at IS NULL`,
      )
        .bind(await sha256Hex(secret), nowIso())
        .first<LinkRequest>()
    : null;
  if (!row) throw new AppError("VALIDATION", VIPPS_LOGIN_REFUSALS.linkExpired);
  return row;
}

/** The account a waiting Vipps login matched (for "Koble til Vipps"), or 400 when it is gone. */
export async function linkRequestInfo(env: Bindings, linkToken: string | undefined): Promise<{ email: string }> {
  const request = await openLinkRequest(env, "token_hash", linkToken);
  return { email: request.email };
}

/**
 * Proof by password: guesses are limited exactly as sign-in's from an unknown device (the same
 * counters), so this is no second door for guessing. A wrong password leaves the request open.
 */
export async function linkWithPassword(
  env: Bindings,
  input: { linkToken: string | undefined; password: string; address: string; client: ClientInfo },
): Promise<IssuedSession> {
  const request = await openLinkRequest(env, "token_hash", input.linkToken);
  await enforceRateLimits(env.DB, [
    [RATE_RULES.signinAddressAccount, `${input.address}|${request.email}`],
    [RATE_RULES.signinAddress, input.address],
    [RATE_RULES.signinAccount, request.email],
  ]);
  if (!(await verifyPassword(input.password, request.password_hash)))
    throw new AppError("INVALID_CREDENTIALS", WRONG_PASSWORD_MESSAGE, { password: WRONG_PASSWORD_MESSAGE });
  return consumeAndLink(env, request, input.client);
}

/** Proof by e-mail: a link to the account's own address (a new one replaces the last). */
export async function mailLinkRequest(env: Bindings, origin: string, linkToken: string | undefined, address: string): Promise<void> {
  const request = await openLinkRequest(env, "token_hash", linkToken);
  await enforceRateLimits(env.DB, [
    [RATE_RULES.vippsLinkMailAccount, request.user_id],
    [RATE_RULES.vippsLinkMailAddress, address],
  ]);
  const code = randomToken(32);
  await env.DB.prepare("UPDATE vipps_link_requests SET mail_code_hash = ?2 WHERE id = ?1")
    .bind(request.id, await sha256Hex(code))
    .run();
  await sendVippsLinkMail(env, request.email, `${origin}/auth/vipps?koble=${encodeURIComponent(code)}`);
}

/** The mailed link opened (in any browser: the mailbox is the proof). */
export async function linkWithMailCode(env: Bindings, code: string, client: ClientInfo): Promise<IssuedSession> {
  return consumeAndLink(env, await openLinkRequest(env, "mail_code_hash", code), client);
}

async function consumeAndLink(env: Bindings, request: LinkRequest, client: ClientInfo): Promise<IssuedSession> {
  const now = nowIso();
  const used = await env.DB.prepare(
    "UPDATE vipps_link_requests SET used_at = ?2 WHERE id = ?1 AND used_at IS NULL AND expires_at > ?2 RETURNING id",
  )
    .bind(request.id, now)
    .first();
  if (!used) throw new AppError("VALIDATION", VIPPS_LOGIN_REFUSALS.linkExpired);
  await linkIdentity(env, request.user_id, request.sub, request.phone);
  return sessionFor(env, request.user_id, client);
}

// ---------------------------------------------------------------- the profile's Vipps section

export interface VippsStatus {
  linked: boolean;
  linked_at: string | null;
  phone: string | null;
  phone_verified: boolean;
  has_password: boolean;
}

export async function vippsStatus(env: Bindings, userId: string): Promise<VippsStatus> {
  const row = await env.DB.prepare(
    `SELECT u.phone, u.phone_verified_at, u.password_hash, v.created_at AS linked_at
     FROM users u LEFT JOIN vipps_identities v ON v.user_id = u.id WHERE u.id = ?1 AND u.deleted_at IS NULL`,
  )
    .bind(userId)
    .first<{ phone: string | null; phone_verified_at: string | null; password_hash: string; linked_at: string | null }>();
  if (!row) throw new AppError("NOT_FOUND");
  return {
    linked: row.linked_at !== null,
    linked_at: row.linked_at,
    phone: row.phone,
    phone_verified: row.phone_verified_at !== null,
    has_password: hasPassword(row.password_hash),
  };
}

/** "Koble til Vipps" from the profile: the password again (decision 019), and no link yet. */
export async function startProfileLink(
  env: Bindings,
  input: { userId: string; password: string; redirectUri: string; browserToken: string },
): Promise<string> {
  const status = await vippsStatus(env, input.userId);
  if (status.linked) throw new AppError("CONFLICT", VIPPS_LOGIN_REFUSALS.alreadyLinked);
  await confirmOwnPassword(env, input.userId, input.password);
  return startVippsLogin(env, {
    purpose: "link",
    userId: input.userId,
    returnPath: "/profile",
    redirectUri: input.redirectUri,
    browserToken: input.browserToken,
  });
}

/**
 * "Koble fra Vipps": only while the account keeps another way in, its password, which is asked
 * for again. The phone Vipps gave goes with the link.
 */
export async function unlinkVipps(env: Bindings, userId: string, password: string): Promise<void> {
  const status = await vippsStatus(env, userId);
  if (!status.linked) throw new AppError("NOT_FOUND", VIPPS_LOGIN_REFUSALS.notLinked);
  if (!status.has_password) throw new AppError("CONFLICT", VIPPS_LOGIN_REFUSALS.noPassword);
  await confirmOwnPassword(env, userId, password);
  await env.DB.batch(forgetVippsOf(env.DB, userId));
  await purgeEdgeCache(env, [userTag(userId)]);
}

async function confirmOwnPassword(env: Bindings, userId: string, password: string): Promise<void> {
  const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?1 AND deleted_at IS NULL")
    .bind(userId)
    .first<{ password_hash: string }>();
  if (!row || !(await verifyPassword(password, row.password_hash)))
    throw new AppError("INVALID_CREDENTIALS", WRONG_PASSWORD_MESSAGE, { password: WRONG_PASSWORD_MESSAGE });
}

/** Everything Vipps Login keeps about an account (unlinking; the account's deletion, in its batch). */
export function forgetVippsOf(d1: Db, userId: string): D1PreparedStatement[] {
  return [
    d1.prepare("DELETE FROM vipps_identities WHERE user_id = ?1").bind(userId),
    d1.prepare("DELETE FROM vipps_link_requests WHERE user_id = ?1").bind(userId),
    d1.prepare("DELETE FROM vipps_login_states WHERE user_id = ?1").bind(userId),
    d1.prepare("UPDATE users SET phone = NULL, phone_verified_at = NULL, updated_at = ?2 WHERE id = ?1").bind(userId, nowIso()),
  ];
}

/** The hourly purge's part: logins and link requests past their time. */
export function purgeVippsLogins(d1: Db, iso: string): D1PreparedStatement[] {
  return [
    d1.prepare("DELETE FROM vipps_login_states WHERE expires_at < ?1").bind(iso),
    d1.prepare("DELETE FROM vipps_link_requests WHERE expires_at < ?1").bind(iso),
  ];
}
