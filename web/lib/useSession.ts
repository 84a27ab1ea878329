import { useQuery } from "@tanstack/react-query";
import { sessionQuery, type SessionUser } from "../api/auth";

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

export function isModerator(user: SessionUser | null): boolean {
  return user?.role === "moderator" || user?.role === "admin";
}
