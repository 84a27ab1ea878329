// What pages call to track something. Tiny on purpose: it checks consent and loads the tracker
// module only when there is consent, so pages carry no analytics code of their own and visitors
// without consent load none at all.
import { hasAnalyticsConsent } from "./consent";
import type { Tracker } from "./tracker";

type TrackerModule = typeof import("./tracker");
let loading: Promise<TrackerModule> | null = null;

/** Run `use` with the tracker when the visitor has accepted analytics; otherwise do nothing. */
export function withTracker(use: (tracker: Tracker) => void): void {
  if (!hasAnalyticsConsent()) return;
  loading ??= import("./tracker");
  loading
    .then((module) => {
      // Consent may have been withdrawn while the module loaded.
      if (hasAnalyticsConsent()) use(module.tracker());
    })
    .catch((error: unknown) => {
      loading = null;
      console.warn("Analytics: could not load the tracker", error);
    });
}

/** Consent withdrawn: stop the tracker if it ever started (without loading it to do so). */
export function stopTracking(): void {
  void loading?.then((module) => module.stopTracker()).catch(() => undefined);
}

/*
 * The previous page inside the app, for a listing view's referrerType: single-page navigation
 * leaves document.referrer as it was when the app loaded. The root layout notes every location.
 */
let currentPath: string | null = null;
let previousPath: string | null = null;

export function notePath(path: string): void {
  if (path === currentPath) return;
  previousPath = currentPath;
  currentPath = path;
}

/** The page before `path`: the previous one once `path` is noted, the current one before that. */
export function pathBefore(path: string): string | null {
  return currentPath === path ? previousPath : currentPath;
}
