// The search feature: GET /api/search for the results page and the filter sheet's count.
import { infiniteQueryOptions, keepPreviousData, queryOptions, type InfiniteData } from "@tanstack/react-query";
import { SEARCH_PAGE_SIZE } from "../../domain/limits";
import type { SearchResult } from "../../domain/schemas/search";
import { api, call } from "./client";
import { preloadedData } from "./preloaded";
import { apiSearchQuery, filtersKey, type SearchFilters } from "../../domain/searchUrl";

export const searchKeys = {
  /** `filters`: the canonical URL query (filtersKey), so back/forward and a reload find the same entry. */
  results: (filters: string) => ["search", "results", filters] as const,
  count: (filters: string) => ["search", "count", filters] as const,
};

/** GET /api/search for one page, with the canonical query the URL carries. */
function searchPage(filters: SearchFilters, offset: number, limit: number | undefined, signal: AbortSignal) {
  const query = Object.fromEntries(new URLSearchParams(apiSearchQuery(filters, offset, limit)));
  return call(api.search.$get({ query }, { init: { signal } }));
}

/**
 * Result pages of 50 (docs/product.md "Limits and timings"), keyed by the canonical URL query, so back/forward and a
 * reload find the same cache entry. The previous results stay on screen while new filters load.
 */
export const searchResultsQuery = (filters: SearchFilters) =>
  infiniteQueryOptions({
    queryKey: searchKeys.results(filtersKey(filters)),
    queryFn: ({ pageParam, signal }) => searchPage(filters, pageParam, undefined, signal),
    initialPageParam: 0,
    // The first page of the address the page was loaded with comes inside the page (Worker preload).
    ...preloadedData<SearchResult, InfiniteData<SearchResult, number>>(`/api/search?${apiSearchQuery(filters, 0)}`, (first) => ({
      pages: [first],
      pageParams: [0],
    })),
    getNextPageParam: (lastPage, pages) => {
      const loaded = pages.reduce((n, page) => n + page.rows.length, 0);
      // A capped total ("Over 1 000 annonser") means there are more than it says.
      const more = loaded < lastPage.total || (lastPage.total_capped && lastPage.rows.length === SEARCH_PAGE_SIZE);
      return lastPage.rows.length > 0 && more ? loaded : undefined;
    },
    placeholderData: keepPreviousData,
  });

export interface SearchCount {
  total: number;
  capped: boolean;
}

/** Only the number of matches (one row), for the filter sheet's "Vis n annonser" button. */
export const searchCountQuery = (filters: SearchFilters, enabled = true) =>
  queryOptions<SearchCount>({
    queryKey: searchKeys.count(filtersKey(filters)),
    queryFn: ({ signal }) => searchPage(filters, 0, 1, signal).then((result) => ({ total: result.total, capped: result.total_capped })),
    placeholderData: keepPreviousData,
    enabled,
  });
