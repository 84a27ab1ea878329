// "Logg inn med Vipps": the auth feature's Vipps routes (/api/auth/vipps) and the profile's
// (/api/me/vipps). Apart from web/api/auth.ts, which every page's first load carries: only the
// sign-in page, /auth/vipps and the profile load this.
import { queryOptions } from "@tanstack/react-query";
import { api, call, type ResponseBody } from "./client";

/** GET /api/me/vipps: whether the account is linked, the phone Vipps verified, whether it has a password. */
export type VippsStatus = ResponseBody<typeof api.me.vipps.$get>;
/** POST /api/auth/vipps/callback: signed in, linked (from the profile), or a matched account to prove. */
export type VippsCallbackAnswer = ResponseBody<typeof api.auth.vipps.callback.$post>;
export type VippsSignedIn = Extract<VippsCallbackAnswer, { status: "signed_in" }>;

export const vippsKeys = {
  // Under "me": removed with the rest of the account's data on sign-out.
  status: ["me", "vipps"] as const,
  link: ["vipps", "link"] as const,
};

/** Start at /auth: the Vipps page the browser goes to next. */
export function startVippsLogin(next: string | null) {
  return call(api.auth.vipps.start.$post({ json: { next } }));
}

// One callback per state for the life of the page: React's strict mode runs effects twice, and the
// state can be spent only once.
const callbacks = new Map<string, Promise<VippsCallbackAnswer>>();

export function vippsCallbackOnce(params: { state: string; code?: string; error?: string; error_description?: string }) {
  let pending = callbacks.get(params.state);
  if (!pending) {
    pending = call(api.auth.vipps.callback.$post({ json: params }));
    callbacks.set(params.state, pending);
  }
  return pending;
}

const confirms = new Map<string, Promise<VippsSignedIn>>();

/** The link mailed to a matched account's address, opened. */
export function confirmVippsLinkOnce(code: string) {
  let pending = confirms.get(code);
  if (!pending) {
    pending = call(api.auth.vipps.link.confirm.$post({ json: { code } }));
    confirms.set(code, pending);
  }
  return pending;
}

export const vippsLinkQuery = () =>
  queryOptions({
    queryKey: vippsKeys.link,
    queryFn: ({ signal }) => call(api.auth.vipps.link.$get(undefined, { init: { signal } })),
    retry: false,
  });

export function proveVippsLinkWithPassword(password: string) {
  return call(api.auth.vipps.link.$post({ json: { password } }));
}

export function mailVippsLink() {
  return call(api.auth.vipps.link.mail.$post());
}

export const vippsStatusQuery = () =>
  queryOptions({
    queryKey: vippsKeys.status,
    queryFn: ({ signal }) => call(api.me.vipps.$get(undefined, { init: { signal } })),
  });

/** "Koble til Vipps" on the profile, with the password again. */
export function startVippsLink(password: string) {
  return call(api.me.vipps.start.$post({ json: { password } }));
}

/** "Koble fra Vipps", with the password again. */
export function unlinkVipps(password: string) {
  return call(api.me.vipps.$delete({ json: { password } }));
}
