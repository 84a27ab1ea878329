// The favourites feature. The ids are in the home page's first load (every listing card's heart,
// web/lib/useFavourite.ts): keep this small.
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { api, call } from "./client";

export const favouriteKeys = {
  /** The ids of the user's favourites, for every heart on the page. */
  ids: ["favourites", "ids"] as const,
  /** /favoritter: the favourited listings. */
  list: ["favourites", "list"] as const,
};

export const favouriteIdsQuery = () =>
  queryOptions({
    queryKey: favouriteKeys.ids,
    queryFn: ({ signal }) => call(api.favourites.ids.$get(undefined, { init: { signal } })),
    staleTime: 300_000,
  });

export const favouritesQuery = () =>
  queryOptions({
    queryKey: favouriteKeys.list,
    queryFn: ({ signal }) => call(api.favourites.$get(undefined, { init: { signal } })),
  });

/** PUT (`on`) or DELETE /api/favourites/:listingId. */
export function setFavourite(listingId: string, on: boolean): Promise<unknown> {
  const param = { listingId: encodeURIComponent(listingId) };
  return call(on ? api.favourites[":listingId"].$put({ param }) : api.favourites[":listingId"].$delete({ param }));
}

/** After a heart changes: a cached favourites list is stale (the ids are already right). */
export function invalidateFavouriteLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: ({ queryKey: [a, b] }) => a === "favourites" && b !== "ids" });
}
