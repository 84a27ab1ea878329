// One visit to a listing page, reported by the tracker (web/analytics/tracker.ts).
import { LISTING_VIEW_FINAL_MIN_MS, LISTING_VIEW_RESEND_MS, type ReferrerType, SCROLL_DEPTH_DEBOUNCE_MS } from "../../domain/analytics";
import { newId, send } from "./send";

export interface ListingViewContext {
  listingId: string;
  referrerType: ReferrerType;
  searchQuery: string | null;
  filterContext: Record<string, string> | null;
}

export interface ListingViewHandle {
  /** The visitor left the listing (navigation or page hide): the final report, if they stayed > 5 s. */
  end(): void;
}

/**
 * One visit to a listing page (docs/product.md "Limits and timings"): a report at the start, again after 30 seconds with
 * viewDurationMs 30000, on scrolling (debounced 1 second), and a final one on leaving only if the
 * stay exceeded 5 seconds. Reports share a view id, so the server counts one view. Time the page
 * spends hidden does not count as viewing.
 */
export class ListingViewRuntime implements ListingViewHandle {
  private readonly viewId = newId();
  private visibleSince: number | null = document.visibilityState === "hidden" ? null : Date.now();
  private visibleMs = 0;
  private depth = 0;
  private ended = false;
  private readonly resendTimer: ReturnType<typeof setTimeout>;
  private scrollTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly onScroll = () => {
    this.measureDepth();
    clearTimeout(this.scrollTimer);
    this.scrollTimer = setTimeout(() => this.report(this.durationMs()), SCROLL_DEPTH_DEBOUNCE_MS);
  };

  constructor(
    private readonly sessionId: string,
    private readonly context: ListingViewContext,
    private readonly onDone: () => void,
  ) {
    this.measureDepth();
    this.report(0);
    this.resendTimer = setTimeout(() => this.report(LISTING_VIEW_RESEND_MS), LISTING_VIEW_RESEND_MS);
    window.addEventListener("scroll", this.onScroll, { passive: true });
  }

  private durationMs(now = Date.now()): number {
    return this.visibleMs + (this.visibleSince === null ? 0 : now - this.visibleSince);
  }

  private measureDepth(): void {
    const scrollable = document.documentElement.scrollHeight;
    const seen = window.scrollY + window.innerHeight;
    const percent = scrollable > 0 ? Math.round((Math.min(seen, scrollable) / scrollable) * 100) : 100;
    this.depth = Math.max(this.depth, Math.min(100, Math.max(0, percent)));
  }

  private report(viewDurationMs: number, leaving = false): void {
    void send(
      "/listing-views",
      {
        sessionId: this.sessionId,
        viewId: this.viewId,
        listingId: this.context.listingId,
        referrerType: this.context.referrerType,
        searchQuery: this.context.searchQuery,
        filterContext: this.context.filterContext,
        scrollDepthPercent: this.depth,
        viewDurationMs: Math.round(viewDurationMs),
      },
      leaving,
    );
  }

  /** The page is hidden: report what we have by beacon (the visitor may never come back). */
  hidden(): void {
    if (this.ended || this.visibleSince === null) return;
    const duration = this.durationMs();
    this.visibleMs = duration;
    this.visibleSince = null;
    if (duration > LISTING_VIEW_FINAL_MIN_MS) this.report(duration, true);
  }

  visible(): void {
    if (!this.ended && this.visibleSince === null) this.visibleSince = Date.now();
  }

  end(): void {
    if (this.ended) return;
    const duration = this.durationMs();
    this.cancel();
    if (duration > LISTING_VIEW_FINAL_MIN_MS) this.report(duration, document.visibilityState === "hidden");
  }

  cancel(): void {
    this.ended = true;
    clearTimeout(this.resendTimer);
    clearTimeout(this.scrollTimer);
    window.removeEventListener("scroll", this.onScroll);
    this.onDone();
  }
}
