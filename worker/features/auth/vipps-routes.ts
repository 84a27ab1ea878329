// "Logg inn med Vipps" over HTTP (docs/api.md "Vipps Login"): /api/auth/vipps for signing in and
// proving a matched account, /api/me/vipps for the profile's link and unlink.
import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { passwordConfirmationSchema } from "../../../domain/schemas/account";
import { vippsCallbackSchema, vippsLinkCodeSchema, vippsStartSchema } from "../../../domain/schemas/vipps-login";
import { RATE_RULES } from "../../../domain/rate-limits";
import { VIPPS_LOGIN_STATE_TTL_SECONDS, VIPPS_LINK_REQUEST_TTL_SECONDS, VIPPS_LOGIN_TEXTS } from "../../../domain/vipps-login";
import type { AppEnv } from "../../env";
import { randomToken } from "../../lib/crypto";
import { enforceRateLimits } from "../../lib/rate-limit";
import { clientAddressKey, clientInfo } from "../../lib/request";
import { validate } from "../../lib/validate";
import { noStore } from "../../middleware/cache";
import { actorOf, requireUser } from "../../middleware/session";
import type { IssuedSession } from "./auth";
import { linkOrigin, setSession } from "./respond";
import { sessionBody } from "./routes";
import {
  completeVippsLogin,
  linkRequestInfo,
  linkWithMailCode,
  linkWithPassword,
  mailLinkRequest,
  startProfileLink,
  startVippsLogin,
  unlinkVipps,
  vippsStatus,
} from "./vipps-login";

/**
 * Two cookies, both HttpOnly, SameSite=Strict and sent only to /api/auth/vipps: the browser's token
 * that a started login is bound to (its callback must come from the same browser), and the token of
 * a matched account's waiting link request.
 */
const COOKIE_PATH = "/api/auth/vipps";

function cookieNames(c: Context) {
  const secure = new URL(c.req.url).protocol === "https:";
  return { secure, browser: secure ? "__Secure-lb_vipps" : "lb_vipps", link: secure ? "__Secure-lb_vipps_link" : "lb_vipps_link" };
}

/** The browser's token: the one it has, or a new one for its first login. */
function browserToken(c: Context): string {
  const n = cookieNames(c);
  const existing = getCookie(c, n.browser);
  const token = existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : randomToken(32);
  setCookie(c, n.browser, token, {
    httpOnly: true,
    secure: n.secure,
    sameSite: "Strict",
    path: COOKIE_PATH,
    maxAge: VIPPS_LOGIN_STATE_TTL_SECONDS,
  });
  return token;
}

function redirectUri(c: Context): string {
  return `${linkOrigin(c)}/auth/vipps`;
}

/** A Vipps sign-in's answer: the session (its cookies, a device cookie as for a password sign-in) and where to go. */
async function signedIn(c: Context<AppEnv>, session: IssuedSession, next: string | null) {
  await setSession(c, session, { rememberDevice: true });
  deleteCookie(c, cookieNames(c).link, { path: COOKIE_PATH, secure: cookieNames(c).secure });
  return c.json({ status: "signed_in" as const, session: sessionBody(session), next });
}

export const vippsAuthRoutes = new Hono<AppEnv>()
  .post("/start", validate("json", vippsStartSchema), async (c) => {
    await enforceRateLimits(c.var.db, [[RATE_RULES.vippsStartAddress, clientAddressKey(c)]]);
    const url = await startVippsLogin(c.env, {
      purpose: "login",
      userId: null,
      returnPath: c.req.valid("json").next,
      redirectUri: redirectUri(c),
      browserToken: browserToken(c),
    });
    return c.json({ url });
  })
  .post("/callback", validate("json", vippsCallbackSchema), async (c) => {
    const body = c.req.valid("json");
    await enforceRateLimits(c.var.db, [[RATE_RULES.vippsCallbackAddress, clientAddressKey(c)]]);
    const n = cookieNames(c);
    const result = await completeVippsLogin(c.env, {
      browserToken: getCookie(c, n.browser),
      state: body.state,
      code: body.code,
      error: body.error,
      redirectUri: redirectUri(c),
      client: clientInfo(c),
    });
    if (result.kind === "session") return signedIn(c, result.session, result.returnPath);
    if (result.kind === "linked") return c.json({ status: "linked" as const, message: VIPPS_LOGIN_TEXTS.linked });
    setCookie(c, n.link, result.linkToken, {
      httpOnly: true,
      secure: n.secure,
      sameSite: "Strict",
      path: COOKIE_PATH,
      maxAge: VIPPS_LINK_REQUEST_TTL_SECONDS,
    });
    return c.json({ status: "link_required" as const, email: result.email });
  })
  // The matched account waiting for its proof (the page shows its address), from the link cookie.
  .get("/link", noStore, async (c) => {
    return c.json(await linkRequestInfo(c.env, getCookie(c, cookieNames(c).link)));
  })
  .post("/link", validate("json", passwordConfirmationSchema), async (c) => {
    const session = await linkWithPassword(c.env, {
      linkToken: getCookie(c, cookieNames(c).link),
      password: c.req.valid("json").password,
      address: clientAddressKey(c),
      client: clientInfo(c),
    });
    return signedIn(c, session, null);
  })
  .post("/link/mail", async (c) => {
    await mailLinkRequest(c.env, linkOrigin(c), getCookie(c, cookieNames(c).link), clientAddressKey(c));
    return c.json({ ok: true, message: VIPPS_LOGIN_TEXTS.linkMailSent });
  })
  .post("/link/confirm", validate("json", vippsLinkCodeSchema), async (c) => {
    await enforceRateLimits(c.var.db, [[RATE_RULES.callbackAddress, clientAddressKey(c)]]);
    return signedIn(c, await linkWithMailCode(c.env, c.req.valid("json").code, clientInfo(c)), null);
  });

/** The profile's Vipps section: the link's state, "Koble til Vipps" and "Koble fra Vipps" (the password again for both). */
export const vippsAccountRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", noStore, async (c) => {
    return c.json(await vippsStatus(c.env, actorOf(c).id));
  })
  .post("/start", validate("json", passwordConfirmationSchema), async (c) => {
    await enforceRateLimits(c.var.db, [
      [RATE_RULES.reauthAccount, actorOf(c).id],
      [RATE_RULES.reauthAddress, clientAddressKey(c)],
    ]);
    const url = await startProfileLink(c.env, {
      userId: actorOf(c).id,
      password: c.req.valid("json").password,
      redirectUri: redirectUri(c),
      browserToken: browserToken(c),
    });
    return c.json({ url });
  })
  .delete("/", validate("json", passwordConfirmationSchema), async (c) => {
    await enforceRateLimits(c.var.db, [
      [RATE_RULES.reauthAccount, actorOf(c).id],
      [RATE_RULES.reauthAddress, clientAddressKey(c)],
    ]);
    await unlinkVipps(c.env, actorOf(c).id, c.req.valid("json").password);
    return c.body(null, 204);
  });
