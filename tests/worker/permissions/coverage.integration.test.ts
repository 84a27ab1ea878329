// The permission matrix (./run.ts; docs/security.md "How it is tested") covers every route the Worker
// registers (read from the Hono app itself, `app.routes`) and every page of the route table
// (domain/routes.ts PAGE_ROUTES). A route the app registers without a row in ./rows/ fails "every
// registered route has a row"; a row for a route the app no longer has fails too.
import { describe, expect, it } from "vitest";
import { PAGE_ROUTE_IDS } from "../../../domain/routes";
import { app } from "../../../worker/app";
import { ROWS } from "./rows";

/**
 * Registered by `.use()` (and one `.all()` guard): they answer nothing themselves, their effect is
 * in the rows of the routes behind them. A new middleware path must be added here on purpose.
 */
const MIDDLEWARE = new Set([
  "ALL /api/conversations/*", // requireUser for the conversation routes
  "ALL /api/dev/*", // local mode only
  "ALL /api/dev/analytics/*",
  "ALL /api/dev/cron/*",
  "ALL /api/dev/d1-usage/*",
  "ALL /api/dev/saved-searches/*",
  "ALL /api/favourites/*", // requireUser
  "ALL /api/images/*", // requireUser for uploads
  "ALL /api/me/*", // requireUser
  "ALL /api/me/vipps/*", // requireUser
  "ALL /api/moderation/*", // requireRole("moderator", "admin"), no-store
  "ALL /api/payments/*", // requireUser, no-store
  "ALL /api/payments/orders/*", // requireUser, no-store (a sent order's parcel)
  "ALL /api/payments/webhooks/*", // the webhooks' body limit
  "ALL /api/reviews/*", // requireUser, no-store
  "ALL /api/shipping/webhooks/*", // the carrier webhooks' refusal count and body limit
  "ALL /api/test-notifications/*", // local mode only
  "ALL /api/trade-offers/*", // requireUser
  "ALL /dev/*", // local mode only
  "ALL /*", // security headers, configuration
]);

describe("permission matrix", () => {
  it("every registered route and every page has a row, and every row a route", () => {
    const registered = new Set(app.routes.map((r) => `${r.method} ${r.path}`));
    const covered = new Set(ROWS.map((r) => r.route));
    const missing = [...registered].filter((r) => !covered.has(r) && !MIDDLEWARE.has(r));
    const missingPages = PAGE_ROUTE_IDS.map((id) => `PAGE ${id}`).filter((r) => !covered.has(r));
    expect({ missing, missingPages }, "routes without a row in the permission matrix").toEqual({ missing: [], missingPages: [] });
    const stale = [...covered].filter((r) => !registered.has(r) && !r.startsWith("PAGE "));
    const stalePages = [...covered].filter((r) => r.startsWith("PAGE ") && !(PAGE_ROUTE_IDS as string[]).includes(r.slice(5)));
    const staleMiddleware = [...MIDDLEWARE].filter((r) => !registered.has(r));
    expect({ stale, stalePages, staleMiddleware }, "rows for routes the app no longer has").toEqual({
      stale: [],
      stalePages: [],
      staleMiddleware: [],
    });
  });
});
