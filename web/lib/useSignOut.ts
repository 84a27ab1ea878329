import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useNavigate, type NavigateFunction } from "react-router-dom";
import { isApiError } from "../api/client";
import { configQuery } from "../api/queries";
import { applySignedOut, signOut } from "../api/session";
import { toastError, toastSuccess } from "./toast";
import { APP_NAME } from "./useDocumentTitle";

/**
 * Go to `to` and return once React has rendered it, so that forgetting the session afterwards does
 * not make a login-required page's guard send the visitor to /auth instead. A navigation that
 * still has to load a lazy page commits in a transition, after `navigate` has resolved; a second
 * navigation to the same place has nothing to load, and its flushSync commit is synchronous.
 */
export async function navigateAndRender(navigate: NavigateFunction, to: string): Promise<void> {
  await navigate(to);
  await navigate(to, { replace: true, flushSync: true });
}

/** Sign out, forget the user's cached data, say so ("Logget ut") and go to the home page. */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { data: config } = useQuery(configQuery());
  const appName = config?.appName ?? APP_NAME;

  return useCallback(async () => {
    try {
      await signOut();
    } catch (error) {
      // A session that already ended is the outcome the user asked for.
      if (!(isApiError(error) && error.status === 401)) {
        toastError("Feil", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.");
        return;
      }
    }
    await navigateAndRender(navigate, "/");
    applySignedOut(queryClient);
    toastSuccess("Logget ut", `Du er nå logget ut av ${appName}`);
  }, [appName, navigate, queryClient]);
}
