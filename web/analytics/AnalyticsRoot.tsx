import { useEffect } from "react";
import { useLocation } from "react-router-dom";
import { notePath, stopTracking, withTracker } from "./track";
import { useConsent } from "./useConsent";

/**
 * Mounted once in the root layout after the first render: notes every page for the listing views'
 * referrer, and counts page views with consent (the consent banner itself is static HTML).
 */
export default function AnalyticsRoot() {
  const location = useLocation();
  const consent = useConsent();
  const path = location.pathname + location.search;

  useEffect(() => notePath(path), [path]);

  // A page view per page, not per change of the search page's query while typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the pathname is the trigger (a new page), not an input
  useEffect(() => {
    if (consent === "analytics") withTracker((tracker) => tracker.pageView());
  }, [location.pathname, consent]);

  useEffect(() => {
    if (consent !== "analytics") stopTracking();
  }, [consent]);

  return null;
}
