import { lazy, Suspense, useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";
import { setConsentBannerNavigation } from "./consentBanner";
import { useConsent } from "./useConsent";

// The page-view tracking loads only with consent, after the first render and after the browser has
// had a moment to itself, so it never delays what the visitor came for; the consent banner is static HTML
// (index.html, web/analytics/consentBanner.ts) and waits for none of this. A failed load shows
// nothing (analytics never shows an error).
const AnalyticsRoot = lazy(() =>
  import("./AnalyticsRoot").catch((error: unknown) => {
    console.warn("Analytics: could not load", error);
    return { default: () => null };
  }),
);

export function DeferredAnalytics() {
  const [ready, setReady] = useState(false);
  // Nothing of analytics loads before the visitor has accepted it; once loaded it stays, to see a
  // withdrawal through (it stops the tracker).
  const consent = useConsent();
  const [accepted, setAccepted] = useState(false);
  if (consent === "analytics" && !accepted) setAccepted(true);
  const navigate = useNavigate();
  // The banner's "personvernsiden" link: a navigation inside the app once the router runs.
  useEffect(() => setConsentBannerNavigation((path) => void navigate(path)), [navigate]);
  useEffect(() => {
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(() => setReady(true), { timeout: 1500 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(() => setReady(true), 200);
    return () => window.clearTimeout(id);
  }, []);
  if (!ready || !accepted) return null;
  return (
    <Suspense fallback={null}>
      <AnalyticsRoot />
    </Suspense>
  );
}
