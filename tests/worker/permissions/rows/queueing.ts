// Permission-matrix rows (../run.ts) whose successes start queue consumers: creating a listing and
// the analytics beacons. Their 201s and 202s start queue consumers that write D1 and R2 a few
// seconds later, so they are walked in a file of their own (queued-writes.integration.test.ts),
// where no other row's "nothing changed" window comes after them.
import { type Row, all, form, s } from "../matrix";

export const QUEUEING_ROWS: Row[] = [
  {
    route: "POST /api/listings",
    request: async (w) => ({ path: "/api/listings", method: "POST", json: form([await w.actorsPhoto()]) }),
    expected: s(401, 201, 201, 201, 201, 403),
  },
  {
    route: "POST /api/analytics/sessions",
    request: (w) => ({
      path: "/api/analytics/sessions",
      method: "POST",
      json: {
        sessionId: crypto.randomUUID(),
        userAgent: "Mozilla/5.0",
        referrer: null,
        entryPage: "/",
        deviceType: "mobile",
        browser: "Safari",
        os: "iOS",
      },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(202),
  },
  {
    route: "POST /api/analytics/events",
    request: async (w) => {
      const sessionId = crypto.randomUUID();
      const event = {
        eventType: "page_view",
        eventCategory: "navigation",
        eventAction: "view",
        eventLabel: null,
        eventValue: null,
        metadata: {
          sessionId,
          timestamp: new Date().toISOString(),
          page: "/",
          userAgent: "Mozilla/5.0",
          referrer: null,
          pageUrl: "http://localhost/",
        },
      };
      return {
        path: "/api/analytics/events",
        method: "POST",
        json: { sessionId, events: [event] },
        headers: { "CF-Connecting-IP": w.ip },
        cookies: await w.analyticsCookie(),
      };
    },
    expected: all(202),
  },
  {
    route: "POST /api/analytics/listing-views",
    request: async (w) => ({
      path: "/api/analytics/listing-views",
      method: "POST",
      json: {
        sessionId: crypto.randomUUID(),
        viewId: crypto.randomUUID(),
        listingId: (await w.listing()).id,
        referrerType: "search",
        searchQuery: "lego",
        filterContext: null,
        scrollDepthPercent: 0,
        viewDurationMs: 0,
      },
      headers: { "CF-Connecting-IP": w.ip },
      cookies: await w.analyticsCookie(),
    }),
    expected: all(202),
  },
  {
    route: "POST /api/analytics/searches",
    request: async (w) => ({
      path: "/api/analytics/searches",
      method: "POST",
      json: { sessionId: crypto.randomUUID(), query: "lego", filters: {}, resultCount: 3 },
      headers: { "CF-Connecting-IP": w.ip },
      cookies: await w.analyticsCookie(),
    }),
    expected: all(202),
  },
];
