import { useQuery } from "@tanstack/react-query";
import { UNREAD_BADGE_CAP } from "../../domain/limits";

/**
 * Unread messages for the header badge. The count endpoint arrives with the messaging issue; until
 * then the query never runs and the badge stays hidden. Whoever adds it fills in queryFn and
 * `enabled`, or writes the count with `queryClient.setQueryData(unreadCountKey, n)` (live pushes).
 */
export const unreadCountKey = ["messages", "unread-count"] as const;

export function useUnreadCount(signedIn: boolean): number | undefined {
  const { data } = useQuery<number>({
    queryKey: unreadCountKey,
    queryFn: () => Promise.reject(new Error("Unread count endpoint not available yet")),
    enabled: false,
  });
  return signedIn ? data : undefined;
}

/** "99+" above the cap (spec part 1 §9). */
export function formatUnreadCount(count: number): string {
  return count > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(count);
}
