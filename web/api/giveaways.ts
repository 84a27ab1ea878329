// The giveaways feature: the give-away queue's endpoints through the typed client, and their
// react-query keys (docs/decisions/075-giveaway-queue.md). Loaded with the queue parts of a free
// listing's page and with "Mine køplasser" (the account button's notice count is in
// `account-badges.ts`).
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { giveawayKeys } from "./account-badges";
import { api, call, type ResponseBody } from "./client";
import { invalidateListingViews } from "./listings";

const endpoint = api.giveaways;

export type GiveawayView = ResponseBody<(typeof endpoint.listings)[":listingId"]["$get"]>;
export type MyGiveawayPlace = ResponseBody<typeof endpoint.mine.$get>[number];

export { giveawayKeys, unseenGiveawaysQuery } from "./account-badges";

const param = (listingId: string) => ({ listingId: encodeURIComponent(listingId) });

export const giveawayViewQuery = (listingId: string, viewer: string | null) =>
  queryOptions({
    queryKey: giveawayKeys.listing(listingId, viewer),
    queryFn: ({ signal }) => call(endpoint.listings[":listingId"].$get({ param: param(listingId) }, { init: { signal } })),
  });

export const myGiveawayPlacesQuery = () =>
  queryOptions({
    queryKey: giveawayKeys.mine,
    queryFn: ({ signal }) => call(endpoint.mine.$get(undefined, { init: { signal } })),
  });

export const joinQueue = (listingId: string, message: string) =>
  call(endpoint.listings[":listingId"].queue.$post({ param: param(listingId), json: { message } }));
export const leaveQueue = (listingId: string) => call(endpoint.listings[":listingId"].leave.$post({ param: param(listingId) }));
/** "Reserver" for one person of the queue (the API also takes no entry: whoever is first then). */
export const reserveEntry = (listingId: string, entryId: string) =>
  call(endpoint.listings[":listingId"].reserve.$post({ param: param(listingId), json: { entry_id: entryId } }));
export const releaseReservation = (listingId: string) => call(endpoint.listings[":listingId"].release.$post({ param: param(listingId) }));
export const markGiven = (listingId: string) => call(endpoint.listings[":listingId"].give.$post({ param: param(listingId) }));
export const markNoticesSeen = () => call(endpoint.mine.seen.$post());

/** After a move: the queue views, and the listing itself (its status and "Reservert" badge). */
export async function refreshAfterMove(queryClient: QueryClient): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: giveawayKeys.all }), invalidateListingViews(queryClient)]);
}
