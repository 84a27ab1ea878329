import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { Role } from "../../domain/taxonomy";
import { apiFetch, isApiError, onSessionRefreshed } from "./client";

export interface SessionUser {
  id: string;
  email: string;
  display_name: string | null;
  role: Role;
}

/** GET /api/auth/session when someone is signed in (sign-in, callback and refresh answer the same fields). */
export interface Session {
  user: SessionUser;
  /** When the access cookie expires, in Unix seconds. */
  expires_at: number;
}

export function sessionExpiresAtMs(session: Pick<Session, "expires_at">): number {
  return session.expires_at * 1000;
}

function isSession(value: unknown): value is Session {
  return typeof value === "object" && value !== null && "user" in value && "expires_at" in value;
}

/** Keep the session query in step with refreshes that apiFetch does on a 401. */
export function bindSessionRefresh(queryClient: QueryClient): void {
  onSessionRefreshed((body) => {
    if (isSession(body)) queryClient.setQueryData(sessionQuery().queryKey, body);
  });
}

export interface SignInBody {
  email: string;
  password: string;
}

/**
 * The current session, or null when signed out. A visitor's check answers 200 with `null`; 401 means
 * session cookies that no longer work, which apiFetch refreshes once (then 401 is signed out too).
 * 404 and network failures count as signed out.
 */
export async function fetchSession(): Promise<Session | null> {
  try {
    return await apiFetch<Session | null>("/api/auth/session");
  } catch (error) {
    if (isApiError(error) && (error.status === 401 || error.status === 404 || error.code === "NETWORK")) return null;
    throw error;
  }
}

export const sessionQuery = () =>
  queryOptions({
    queryKey: ["session"] as const,
    queryFn: fetchSession,
    staleTime: 60_000,
  });

export function signIn(body: SignInBody): Promise<Session> {
  return apiFetch<Session>("/api/auth/signin", { method: "POST", body });
}

export function signOut(): Promise<void> {
  return apiFetch<void>("/api/auth/signout", { method: "POST" });
}

/** After sign-in: store the session and refetch data that was loaded as a visitor. */
export function applySignedIn(queryClient: QueryClient, session: Session): void {
  const sessionKey = sessionQuery().queryKey;
  queryClient.setQueryData(sessionKey, session);
  void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
}

/** After sign-out: forget the session and every cached query that may hold the user's data. */
export function applySignedOut(queryClient: QueryClient): void {
  const sessionKey = sessionQuery().queryKey;
  const keep = new Set<unknown>([sessionKey[0], "config", "home"]);
  queryClient.removeQueries({ predicate: (query) => !keep.has(query.queryKey[0]) });
  queryClient.setQueryData(sessionKey, null);
}
