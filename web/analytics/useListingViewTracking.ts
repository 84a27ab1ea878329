import { useEffect } from "react";
import { useLocation } from "react-router-dom";
import type { ListingViewHandle } from "./listingView";

// The tracking helpers load only with consent: a visitor who has not accepted analytics loads none
// of it with the listing. Once loaded (the analytics root loads them too, and notes the pages seen).
let track: typeof import("./track") | undefined;
const loadTrack = () => import("./track").then((module) => (track = module));
import { useConsent } from "./useConsent";

/**
 * Report a visit to a listing page (docs/product.md "Server calls" analytics-track-listing-view) while it is shown:
 * where the visitor came from, the search that led here, scroll depth and time. `skip` while the
 * viewer is unknown or is the owner (a seller's own visits are not views).
 */
export function useListingViewTracking(listingId: string, skip: boolean): void {
  const location = useLocation();
  const consent = useConsent();
  const path = location.pathname + location.search;

  // A new view per listing, and when consent is given on the page; the path is read once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: consent is a trigger and the path is read once on purpose
  useEffect(() => {
    if (skip || consent !== "analytics") return;
    // Where the visitor came from is read now; the tracker's chunk turns it into the view's context
    // (domain/analytics stays out of the listing page's first load). No page was noted before the
    // helpers loaded.
    const previous = track ? track.pathBefore(path) : null;
    const documentReferrer = document.referrer;
    let handle: ListingViewHandle | null = null;
    let left = false;
    void loadTrack().then(({ withTracker }) =>
      withTracker((tracker) => {
        if (!left) handle = tracker.startListingViewFrom(listingId, previous, documentReferrer);
      }),
    );
    return () => {
      left = true;
      handle?.end();
    };
  }, [listingId, skip, consent]);
}
