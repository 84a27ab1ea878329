import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { UNREAD_BADGE_CAP, UNREAD_POLL_MS } from "../../domain/limits";
import { chatKeys, fetchUnreadCount } from "../api/chat-badge";

/**
 * Unread messages for the header badge: pushed live over the user's inbox socket (useLiveInbox), and
 * polled every 10 s as the fallback (docs/product.md "Limits and timings"). A failed poll is logged and the previous count
 * stays (react-query keeps the last data on error).
 */
export function useUnreadCount(signedIn: boolean): number | undefined {
  const { data } = useQuery<number>({
    queryKey: chatKeys.unreadCount,
    queryFn: async () => {
      try {
        return await fetchUnreadCount();
      } catch (error) {
        console.warn("Unread count failed; keeping the previous count", error);
        throw error;
      }
    },
    enabled: signedIn,
    refetchInterval: UNREAD_POLL_MS,
    retry: false,
  });

  return signedIn ? data : undefined;
}

/** Keeps one inbox socket open per tab while signed in (call once, in the header). */
export function useLiveInbox(signedIn: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!signedIn || typeof WebSocket === "undefined") return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("./liveInbox").then(({ startLiveInbox }) => {
      if (!cancelled) stop = startLiveInbox(queryClient);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [signedIn, queryClient]);
}

/** "99+" above the cap (docs/product.md "Limits and timings"). */
export function formatUnreadCount(count: number): string {
  return count > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(count);
}
