import type { ListingPage } from "../../api/listings";

/**
 * The Worker inlines the listing of an /annonse/{slug} page as
 * `<script id="preloaded-listing" type="application/json">` (decision 008). It is read once, the
 * element removed, and used only for the slug it was rendered for.
 */
let preloaded: ListingPage | null | undefined;

export function takePreloadedListing(slug: string): ListingPage | undefined {
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
