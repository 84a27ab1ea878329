// The favourite heart on listing cards and the listing page. Cards are in the home page's first
// load (120 KB gzip budget), so this stays small: no new libraries, and the ids are fetched only
// when someone is signed in, once for every card on the page.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router-dom";
import { api, call, isApiError } from "../api/client";
import { toastError } from "./toast";
import { useSession } from "./useSession";

export const favouriteIdsKey = ["favourites", "ids"] as const;

export interface Favourite {
  isFavourite: boolean;
  toggle: () => void;
}

export function useFavourite(listingId: string): Favourite {
  const session = useSession();
  const signedIn = session.status === "signed-in";
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { data } = useQuery({
    queryKey: favouriteIdsKey,
    queryFn: ({ signal }) => call(api.favourites.ids.$get(undefined, { init: { signal } })),
    enabled: signedIn,
    staleTime: 300_000,
  });
  const isFavourite = signedIn && !!data?.includes(listingId);

  const toggle = () => {
    if (session.status === "loading") return;
    if (!signedIn) {
      toastError("Logg inn påkrevd", "Du må være logget inn for å lagre favoritter", { id: "login-required" });
      navigate("/auth");
      return;
    }
    const add = !isFavourite;
    // Optimistic. The undo is the opposite change, not a snapshot, so taps on other hearts survive.
    const apply = (on: boolean) =>
      queryClient.setQueryData<string[]>(favouriteIdsKey, (ids = []) => [
        ...ids.filter((id) => id !== listingId),
        ...(on ? [listingId] : []),
      ]);
    void queryClient.cancelQueries({ queryKey: favouriteIdsKey });
    apply(add);
    const param = { listingId: encodeURIComponent(listingId) };
    call(add ? api.favourites[":listingId"].$put({ param }) : api.favourites[":listingId"].$delete({ param }))
      // A cached favourites list is stale now (the ids are already right).
      .then(() => queryClient.invalidateQueries({ predicate: ({ queryKey: [a, b] }) => a === "favourites" && b !== "ids" }))
      .catch((error: unknown) => {
        apply(!add);
        toastError("Feil", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.");
      });
  };

  return { isFavourite, toggle };
}
