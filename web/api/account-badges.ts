// The two counts on the account button (saved searches with new matches, decision 041; queue
// notices, decision 075) and their react-query keys. Their own small module: every signed-in page
// loads the button, and the rest of those features' clients (the listings client with them) only
// loads with their pages. `saved-searches.ts` and `giveaways.ts` re-export what is here.
import { queryOptions } from "@tanstack/react-query";
import { api, call } from "./client";

export const savedSearchKeys = {
  /** Every saved-search query starts with this key (invalidate it after a change). */
  all: ["saved-searches"] as const,
  list: ["saved-searches", "list"] as const,
  badge: ["saved-searches", "badge"] as const,
  unsubscribe: (token: string) => ["saved-searches", "unsubscribe", token] as const,
};

export const giveawayKeys = {
  /** Every queue query starts with this key (invalidate it after a move). */
  all: ["giveaways"] as const,
  listing: (listingId: string, viewer: string | null) => ["giveaways", "listing", listingId, viewer] as const,
  mine: ["giveaways", "mine"] as const,
  unseen: ["giveaways", "unseen"] as const,
};

/** Both counts refresh every minute and when the tab comes back; a new match arrives by the queue. */
const REFRESH_MS = 60_000;

export const savedSearchBadgeQuery = () =>
  queryOptions({
    queryKey: savedSearchKeys.badge,
    queryFn: ({ signal }) => call(api["saved-searches"].badge.$get(undefined, { init: { signal } })).then((body) => body.count),
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: true,
    staleTime: 15_000,
  });

export const unseenGiveawaysQuery = () =>
  queryOptions({
    queryKey: giveawayKeys.unseen,
    queryFn: ({ signal }) => call(api.giveaways.mine.unseen.$get(undefined, { init: { signal } })).then((body) => body.count),
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: true,
    staleTime: 15_000,
  });
