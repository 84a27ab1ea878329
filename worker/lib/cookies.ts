import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { ACCESS_TTL_SECONDS } from "./jwt";

/** `__Host-` names and Secure need https; plain http (local development) gets unprefixed names. */
const NAMES = {
  https: {
    access: "__Host-lb_access",
    refresh: "__Secure-lb_refresh",
    device: "__Secure-lb_device",
    bookmark: "__Host-lb_d1",
    signedIn: "__Host-lb_signed_in",
  },
  http: { access: "lb_access", refresh: "lb_refresh", device: "lb_device", bookmark: "lb_d1", signedIn: "lb_signed_in" },
};

function names(c: Context) {
  const secure = new URL(c.req.url).protocol === "https:";
  return { secure, ...(secure ? NAMES.https : NAMES.http) };
}

/** The device cookie (docs/decisions/084-device-cookies.md) goes to the sign-in route only. */
const DEVICE_COOKIE_PATH = "/api/auth/signin";
/** A year: it remembers that this browser signed in before, longer than any session lasts. */
export const DEVICE_COOKIE_MAX_AGE = 365 * 24 * 3600;

export function readDeviceCookie(c: Context): string | undefined {
  return getCookie(c, names(c).device);
}

/**
 * HttpOnly (scripts never see it), Secure with a `__Secure-` name over https, SameSite=Strict (no
 * other site can make the browser send it). It outlives sign-out: it is no session, only the
 * memory that this browser has signed in to the account before.
 */
export function setDeviceCookie(c: Context, value: string): void {
  const n = names(c);
  setCookie(c, n.device, value, {
    httpOnly: true,
    secure: n.secure,
    sameSite: "Strict",
    path: DEVICE_COOKIE_PATH,
    maxAge: DEVICE_COOKIE_MAX_AGE,
  });
}

export function readAccessCookie(c: Context): string | undefined {
  return getCookie(c, names(c).access);
}

export function readRefreshCookie(c: Context): string | undefined {
  return getCookie(c, names(c).refresh);
}

/**
 * Whether the request carries a session (access or refresh cookie, under either scheme's name): such
 * a request is never answered from, nor stored in, the edge cache (docs/decisions/101-edge-cache.md).
 */
export function hasSessionCookie(c: Context): boolean {
  const cookies = getCookie(c);
  return [NAMES.https, NAMES.http].some((n) => cookies[n.access] !== undefined || cookies[n.refresh] !== undefined);
}

/**
 * `refreshMaxAge`: seconds the refresh token stays valid (the sliding lifetime, capped by the sign-in's absolute end).
 *
 * Beside the two session cookies, a hint the page's own first script reads (index.html): `1` while
 * this browser holds a session, so controls that depend on who is signed in stay hidden until the
 * app knows the session, instead of a visitor's showing first (docs/decisions/121). It is no
 * credential and grants nothing: readable by scripts, no session in it; it lives and ends with the
 * refresh cookie, and the app shows the visitor's controls when the session's check says signed out.
 */
export function setSessionCookies(c: Context, access: string, refresh: string, refreshMaxAge: number): void {
  const n = names(c);
  setCookie(c, n.access, access, { httpOnly: true, secure: n.secure, sameSite: "Lax", path: "/", maxAge: ACCESS_TTL_SECONDS });
  // The refresh token is only ever sent to the auth endpoints.
  setCookie(c, n.refresh, refresh, {
    httpOnly: true,
    secure: n.secure,
    sameSite: "Lax",
    path: "/api/auth",
    maxAge: refreshMaxAge,
  });
  setCookie(c, n.signedIn, "1", { secure: n.secure, sameSite: "Lax", path: "/", maxAge: refreshMaxAge });
}

/** When the account is deleted: the device cookie has nothing left to vouch for. */
export function clearDeviceCookie(c: Context): void {
  const n = names(c);
  deleteCookie(c, n.device, { path: DEVICE_COOKIE_PATH, secure: n.secure });
}

export function clearSessionCookies(c: Context): void {
  const n = names(c);
  deleteCookie(c, n.access, { path: "/", secure: n.secure });
  deleteCookie(c, n.refresh, { path: "/api/auth", secure: n.secure });
  deleteCookie(c, n.signedIn, { path: "/", secure: n.secure });
}

/**
 * The D1 bookmark cookie (docs/decisions/110-read-replicas.md): how far the database had got when
 * this browser last wrote, so its next reads come from a replica at least that fresh. A few minutes:
 * replicas catch up within seconds, and after that any replica will do.
 */
export const BOOKMARK_COOKIE_MAX_AGE = 5 * 60;
/** D1's bookmark shape (four hex groups); anything else is ignored, as if there were no cookie. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

export function isBookmark(value: string | null | undefined): value is string {
  return typeof value === "string" && BOOKMARK.test(value);
}

/** The request's bookmark when it is one; a malformed cookie counts as none. */
export function readBookmarkCookie(c: Context): string | undefined {
  const value = getCookie(c, names(c).bookmark);
  return isBookmark(value) ? value : undefined;
}

/** Not secret (a position in the database's history), but HttpOnly and Secure like the others. */
export function setBookmarkCookie(c: Context, bookmark: string): void {
  const n = names(c);
  setCookie(c, n.bookmark, bookmark, { httpOnly: true, secure: n.secure, sameSite: "Lax", path: "/", maxAge: BOOKMARK_COOKIE_MAX_AGE });
}
