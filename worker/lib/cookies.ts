import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { ACCESS_TTL_SECONDS } from "./jwt";

/** `__Host-` names and Secure need https; plain http (local development) gets unprefixed names. */
function names(c: Context) {
  const secure = new URL(c.req.url).protocol === "https:";
  return {
    secure,
    access: secure ? "__Host-lb_access" : "lb_access",
    refresh: secure ? "__Secure-lb_refresh" : "lb_refresh",
  };
}

export function readAccessCookie(c: Context): string | undefined {
  return getCookie(c, names(c).access);
}

export function readRefreshCookie(c: Context): string | undefined {
  return getCookie(c, names(c).refresh);
}

/** `refreshMaxAge`: seconds the refresh token stays valid (the sliding lifetime, capped by the sign-in's absolute end). */
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
}

export function clearSessionCookies(c: Context): void {
  const n = names(c);
  deleteCookie(c, n.access, { path: "/", secure: n.secure });
  deleteCookie(c, n.refresh, { path: "/api/auth", secure: n.secure });
}
