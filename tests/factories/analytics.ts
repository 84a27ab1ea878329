// Analytics queue messages and request bodies for worker tests and the benchmark's shapes.
import { osloDay } from "../../domain/format";
import type { AnalyticsMessageInput } from "../../domain/schemas/analytics";

const UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

export function envelope(at: Date = new Date()) {
  return { v: 1 as const, receivedAt: at.toISOString(), day: osloDay(at) };
}

export function eventBody(sessionId: string, over: Record<string, unknown> = {}) {
  return {
    eventType: "page_view",
    eventCategory: "navigation",
    eventAction: "view",
    eventLabel: null,
    eventValue: null,
    metadata: {
      sessionId,
      timestamp: new Date().toISOString(),
      page: "/",
      userAgent: UA,
      referrer: null,
      pageUrl: "http://localhost/",
    },
    ...over,
  };
}

export function sessionBody(sessionId: string = crypto.randomUUID()) {
  return { sessionId, userAgent: UA, referrer: null, entryPage: "/", deviceType: "mobile" as const, browser: "Safari", os: "iOS" };
}

export interface ViewOptions {
  listingId: string;
  sessionId?: string;
  viewId?: string;
  viewDurationMs?: number;
  scrollDepthPercent?: number;
}

export function viewBody({
  listingId,
  sessionId = crypto.randomUUID(),
  viewId = crypto.randomUUID(),
  viewDurationMs = 0,
  scrollDepthPercent = 0,
}: ViewOptions) {
  return {
    sessionId,
    viewId,
    listingId,
    referrerType: "search",
    searchQuery: "lego",
    filterContext: null,
    scrollDepthPercent,
    viewDurationMs,
  };
}

export const analyticsMessages = {
  session: (sessionId?: string, at?: Date): AnalyticsMessageInput => ({
    ...envelope(at),
    kind: "session",
    session: sessionBody(sessionId),
  }),
  events: (sessionId: string, count: number, at?: Date): AnalyticsMessageInput =>
    ({
      ...envelope(at),
      kind: "events",
      sessionId,
      events: Array.from({ length: count }, () => eventBody(sessionId)),
    }) as AnalyticsMessageInput,
  view: (options: ViewOptions, at?: Date): AnalyticsMessageInput =>
    ({ ...envelope(at), kind: "listing_view", view: viewBody(options) }) as AnalyticsMessageInput,
  search: (sessionId: string, at?: Date): AnalyticsMessageInput => ({
    ...envelope(at),
    kind: "search",
    search: { sessionId, query: "lego", filters: { categories: "lego" }, resultCount: 12 },
  }),
};
