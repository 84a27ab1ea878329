// The auth feature (/api/auth): the session, sign-in and sign-up, the confirmation e-mail and the
// sign-in link's code exchange. The session query is in every page's first load: keep this small.
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import { api, call, isApiError, onSessionRefreshed, type ResponseBody } from "./client";

/** GET /api/auth/session when someone is signed in (epoch seconds); a visitor gets `null`. */
export type Session = NonNullable<ResponseBody<typeof api.auth.session.$get>>;
export type SessionUser = Session["user"];

export type SignInBody = InferRequestType<typeof api.auth.signin.$post>["json"];
export type SignUpBody = InferRequestType<typeof api.auth.signup.$post>["json"];
export type ResendBody = InferRequestType<typeof api.auth.resend.$post>["json"];

export const authKeys = {
  session: ["session"] as const,
};

export function sessionExpiresAtMs(session: Pick<Session, "expires_at">): number {
  return session.expires_at * 1000;
}

function isSession(value: unknown): value is Session {
  return (
    typeof value === "object" && value !== null && "user" in value && typeof (value as { expires_at?: unknown }).expires_at === "number"
  );
}

/** Keep the session query in step with refreshes that the client does on a 401. */
export function bindSessionRefresh(queryClient: QueryClient): void {
  onSessionRefreshed((body) => {
    if (isSession(body)) queryClient.setQueryData(authKeys.session, body);
  });
}

/**
 * The current session, or null when signed out. A visitor's check answers 200 with `null`; 401 means
 * session cookies that no longer work, which the API client refreshes once (then 401 is signed out too).
 * 404 and network failures count as signed out.
 */
export async function fetchSession(): Promise<Session | null> {
  try {
    return await call(api.auth.session.$get());
  } catch (error) {
    if (isApiError(error) && (error.status === 401 || error.status === 404 || error.code === "NETWORK")) return null;
    throw error;
  }
}

export const sessionQuery = () =>
  queryOptions({
    queryKey: authKeys.session,
    queryFn: fetchSession,
    staleTime: 60_000,
  });

export function signIn(body: SignInBody): Promise<Session> {
  return call(api.auth.signin.$post({ json: body }));
}

export function signOut(): Promise<void> {
  return call(api.auth.signout.$post());
}

export function signUp(body: SignUpBody) {
  return call(api.auth.signup.$post({ json: body }));
}

/** POST /api/auth/resend: the confirmation e-mail again (web/routes/auth/resendConfirmation.ts says so). */
export function resendConfirmationEmail(body: ResendBody) {
  return call(api.auth.resend.$post({ json: body }));
}

// One exchange per code for the life of the page: React's strict mode runs effects twice, and a
// second POST of the same one-time code would fail and show an error over a successful sign-in.
const exchanges = new Map<string, Promise<Session>>();

export function exchangeCodeOnce(code: string): Promise<Session> {
  let pending = exchanges.get(code);
  if (!pending) {
    pending = call(api.auth.callback.$post({ json: { code } }));
    exchanges.set(code, pending);
  }
  return pending;
}

/** After sign-in: store the session and refetch data that was loaded as a visitor. */
export function applySignedIn(queryClient: QueryClient, session: Session): void {
  const sessionKey = authKeys.session;
  queryClient.setQueryData(sessionKey, session);
  void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
}

/** After sign-out: forget the session and every cached query that may hold the user's data. */
export function applySignedOut(queryClient: QueryClient): void {
  const sessionKey = authKeys.session;
  // The site config (shell.ts) and the home page's sections (listings.ts) are the same for everyone.
  // Their keys are written out: importing those modules would tie every page's first chunk to them.
  const keep = new Set<unknown>([sessionKey[0], "config", "home"]);
  queryClient.removeQueries({ predicate: (query) => !keep.has(query.queryKey[0]) });
  queryClient.setQueryData(sessionKey, null);
}

// "Glemt passord?", "Lag nytt passord" and the links of an e-mail change (decision 125). Their pages
// are not in every page's first load; these are a few lines each.

export type ResetPasswordBody = InferRequestType<typeof api.auth.password.reset.$post>["json"];

/** POST /api/auth/password/forgot: the same answer whether or not the address has an account. */
export function requestPasswordReset(email: string) {
  return call(api.auth.password.forgot.$post({ json: { email } }));
}

/** Whether a "Lag nytt passord" link still works (a refusal says why: used, expired, replaced or unknown). */
export function checkPasswordResetLink(token: string) {
  return call(api.auth.password.reset.check.$post({ json: { token } }));
}

/** Sets the new password and signs this browser in (every other session has ended). */
export function resetPassword(body: ResetPasswordBody): Promise<Session> {
  return call(api.auth.password.reset.$post({ json: body }));
}

/** The new address's confirmation link: the account takes the address now. */
export function confirmEmailChange(token: string) {
  return call(api.auth.email.confirm.$post({ json: { token } }));
}

/** The old address's stop link: the change is cancelled or undone, and every session ends. */
export function stopEmailChange(token: string) {
  return call(api.auth.email.stop.$post({ json: { token } }));
}
