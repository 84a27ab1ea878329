// The analytics feature's statistics for sellers (the tracker that sends page views and events is
// web/analytics/tracker.ts, with its own transport: sendBeacon when the page is hidden).
import { queryOptions } from "@tanstack/react-query";
import { LISTING_ANALYTICS_DEFAULT_DAYS } from "../../domain/analytics";
import { api, call } from "./client";

// Under "me": sign-out removes the signed-in user's data, statistics included.
export const analyticsKeys = {
  listing: (id: string, days: number) => ["me", "listing-stats", id, days] as const,
  summary: (days: number) => ["me", "listing-stats-summary", days] as const,
};

/** GET /api/analytics/listings/:id?days= (docs/product.md "Server calls" get_listing_analytics). */
export const listingStatsQuery = (listingId: string, days: number = LISTING_ANALYTICS_DEFAULT_DAYS) =>
  queryOptions({
    queryKey: analyticsKeys.listing(listingId, days),
    queryFn: ({ signal }) =>
      call(
        api.analytics.listings[":id"].$get(
          { param: { id: encodeURIComponent(listingId) }, query: { days: String(days) } },
          { init: { signal } },
        ),
      ),
    staleTime: 60_000,
  });

/** GET /api/analytics/my-listings: views per own listing, for "Mine annonser". */
export const ownListingsStatsQuery = (days: number = LISTING_ANALYTICS_DEFAULT_DAYS) =>
  queryOptions({
    queryKey: analyticsKeys.summary(days),
    queryFn: ({ signal }) => call(api.analytics["my-listings"].$get({ query: { days: String(days) } }, { init: { signal } })),
    staleTime: 60_000,
  });
