import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { refreshSessionOnce } from "../api/client";
import { authKeys, sessionExpiresAtMs, sessionQuery } from "../api/auth";

const CHECK_EVERY_MS = 30_000;
const REFRESH_WHEN_LEFT_MS = 90_000;

/**
 * docs/product.md "Limits and timings": check the session every 30 s and refresh it when about 90 s or less remain.
 * A failed refresh means the session is over: refetch it (→ signed out).
 */
export function useSessionKeepAlive(): void {
  const queryClient = useQueryClient();
  const { data: session } = useQuery(sessionQuery());

  useEffect(() => {
    if (!session) return;
    const expiresAt = sessionExpiresAtMs(session);
    if (!Number.isFinite(expiresAt)) return;
    const timer = window.setInterval(() => {
      if (expiresAt - Date.now() > REFRESH_WHEN_LEFT_MS) return;
      void refreshSessionOnce().then((ok) => {
        if (!ok) void queryClient.invalidateQueries({ queryKey: authKeys.session });
      });
    }, CHECK_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [session, queryClient]);
}
