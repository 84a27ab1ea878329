// The favourite heart on listing cards and the listing page. Cards are in the home page's first
// load (120 KB gzip budget), so this stays small: no new libraries, and the ids are fetched only
// when someone is signed in, once for every card on the page.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router-dom";
import { isApiError } from "../api/client";
import { favouriteIdsQuery, favouriteKeys, invalidateFavouriteLists, setFavourite } from "../api/favourites";
import { toastError } from "./toast";
import { useSession } from "./useSession";

export interface Favourite {
  isFavourite: boolean;
  toggle: () => void;
}

export function useFavourite(listingId: string): Favourite {
  const session = useSession();
  const signedIn = session.status === "signed-in";
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { data } = useQuery({ ...favouriteIdsQuery(), enabled: signedIn });
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
      queryClient.setQueryData<string[]>(favouriteKeys.ids, (ids = []) => [
        ...ids.filter((id) => id !== listingId),
        ...(on ? [listingId] : []),
      ]);
    void queryClient.cancelQueries({ queryKey: favouriteKeys.ids });
    apply(add);
    setFavourite(listingId, add)
      .then(() => invalidateFavouriteLists(queryClient))
      .catch((error: unknown) => {
        apply(!add);
        toastError("Feil", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.");
      });
  };

  return { isFavourite, toggle };
}
