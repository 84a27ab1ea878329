// The favourite heart on listing cards and the listing page. Cards are in the home page's first
// load (120 KB gzip budget), so this stays small: no new libraries, and the ids are fetched only
// when someone is signed in, once for every card on the page.
//
// A page shows up to 50 cards. Each heart reads one yes/no from the query cache through
// useSyncExternalStore, so a card renders again only when its own heart changes: the session's
// answer, which arrives while the page is still being taken over, changes no visitor's heart and
// renders no card again (a query and a session hook per card rendered all 50 at once, in one task).
import { QueryObserver, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { useNavigate } from "react-router-dom";
import { authKeys } from "../api/auth";
import { isApiError } from "../api/client";
import { favouriteIdsQuery, favouriteKeys, invalidateFavouriteLists, setFavourite } from "../api/favourites";
import { toastError } from "./toast";
import { useSessionWhenKnown } from "./useSession";

export interface Favourite {
  isFavourite: boolean;
  toggle: () => void;
}

const isKey = (key: readonly unknown[], of: readonly unknown[]) => of.every((part, i) => key[i] === part);

/**
 * What the hearts of one query client share while any is on screen: one observer of the ids (it
 * fetches them once someone is signed in, and again when they are invalidated) and the hearts'
 * listeners, told when the session or the ids change.
 */
interface Hearts {
  listeners: Set<() => void>;
  stop: () => void;
}
const heartsByClient = new WeakMap<QueryClient, Hearts>();

function watchHearts(queryClient: QueryClient, listener: () => void): () => void {
  let hearts = heartsByClient.get(queryClient);
  if (!hearts) {
    const listeners = new Set<() => void>();
    const ids = new QueryObserver(queryClient, { ...favouriteIdsQuery(), enabled: false });
    const follow = () => ids.setOptions({ ...favouriteIdsQuery(), enabled: !!queryClient.getQueryData(authKeys.session) });
    const stopIds = ids.subscribe(() => undefined);
    const stopCache = queryClient.getQueryCache().subscribe(({ query }) => {
      const signedInChanged = isKey(query.queryKey, authKeys.session);
      if (signedInChanged) follow();
      if (signedInChanged || isKey(query.queryKey, favouriteKeys.ids)) for (const notify of listeners) notify();
    });
    follow();
    hearts = {
      listeners,
      stop: () => {
        stopCache();
        stopIds();
      },
    };
    heartsByClient.set(queryClient, hearts);
  }
  const shared = hearts;
  shared.listeners.add(listener);
  return () => {
    shared.listeners.delete(listener);
    if (shared.listeners.size > 0) return;
    shared.stop();
    heartsByClient.delete(queryClient);
  };
}

function isFavouriteNow(queryClient: QueryClient, listingId: string): boolean {
  if (!queryClient.getQueryData(authKeys.session)) return false;
  return !!queryClient.getQueryData<string[]>(favouriteKeys.ids)?.includes(listingId);
}

export function useFavourite(listingId: string): Favourite {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const sessionWhenKnown = useSessionWhenKnown();
  const subscribe = useCallback((listener: () => void) => watchHearts(queryClient, listener), [queryClient]);
  // The edge renders every heart empty (it renders for visitors), and so does hydration.
  const isFavourite = useSyncExternalStore(
    subscribe,
    () => isFavouriteNow(queryClient, listingId),
    () => false,
  );

  // A press while the session is still being checked is carried out once it is known.
  const toggle = () => {
    void sessionWhenKnown().then((session) => {
      if (!session) {
        toastError("Logg inn påkrevd", "Du må være logget inn for å lagre favoritter", { id: "login-required" });
        navigate("/auth");
        return;
      }
      const add = !isFavouriteNow(queryClient, listingId);
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
          toastError("Feil", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.", { error });
        });
    });
  };

  return { isFavourite, toggle };
}
