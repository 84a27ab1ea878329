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
  LISTING_VIEW_FINAL_MIN_MS,
  LISTING_VIEW_RESEND_MS,
  parseUserAgent,
  SCROLL_DEPTH_DEBOUNCE_MS,
  referrerTypeOf,
  searchContextOf,
  type EventType,
  type ReferrerType,
} from "../../domain/analytics";

export const SESSION_STORAGE_KEY = "lb_analytics_session";
/** The signed session cookie the server sets on POST /sessions (decision 038). */
export const SESSION_COOKIE = "lb_analytics";
const API = "/api/analytics";

export interface QueuedEvent {
  eventType: EventType;
  eventCategory: string;
  eventAction: string;
  eventLabel: string | null;
  eventValue: number | null;
  metadata: Record<string, string | number | boolean | null>;
}

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

function log(message: string, error?: unknown): void {
  // docs/product.md "Error messages": analytics failures are only logged, never shown.
  console.warn(`Analytics: ${message}`, error ?? "");
}

function newId(): string {
  return crypto.randomUUID();
}

/** Whether a failed send is worth trying again (not a request the server refused as invalid). */
function retryable(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

/**
 * The server counts events, views and searches only under the signed session cookie that
 * POST /sessions sets (decision 038): everything else waits until that answer is in, and a 403
 * (cookie expired or cleared) asks for a new session once and sends again.
 */
let sessionPending: Promise<unknown> | null = null;
let renewSession: (() => Promise<unknown>) | null = null;

/** Sends wait for `request` until it settles (and no longer: a settled session costs no tick, so a beacon at page hide goes out at once). */
function awaitSession(request: Promise<unknown>): Promise<unknown> {
  const pending = request.finally(() => {
    if (sessionPending === pending) sessionPending = null;
  });
  sessionPending = pending;
  return pending;
}

/**
 * POST JSON to an analytics endpoint. `leaving`: the page is being hidden, so use sendBeacon (the
 * browser delivers it after the page is gone), falling back to a keepalive fetch. Resolves to the
 * HTTP status, 0 when the network failed; never rejects.
 */
export async function send(path: string, body: unknown, leaving = false): Promise<number> {
  if (path === "/sessions") return post(path, body, leaving);
  if (sessionPending) await sessionPending;
  const status = await post(path, body, leaving);
  if (status !== 403 || !renewSession) return status;
  await renewSession();
  return post(path, body, leaving);
}

async function post(path: string, body: unknown, leaving: boolean): Promise<number> {
  const json = JSON.stringify(body);
  if (leaving && typeof navigator.sendBeacon === "function") {
    try {
      if (navigator.sendBeacon(API + path, new Blob([json], { type: "application/json" }))) return 202;
    } catch (error) {
      log("sendBeacon failed", error);
    }
  }
  try {
    const response = await fetch(API + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      credentials: "same-origin",
      body: json,
      keepalive: leaving,
    });
    return response.status;
  } catch (error) {
    log(`sending ${path} failed`, error);
    return 0;
  }
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
    renewSession = () => {
      this.renewing ??= awaitSession(this.createSession()).finally(() => (this.renewing = null));
      return this.renewing;
    };

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
    renewSession = null;
    sessionPending = null;
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

/**
 * One visit to a listing page (docs/product.md "Limits and timings"): a report at the start, again after 30 seconds with
 * viewDurationMs 30000, on scrolling (debounced 1 second), and a final one on leaving only if the
 * stay exceeded 5 seconds. Reports share a view id, so the server counts one view. Time the page
 * spends hidden does not count as viewing.
 */
class ListingViewRuntime implements ListingViewHandle {
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
