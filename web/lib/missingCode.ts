import { type ComponentType, lazy } from "react";

/**
 * A tab opened before a deploy asks for the app's code (a page's module, a dialog's) by the last
 * build's names; the new deployment answers them with a 404 (docs/decisions/164-missing-assets-are-404s.md).
 * Instead of the error screen, the page is loaded once more from the server: the new HTML names the
 * new build's files.
 * Once per address within a short while, so a module that cannot load at all still ends on the
 * error screen ("Noe gikk galt", "Prøv igjen") rather than in a loop; offline, the error screen
 * says more than the browser's own page would.
 */
const STORAGE_KEY = "lekebytte:missing-code-reload";
const ONCE_WITHIN_MS = 30_000;

/** The browsers' errors for a module script that could not be fetched (Chromium, Firefox, Safari). */
const NOT_FETCHED = /dynamically imported module|importing a module script failed/i;

export function isModuleNotFetched(error: unknown): boolean {
  return error instanceof TypeError && NOT_FETCHED.test(error.message);
}

/**
 * For a failed import of the app's code: reload the page (and never settle, so the page waits for
 * it) unless that was just done for this address; otherwise the error goes on to the error boundary.
 */
export function reloadOnceForMissingCode(error: unknown): Promise<never> {
  if (!isModuleNotFetched(error) || !navigator.onLine) return Promise.reject(error);
  const address = location.pathname + location.search;
  const now = Date.now();
  try {
    const last = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null") as { address?: string; at?: number } | null;
    if (last?.address === address && typeof last.at === "number" && now - last.at < ONCE_WITHIN_MS) {
      return Promise.reject(error);
    }
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ address, at: now }));
  } catch {
    // Without sessionStorage there is no way to tell a second failure from the first.
    return Promise.reject(error);
  }
  location.reload();
  return new Promise<never>(() => {});
}

type Loaded<T> = Promise<{ default: T }>;

/**
 * React's `lazy` for code loaded as a part renders (after a press, or as the page shows it), with
 * the reload above when the code is gone. Not for code fetched ahead while idle: a reload nobody
 * asked for could lose what was typed. A loader may hand back an already settled thenable (typed
 * as a promise, without `catch`): React then renders without waiting a tick, so it is passed on as
 * it is.
 */
// biome-ignore lint/suspicious/noExplicitAny: React's own lazy() takes any component type.
export function lazyCode<T extends ComponentType<any>>(load: () => Loaded<T>) {
  return lazy<T>(() => {
    const loading = load();
    return loading instanceof Promise ? loading.catch(reloadOnceForMissingCode) : loading;
  });
}
