// The saved-searches feature: its endpoints through the typed client, and their react-query keys.
// Loaded with the account menu (signed-in users only), the search page's save dialog and the
// "Lagrede søk" pages.
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import { api, call, type ResponseBody } from "./client";

const endpoint = api["saved-searches"];

export type SavedSearch = ResponseBody<typeof endpoint.$get>[number];
export type SavedSearchCreateBody = InferRequestType<typeof endpoint.$post>["json"];
export type SavedSearchUpdateBody = InferRequestType<(typeof endpoint)[":id"]["$patch"]>["json"];

export const savedSearchKeys = {
  /** Every saved-search query starts with this key (invalidate it after a change). */
  all: ["saved-searches"] as const,
  list: ["saved-searches", "list"] as const,
  badge: ["saved-searches", "badge"] as const,
  unsubscribe: (token: string) => ["saved-searches", "unsubscribe", token] as const,
};
/** The badge refreshes every minute and when the tab comes back; a new match arrives by the queue. */
const BADGE_REFRESH_MS = 60_000;

export const savedSearchesQuery = () =>
  queryOptions({
    queryKey: savedSearchKeys.list,
    queryFn: ({ signal }) => call(endpoint.$get(undefined, { init: { signal } })),
  });

export const savedSearchBadgeQuery = () =>
  queryOptions({
    queryKey: savedSearchKeys.badge,
    queryFn: ({ signal }) => call(endpoint.badge.$get(undefined, { init: { signal } })).then((body) => body.count),
    refetchInterval: BADGE_REFRESH_MS,
    refetchOnWindowFocus: true,
    staleTime: 15_000,
  });

const param = (id: string) => ({ id: encodeURIComponent(id) });

export const createSavedSearch = (json: SavedSearchCreateBody) => call(endpoint.$post({ json }));
export const updateSavedSearch = (id: string, json: SavedSearchUpdateBody) => call(endpoint[":id"].$patch({ param: param(id), json }));
export const deleteSavedSearch = (id: string) => call(endpoint[":id"].$delete({ param: param(id) }));
export const markSavedSearchSeen = (id: string) => call(endpoint[":id"].seen.$post({ param: param(id) }));
export const unsubscribeSavedSearch = (token: string) => call(endpoint.unsubscribe.$post({ json: { token } }));

export function refreshSavedSearches(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: savedSearchKeys.all });
}
