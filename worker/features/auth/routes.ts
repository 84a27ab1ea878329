import { Hono } from "hono";
import { callbackSchema, resendSchema, signInSchema, signUpSchema } from "../../../domain/schemas/account";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import {
  clearSessionCookies,
  readAccessCookie,
  readDeviceCookie,
  readRefreshCookie,
  setDeviceCookie,
  setSessionCookies,
} from "../../lib/cookies";
import { signDeviceCookie, verifyDeviceCookie } from "./device-cookie";
import { clientAddressKey } from "../../lib/request";
import { validate } from "../../lib/validate";
import { noStore } from "../../middleware/cache";
import { exchangeCode, refreshSession, resendConfirmation, signIn, signOut, signUp, type IssuedSession } from "./auth";
import { enforceRateLimits } from "../../lib/rate-limit";
import type { Context } from "hono";
import { AUTH_REFUSALS } from "../../../domain/auth";

export function sessionBody(s: IssuedSession) {
  return {
    user: s.user,
    expires_at: s.expiresAt,
    expires_in: s.expiresAt - Math.floor(Date.now() / 1000),
    token_type: "cookie",
  };
}

/**
 * `rememberDevice`: a sign-in (password, or the confirmation link) gives this browser a new device
 * cookie for the account, with a fresh allowance of its own (docs/decisions/084-device-cookies.md).
 */
async function respondWithSession(c: Context<AppEnv>, s: IssuedSession, { rememberDevice = false } = {}) {
  await setSession(c, s, { rememberDevice });
  return c.json(sessionBody(s));
}

/** The session's cookies (and the device cookie) on this answer; Vipps Login answers with them too. */
export async function setSession(c: Context<AppEnv>, s: IssuedSession, { rememberDevice = false } = {}): Promise<void> {
  setSessionCookies(c, s.accessToken, s.refreshToken, s.refreshMaxAge);
  if (rememberDevice) setDeviceCookie(c, await signDeviceCookie(c.env, s.user.id));
  // On the session answer only (not the noStore middleware): a refused sign-in never carried it.
  c.header("Cache-Control", "no-store");
}

/** The origin confirmation links point to: the configured one, else the request's own. */
export function linkOrigin(c: Context): string {
  return c.env.APP_ORIGIN || new URL(c.req.url).origin;
}

export const authRoutes = new Hono<AppEnv>()
  .post("/signup", validate("json", signUpSchema), async (c) => {
    const body = c.req.valid("json");
    await enforceRateLimits(c.var.db, [
      [RATE_RULES.signupAccount, body.email],
      [RATE_RULES.signupAddress, clientAddressKey(c)],
    ]);
    await signUp(c.env, linkOrigin(c), body);
    return c.json({ ok: true, message: "Sjekk e-posten din for bekreftelseslink." }, 201);
  })
  .post("/signin", validate("json", signInSchema), async (c) => {
    const { email, password } = c.req.valid("json");
    const address = clientAddressKey(c);
    const session = await signIn(c.env, {
      email,
      password,
      userAgent: c.req.header("User-Agent") ?? null,
      // A browser that signed in to this account before is limited by its own device cookie only
      // (docs/decisions/084-device-cookies.md); a forged or altered cookie counts as no cookie.
      device: await verifyDeviceCookie(c.env, readDeviceCookie(c)),
      // Unknown devices, narrowest first: one address guessing one account is stopped long before
      // the account's own (much higher) limit (docs/decisions/010-rate-limits.md).
      unknownDeviceLimits: [
        [RATE_RULES.signinAddressAccount, `${address}|${email}`],
        [RATE_RULES.signinAddress, address],
        [RATE_RULES.signinAccount, email],
      ],
    });
    return respondWithSession(c, session, { rememberDevice: true });
  })
  .post("/resend", validate("json", resendSchema), async (c) => {
    const { email } = c.req.valid("json");
    await enforceRateLimits(c.var.db, [
      [RATE_RULES.resendAccount, email],
      [RATE_RULES.resendAddress, clientAddressKey(c)],
    ]);
    await resendConfirmation(c.env, linkOrigin(c), email);
    return c.json({ ok: true });
  })
  .post("/callback", validate("json", callbackSchema), async (c) => {
    const { code } = c.req.valid("json");
    await enforceRateLimits(c.var.db, [[RATE_RULES.callbackAddress, clientAddressKey(c)]]);
    return respondWithSession(c, await exchangeCode(c.env, code, c.req.header("User-Agent") ?? null), { rememberDevice: true });
  })
  .post("/refresh", async (c) => {
    const token = readRefreshCookie(c);
    if (!token) throw new AppError("UNAUTHENTICATED", AUTH_REFUSALS.sessionExpired);
    let result: Awaited<ReturnType<typeof refreshSession>>;
    try {
      result = await refreshSession(c.env, token, c.req.header("User-Agent") ?? null);
    } catch (err) {
      clearSessionCookies(c);
      throw err;
    }
    // Another tab of the same browser has moved the session on: its cookies are the live ones,
    // so this answer must not clear them.
    if (result.kind === "stale") throw new AppError("UNAUTHENTICATED", AUTH_REFUSALS.renewedElsewhere);
    return respondWithSession(c, result.session);
  })
  .post("/signout", async (c) => {
    await signOut(c.env, c.get("actor"), readRefreshCookie(c));
    clearSessionCookies(c);
    return c.body(null, 204);
  })
  /**
   * The current session, or `null` for a visitor: asking whether someone is signed in is a normal
   * question with two normal answers, so a visitor's check is no error in the browser's console.
   * Only a request that carries session cookies which no longer work (an expired access token with
   * a refresh token beside it, a revoked family) answers 401: that session can be refreshed or has
   * ended, and the web refreshes once on a 401. Without a refresh cookie there is nothing to refresh.
   */
  .get("/session", noStore, (c) => {
    const actor = c.get("actor");
    if (!actor) {
      if (readAccessCookie(c) || readRefreshCookie(c)) throw new AppError("UNAUTHENTICATED");
      return c.json(null);
    }
    return c.json({
      user: { id: actor.id, email: actor.email, display_name: actor.displayName, role: actor.role },
      expires_at: actor.accessExpiresAt,
    });
  });
