import type { ListingPage } from "../../api/listings";

/**
 * The Worker inlines the listing of an /annonse/{slug} page as
 * `<script id="preloaded-listing" type="application/json">` (decision 008). It is read once, the
 * element removed, and used only for the slug it was rendered for.
 */
let preloaded: ListingPage | null | undefined;
/** While the Worker renders the page (web/ssr): the listing it inlines. */
let rendering: ListingPage | undefined;

/** Runs `render` (synchronous) with `listing` as the inlined listing, as the browser will see it. */
export function withPreloadedListing<T>(listing: ListingPage | undefined, render: () => T): T {
  const previous = rendering;
  rendering = listing;
  try {
    return render();
  } finally {
    rendering = previous;
  }
}

export function takePreloadedListing(slug: string): ListingPage | undefined {
  if (rendering) return rendering.seo_slug === slug ? rendering : undefined;
  if (preloaded === undefined) {
    preloaded = null;
    const element = typeof document === "undefined" ? null : document.getElementById("preloaded-listing");
    if (element) {
      try {
        const value: unknown = JSON.parse(element.textContent ?? "");
        if (value && typeof value === "object" && "seo_slug" in value && "id" in value) preloaded = value as ListingPage;
      } catch {
        preloaded = null;
      }
      element.remove();
    }
  }
  return preloaded && preloaded.seo_slug === slug ? preloaded : undefined;
}

/** For tests: forget what was read. */
export function resetPreloadedListing(): void {
  preloaded = undefined;
}
