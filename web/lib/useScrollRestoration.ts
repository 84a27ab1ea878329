import { useEffect, useLayoutEffect } from "react";
import { useLocation, useNavigationType, type Location } from "react-router-dom";

/**
 * Scroll positions per history entry. The browser's own restoration runs when Back is pressed,
 * before the page's code and data are back, so the page is still short and it lands at the top.
 * Here every entry's position is remembered (in sessionStorage, keyed by React Router's entry key,
 * so it survives a reload), and Back or Forward scrolls there once the page is tall enough again.
 * New pages start at the top (or at their #fragment).
 */
const STORAGE_KEY = "lekebytte:scroll";
/** Give up waiting for the page to grow after this long (it may simply be shorter now). */
const RESTORE_FOR_MS = 4_000;
const MAX_ENTRIES = 50;

type Positions = Record<string, number>;

function load(): Positions {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    const value: unknown = raw ? JSON.parse(raw) : {};
    return value && typeof value === "object" ? (value as Positions) : {};
  } catch {
    return {};
  }
}

function save(positions: Positions): void {
  try {
    const keys = Object.keys(positions);
    for (const key of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete positions[key];
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions));
  } catch {
    // Private mode or full storage: positions are then kept for this page view only.
  }
}

const positions: Positions = typeof window === "undefined" ? {} : load();
/** The entry on screen: a scroll event that arrives after a navigation must not count for the old one. */
let shownKey: string | undefined;

/** Whether the user comes back to this entry scrolled down (then nothing should scroll it elsewhere, e.g. by focusing). */
export function returnsScrolled(location: Location, navigationType: string): boolean {
  return navigationType === "POP" && (positions[entryKey(location)] ?? 0) > 0;
}

/**
 * The entry's key with its address: the first entry of every page load is "default" (no history
 * state yet), so the key alone would mix up pages opened directly.
 */
function entryKey(location: Location): string {
  return `${location.key}:${location.pathname}${location.search}`;
}

/** Scroll to `top` as soon as the document is tall enough; stops when reached, on user input or after a while. */
function restore(top: number): () => void {
  const started = performance.now();
  let frame = 0;
  const stopEvents = ["wheel", "touchstart", "keydown", "mousedown"] as const;
  // Cells that skip their layout off screen are laid out meanwhile (styles.css): the place scrolled to is exact.
  const root = document.documentElement;
  root.setAttribute("data-restoring-scroll", "");
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of stopEvents) window.removeEventListener(type, stop);
    root.removeAttribute("data-restoring-scroll");
  };
  const attempt = () => {
    window.scrollTo(0, top);
    if (Math.abs(window.scrollY - top) <= 1 || performance.now() - started > RESTORE_FOR_MS) return stop();
    frame = requestAnimationFrame(attempt);
  };
  for (const type of stopEvents) window.addEventListener(type, stop, { passive: true });
  attempt();
  return stop;
}

export function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";
  }, []);

  // Remember where this entry is scrolled to, while it is shown.
  const key = entryKey(location);
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (shownKey === key) positions[key] = window.scrollY;
      });
    };
    const persist = () => save(positions);
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("pagehide", persist);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("pagehide", persist);
      persist();
    };
  }, [key]);

  // Before paint: a new entry starts at the top, a revisited one where it was left.
  useLayoutEffect(() => {
    shownKey = key;
    if (navigationType === "POP") {
      const top = positions[key];
      return top ? restore(top) : undefined;
    }
    if (!location.hash) window.scrollTo(0, 0);
    return undefined;
  }, [key, location.hash, navigationType]);
}
