import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { isApiError } from "../api/client";
import { configQuery } from "../api/queries";
import { applySignedOut, signOut } from "../api/session";
import { toastError, toastSuccess } from "./toast";
import { APP_NAME } from "./useDocumentTitle";

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
    applySignedOut(queryClient);
    toastSuccess("Logget ut", `Du er nå logget ut av ${appName}`);
    navigate("/");
  }, [appName, navigate, queryClient]);
}
