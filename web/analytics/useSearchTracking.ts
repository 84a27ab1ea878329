import { useEffect, useRef } from "react";
import { withTracker } from "./track";

/**
 * Report a search with its filters and result count (docs/product.md "Server calls" analytics-track-search) once
 * its results are on screen. `search` is the page's query string; `total` is undefined while the
 * results for it are loading.
 */
export function useSearchTracking(search: string, total: number | undefined): void {
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (total === undefined || reported.current === search) return;
    reported.current = search;
    // The tracker's module reads the query (domain/analytics): the search page's first load carries none of it.
    withTracker((tracker) => tracker.searchAt(`/search${search}`, total));
  }, [search, total]);
}
