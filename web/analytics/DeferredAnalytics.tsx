import { lazy, Suspense, useEffect, useState } from "react";

// The consent banner and the page-view tracking load after the first render and after the browser
// has had a moment to itself, so they never delay what the visitor came for. A failed load shows
// nothing (analytics never shows an error).
const AnalyticsRoot = lazy(() =>
  import("./AnalyticsRoot").catch((error: unknown) => {
    console.warn("Analytics: could not load", error);
    return { default: () => null };
  }),
);

export function DeferredAnalytics() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(() => setReady(true), { timeout: 1500 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(() => setReady(true), 200);
    return () => window.clearTimeout(id);
  }, []);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <AnalyticsRoot />
    </Suspense>
  );
}
