// The saved-searches feature: its endpoints through the typed client, and their react-query keys.
// Loaded with the search page's save dialog and the "Lagrede søk" pages (the account button's
// count is in `account-badges.ts`).
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import { savedSearchKeys } from "./account-badges";
import { api, call, type ResponseBody } from "./client";

const endpoint = api["saved-searches"];

export type SavedSearch = ResponseBody<typeof endpoint.$get>[number];
export type SavedSearchCreateBody = InferRequestType<typeof endpoint.$post>["json"];
export type SavedSearchUpdateBody = InferRequestType<(typeof endpoint)[":id"]["$patch"]>["json"];

export { savedSearchBadgeQuery, savedSearchKeys } from "./account-badges";

export const savedSearchesQuery = () =>
  queryOptions({
    queryKey: savedSearchKeys.list,
    queryFn: ({ signal }) => call(endpoint.$get(undefined, { init: { signal } })),
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
