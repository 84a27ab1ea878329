import { useEffect, useRef } from "react";
import { searchContextOf } from "../../domain/analytics";
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
    const context = searchContextOf(`/search${search}`);
    if (!context) return;
    withTracker((tracker) => tracker.search(context.searchQuery ?? "", context.filterContext ?? {}, total));
  }, [search, total]);
}
