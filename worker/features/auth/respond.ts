// What the auth routes share: the JSON routes (routes.ts) and the plain forms that work without
// JavaScript (form-routes.ts, docs/decisions/126-sign-in-without-javascript.md).
import type { Context } from "hono";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { AppEnv } from "../../env";
import { readDeviceCookie, setDeviceCookie, setSessionCookies } from "../../lib/cookies";
import { enforceRateLimits } from "../../lib/rate-limit";
import { clientAddressKey, clientInfo } from "../../lib/request";
import { sendMail, type Mail } from "../mail/mail";
import { signIn, type IssuedSession } from "./auth";
import { signDeviceCookie, verifyDeviceCookie } from "./device-cookie";
import { requestPasswordReset } from "./password-reset";

/** The origin confirmation links point to: the configured one, else the request's own. */
export function linkOrigin(c: { env: { APP_ORIGIN: string }; req: { url: string } }): string {
  return c.env.APP_ORIGIN || new URL(c.req.url).origin;
}

/** The session's cookies (and a fresh device cookie after a sign-in), on a JSON answer or a redirect. */
export async function setSession(c: Context<AppEnv>, s: IssuedSession, { rememberDevice = false } = {}): Promise<void> {
  setSessionCookies(c, s.accessToken, s.refreshToken, s.refreshMaxAge);
  if (rememberDevice) setDeviceCookie(c, await signDeviceCookie(c.env, s.user.id));
  // On the session answer only (not the noStore middleware): a refused sign-in never carried it.
  c.header("Cache-Control", "no-store");
}

/**
 * A mail sent after the answer has gone out ("Glemt passord?": the answer's time must not depend on
 * whether there was a mail to send). A failure is logged; the person can ask again.
 */
export function sendAfterAnswer(c: Context<AppEnv>, mail: Mail | null): void {
  if (!mail) return;
  const later = async () => {
    // Not started beside the answer's own work: from the next turn of the event loop on.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await sendMail(c.env, mail);
  };
  c.executionCtx.waitUntil(later().catch((err: unknown) => console.error("Mail after the answer failed", err)));
}

/**
 * "Glemt passord?" for JSON and for the plain form alike: limited per client address and per typed
 * address (the same refusal whether or not it has an account), then the same answer for all.
 */
export async function forgotPassword(c: Context<AppEnv>, email: string): Promise<void> {
  await enforceRateLimits(c.var.db, [
    [RATE_RULES.passwordResetEmail, email],
    [RATE_RULES.passwordResetAddress, clientAddressKey(c)],
  ]);
  sendAfterAnswer(c, await requestPasswordReset(c.var.db, c.env, linkOrigin(c), email));
}

/** Sign in with e-mail and password, limited as decisions 010 and 084 say. */
export async function signInWithPassword(c: Context<AppEnv>, email: string, password: string): Promise<IssuedSession> {
  const address = clientAddressKey(c);
  return signIn(c.env, {
    email,
    password,
    client: clientInfo(c),
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
}
