// The header's live unread badge (docs/decisions/029-live-unread-badge.md): one socket per tab to
// the user's UserInbox, which pushes the unread count whenever a message arrives or is read in any
// of the user's conversations. Loaded lazily once the user is signed in.
import type { QueryClient } from "@tanstack/react-query";
import type { InboxFrame } from "../../domain/chat";
import { authKeys } from "../api/auth";
import { chatKeys, liveUrl } from "../api/chat";
import { LiveSocket } from "./liveSocket";

export function startLiveInbox(queryClient: QueryClient): () => void {
  const socket = new LiveSocket({
    url: () => liveUrl("/api/conversations/live"),
    onFrame: (frame) => {
      const f = frame as InboxFrame;
      if (f?.type !== "unread" || typeof f.count !== "number") return;
      queryClient.setQueryData(chatKeys.unreadCount, f.count);
      void refreshInbox(queryClient);
    },
    // Every signed-in page has this socket: when the server ends its session, ask again who is
    // signed in, so a sign-out in another tab shows here too (login-required pages then ask to sign in).
    onSessionEnded: () => void queryClient.invalidateQueries({ queryKey: authKeys.session }),
  });
  socket.start();
  return () => socket.stop();
}

/**
 * The inbox page shows last messages and per-conversation counts: load it again if it is open. The
 * server pushes the count only once the inbox list has the change (docs/decisions/107), so a load
 * started now shows it; a load already under way may have been answered before it, and react-query
 * would hand that answer back instead of a new one when the list has no data yet (its first load).
 * So that load is cancelled first: the list is never older than the badge.
 */
async function refreshInbox(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: chatKeys.list });
  await queryClient.invalidateQueries({ queryKey: chatKeys.list });
}
