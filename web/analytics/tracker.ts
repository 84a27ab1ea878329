// The browser tracker (docs/product.md "Data", "Server calls", "Limits and timings"): a session, an event queue flushed every 5 seconds and
// when the page is hidden, listing views, searches and marked clicks. It runs only with the
// visitor's consent, is loaded after the first render, never blocks the page and never shows an
// error: failures are only logged (docs/product.md "Error messages").
import {
  ANALYTICS_FLUSH_MS,
  ANALYTICS_MAX_EVENTS_PER_REQUEST,
  ANALYTICS_REQUEUE_BELOW,
  ANALYTICS_REQUEUE_KEEP,
  analyticsPageUrl,
  analyticsReferrer,
  EVENT_CATEGORY_OF,
  EVENT_TYPES,
  parseUserAgent,
  referrerTypeOf,
  searchContextOf,
  type EventType,
} from "../../domain/analytics";
import { type ListingViewContext, type ListingViewHandle, ListingViewRuntime } from "./listingView";
import { awaitSession, log, newId, retryable, send, setSessionRenewer } from "./send";

export const SESSION_STORAGE_KEY = "lb_analytics_session";
/** The signed session cookie the server sets on POST /sessions (decision 038). */
export const SESSION_COOKIE = "lb_analytics";

export interface QueuedEvent {
  eventType: EventType;
  eventCategory: string;
  eventAction: string;
  eventLabel: string | null;
  eventValue: number | null;
  metadata: Record<string, string | number | boolean | null>;
}

export class Tracker {
  readonly sessionId: string;
  private queue: QueuedEvent[] = [];
  private flushing = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly views = new Set<ListingViewRuntime>();
  private readonly cleanups: (() => void)[] = [];
  private renewing: Promise<unknown> | null = null;

  constructor() {
    let stored: string | null = null;
    try {
      stored = window.sessionStorage.getItem(SESSION_STORAGE_KEY);
    } catch {
      // storage blocked: a session per page load
    }
    this.sessionId = stored ?? newId();
    if (!stored) {
      try {
        window.sessionStorage.setItem(SESSION_STORAGE_KEY, this.sessionId);
      } catch {
        // see above
      }
      void awaitSession(this.createSession());
    }
    setSessionRenewer(() => {
      this.renewing ??= awaitSession(this.createSession()).finally(() => (this.renewing = null));
      return this.renewing;
    });

    this.timer = setInterval(() => void this.flush(), ANALYTICS_FLUSH_MS);
    const onHide = () => this.pageHidden();
    const onVisibility = () => {
      if (document.visibilityState === "hidden") onHide();
      else for (const view of this.views) view.visible();
    };
    const onClick = (event: MouseEvent) => this.markedClick(event);
    window.addEventListener("pagehide", onHide);
    document.addEventListener("visibilitychange", onVisibility);
    document.addEventListener("click", onClick, { capture: true, passive: true });
    this.cleanups.push(
      () => window.removeEventListener("pagehide", onHide),
      () => document.removeEventListener("visibilitychange", onVisibility),
      () => document.removeEventListener("click", onClick, { capture: true }),
    );
  }

  private async createSession(): Promise<number> {
    const { deviceType, browser, os } = parseUserAgent(navigator.userAgent, navigator.maxTouchPoints ?? 0);
    return send("/sessions", {
      sessionId: this.sessionId,
      userAgent: navigator.userAgent.slice(0, 512),
      referrer: analyticsReferrer(document.referrer, location.origin) || null,
      entryPage: analyticsPageUrl(location.href),
      deviceType,
      browser,
      os,
    });
  }

  /** Queue an event with the metadata docs/product.md "Data" names (sessionId, timestamp, page, userAgent, referrer, pageUrl). */
  event(
    eventType: EventType,
    eventAction: string,
    eventLabel: string | null = null,
    eventValue: number | null = null,
    extra: Record<string, string | number | boolean | null> = {},
  ): void {
    this.queue.push({
      eventType,
      eventCategory: EVENT_CATEGORY_OF[eventType],
      eventAction,
      eventLabel: eventLabel?.slice(0, 200) ?? null,
      eventValue,
      metadata: {
        ...extra,
        sessionId: this.sessionId,
        timestamp: new Date().toISOString(),
        page: location.pathname,
        userAgent: navigator.userAgent.slice(0, 512),
        referrer: analyticsReferrer(document.referrer, location.origin) || null,
        pageUrl: analyticsPageUrl(location.href),
      },
    });
    if (this.queue.length >= ANALYTICS_MAX_EVENTS_PER_REQUEST) void this.flush();
  }

  /** Events waiting for the next flush (for tests and the page-hide path). */
  get pending(): readonly QueuedEvent[] {
    return this.queue;
  }

  /**
   * Send what is queued, 50 events per request. docs/product.md "Limits and timings": when a send fails, if the queue
   * (events queued since) holds fewer than 100 events, the last 50 of the unsent ones go back to its
   * front; the rest are dropped. Events the server refuses as invalid (4xx but 429) are dropped.
   */
  async flush(): Promise<void> {
    if (this.flushing || this.queue.length === 0) return;
    this.flushing = true;
    const events = this.queue.splice(0);
    try {
      for (let i = 0; i < events.length; i += ANALYTICS_MAX_EVENTS_PER_REQUEST) {
        const status = await send("/events", { sessionId: this.sessionId, events: events.slice(i, i + ANALYTICS_MAX_EVENTS_PER_REQUEST) });
        if (status >= 200 && status < 300) continue;
        if (retryable(status)) {
          if (this.queue.length < ANALYTICS_REQUEUE_BELOW) this.queue.unshift(...events.slice(i).slice(-ANALYTICS_REQUEUE_KEEP));
          log(`flush failed (${status}); ${this.queue.length} events waiting`);
        } else {
          log(`the server refused ${Math.min(ANALYTICS_MAX_EVENTS_PER_REQUEST, events.length - i)} events (${status})`);
          continue;
        }
        break;
      }
    } finally {
      this.flushing = false;
    }
  }

  /** The page is being hidden (tab switch, app switch, leaving): beacon everything out. */
  private pageHidden(): void {
    for (const view of this.views) view.hidden();
    while (this.queue.length > 0) {
      const events = this.queue.splice(0, ANALYTICS_MAX_EVENTS_PER_REQUEST);
      void send("/events", { sessionId: this.sessionId, events }, true);
    }
  }

  /** Clicks on elements marked `data-analytics="<event type>"` (e.g. "Send melding"). */
  private markedClick(event: MouseEvent): void {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>("[data-analytics]") : null;
    const type = target?.dataset.analytics;
    if (!target || !type || !(EVENT_TYPES as readonly string[]).includes(type)) return;
    const listingId = target.dataset.analyticsListing;
    this.event(type as EventType, "click", target.dataset.analyticsLabel ?? listingId ?? null, null, listingId ? { listingId } : {});
  }

  pageView(): void {
    this.event("page_view", "view", location.pathname);
  }

  /** A search on /search, its query and filters read from the page's path and query string. */
  searchAt(pathWithQuery: string, resultCount: number): void {
    const context = searchContextOf(pathWithQuery);
    if (context) this.search(context.searchQuery ?? "", context.filterContext ?? {}, resultCount);
  }

  search(query: string, filters: Record<string, string>, resultCount: number): void {
    void send("/searches", { sessionId: this.sessionId, query: query.slice(0, 200), filters, resultCount });
  }

  /** A visit to a listing page reached from `previousPath` in the app (or from `documentReferrer`). */
  startListingViewFrom(listingId: string, previousPath: string | null, documentReferrer: string): ListingViewHandle {
    const search = searchContextOf(previousPath) ?? { searchQuery: null, filterContext: null };
    const referrerType = referrerTypeOf(previousPath, documentReferrer, location.origin);
    return this.startListingView({ listingId, referrerType, ...search });
  }

  /** Start reporting a visit to a listing page; call `end()` when the visitor leaves it. */
  startListingView(context: ListingViewContext): ListingViewHandle {
    const view = new ListingViewRuntime(this.sessionId, context, () => this.views.delete(view));
    this.views.add(view);
    this.event("listing_view", "view", context.listingId, null, { listingId: context.listingId });
    return view;
  }

  /** Consent withdrawn: stop, forget the queue and the session id. */
  stop(): void {
    clearInterval(this.timer);
    for (const view of this.views) view.cancel();
    this.views.clear();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.queue = [];
    setSessionRenewer(null);
    // The server's session cookie goes too (worker/features/analytics/session-cookie.ts; __Host- on https).
    document.cookie = `${SESSION_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict`;
    if (location.protocol === "https:") document.cookie = `__Host-${SESSION_COOKIE}=; Max-Age=0; Path=/; Secure; SameSite=Strict`;
    try {
      window.sessionStorage.removeItem(SESSION_STORAGE_KEY);
    } catch {
      // nothing stored
    }
  }
}

let current: Tracker | null = null;

/** The running tracker (created on first use: only ever called with consent). */
export function tracker(): Tracker {
  current ??= new Tracker();
  return current;
}

export function stopTracker(): void {
  current?.stop();
  current = null;
}
