import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { sessionQuery, type Session, type SessionUser } from "../api/auth";

export type SessionState =
  | { status: "loading"; user: null }
  | { status: "signed-out"; user: null }
  | { status: "signed-in"; user: SessionUser };

/** The session as three states; a failed session request counts as signed out. */
export function useSession(): SessionState {
  const { data, isPending } = useQuery(sessionQuery());
  if (isPending) return { status: "loading", user: null };
  if (!data) return { status: "signed-out", user: null };
  return { status: "signed-in", user: data.user };
}

/**
 * The session once it is known: at once when it is, else when its check answers. A press that
 * depends on who is signed in awaits this instead of being dropped while the check is on its way
 * (the first seconds of every page); null is signed out, as a failed check is.
 */
export function useSessionWhenKnown(): () => Promise<Session | null> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.ensureQueryData(sessionQuery()).catch(() => null), [queryClient]);
}

/**
 * Put on a control that differs by who is signed in (a visitor's "Logg inn", a listing's actions,
 * which its owner does not get): index.html keeps it hidden while a browser that signed in waits
 * for its session's check (`data-session="pending"` on <html>, set from the readable hint cookie
 * before the first paint; the header lifts it once the session is known). The space stays, so
 * nothing moves when it shows.
 */
export const SESSION_DEPENDENT = { "data-session-dependent": "" } as const;
export const SESSION_PENDING_ATTRIBUTE = "data-session";

export function isModerator(user: SessionUser | null): boolean {
  return user?.role === "moderator" || user?.role === "admin";
}
