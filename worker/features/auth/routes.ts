import { Hono } from "hono";
import { callbackSchema, resendSchema, signInSchema, signUpSchema } from "../../../domain/schemas/account";
import { forgotPasswordSchema, linkTokenSchema, resetPasswordSchema } from "../../../domain/schemas/credentials";
import { FORGOT_PASSWORD_ANSWER } from "../../../domain/credentials";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { clearSessionCookies, readAccessCookie, readRefreshCookie } from "../../lib/cookies";
import { clientAddressKey, clientInfo } from "../../lib/request";
import { validate } from "../../lib/validate";
import { noStore } from "../../middleware/cache";
import { exchangeCode, refreshSession, resendConfirmation, signOut, signUp, type IssuedSession } from "./auth";
import { enforceRateLimits } from "../../lib/rate-limit";
import type { Context } from "hono";
import { AUTH_REFUSALS } from "../../../domain/auth";
import { checkPasswordResetLink, resetPassword } from "./password-reset";
import { confirmEmailChange, stopEmailChange } from "./email-change";
import { sendMail } from "../mail/mail";
import { forgotPassword, linkOrigin, setSession, signInWithPassword } from "./respond";

function sessionBody(s: IssuedSession) {
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
    return respondWithSession(c, await signInWithPassword(c, email, password), { rememberDevice: true });
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
    return respondWithSession(c, await exchangeCode(c.env, code, clientInfo(c)), { rememberDevice: true });
  })
  // "Glemt passord?": one answer, whether or not the address has an account (decision 125).
  .post("/password/forgot", validate("json", forgotPasswordSchema), async (c) => {
    await forgotPassword(c, c.req.valid("json").email);
    return c.json({ ok: true, message: FORGOT_PASSWORD_ANSWER });
  })
  // Opening "Lag nytt passord": whether the link still works, before anyone types a password.
  .post("/password/reset/check", validate("json", linkTokenSchema), async (c) => {
    await enforceRateLimits(c.var.db, [[RATE_RULES.accountLinkAddress, clientAddressKey(c)]]);
    await checkPasswordResetLink(c.var.db, c.req.valid("json").token);
    return c.json({ ok: true });
  })
  .post("/password/reset", validate("json", resetPasswordSchema), async (c) => {
    const { token, password } = c.req.valid("json");
    await enforceRateLimits(c.var.db, [[RATE_RULES.accountLinkAddress, clientAddressKey(c)]]);
    const { session, mail } = await resetPassword(c.env, c.var.db, { token, password, client: clientInfo(c), origin: linkOrigin(c) });
    await sendMail(c.env, mail);
    return respondWithSession(c, session, { rememberDevice: true });
  })
  .post("/email/confirm", validate("json", linkTokenSchema), async (c) => {
    await enforceRateLimits(c.var.db, [[RATE_RULES.accountLinkAddress, clientAddressKey(c)]]);
    return c.json(await confirmEmailChange(c.var.db, c.req.valid("json").token));
  })
  .post("/email/stop", validate("json", linkTokenSchema), async (c) => {
    await enforceRateLimits(c.var.db, [[RATE_RULES.accountLinkAddress, clientAddressKey(c)]]);
    return c.json(await stopEmailChange(c.env, c.var.db, c.req.valid("json").token));
  })
  .post("/refresh", async (c) => {
    const token = readRefreshCookie(c);
    if (!token) throw new AppError("UNAUTHENTICATED", AUTH_REFUSALS.sessionExpired);
    let result: Awaited<ReturnType<typeof refreshSession>>;
    try {
      result = await refreshSession(c.env, token, clientInfo(c));
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
