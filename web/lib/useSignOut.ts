import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useLocation, useNavigate, type NavigateFunction } from "react-router-dom";
import { isApiError } from "../api/client";
import { configQuery } from "../api/shell";
import { applySignedOut, signOut } from "../api/auth";
import { signOutState } from "./signOutState";
import { toastError, toastSuccess } from "./toast";
import { APP_NAME } from "./useDocumentTitle";

/**
 * Forget the session and go to `to`. The page being left may be login-required: signOutState keeps
 * its guard from sending the visitor to /auth before `to` has rendered.
 */
export function leaveSignedOut(navigate: NavigateFunction, queryClient: QueryClient, to: string, from: string): void {
  if (from !== to) signOutState.start();
  applySignedOut(queryClient);
  navigate(to);
}

/** Sign out, forget the user's cached data, say so ("Logget ut") and go to the home page. */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { data: config } = useQuery(configQuery());
  const appName = config?.appName ?? APP_NAME;

  return useCallback(async () => {
    try {
      await signOut();
    } catch (error) {
      // A session that already ended is the outcome the user asked for.
      if (!(isApiError(error) && error.status === 401)) {
        toastError("Feil", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.", { error });
        return;
      }
    }
    leaveSignedOut(navigate, queryClient, "/", pathname);
    toastSuccess("Logget ut", `Du er nå logget ut av ${appName}`);
  }, [appName, navigate, pathname, queryClient]);
}
