import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import {
  analyticsEventsSchema,
  analyticsSessionSchema,
  listingAnalyticsQuerySchema,
  listingViewSchema,
  searchTrackSchema,
} from "../../domain/schemas/analytics";
import type { AppEnv } from "../env";
import { RATE_RULES } from "../../domain/rate-limits";
import { getDb } from "../db/client";
import { enforceRateLimit } from "../services/rate-limit";
import { clientAddressKey } from "../lib/request";
import { validate } from "../lib/validate";
import { actorOf, requireUser } from "../middleware/session";
import { enqueueAnalytics } from "../services/analytics-ingest";
import { getListingAnalytics, ownListingsStats } from "../services/analytics-stats";

const limited = createMiddleware<AppEnv>(async (c, next) => {
  await enforceRateLimit(getDb(c.env.DB), RATE_RULES.analyticsAddress, clientAddressKey(c));
  await next();
});

/**
 * Spec part 2 §7: analytics-create-session, analytics-track-events, analytics-track-listing-view,
 * analytics-track-search (POST, 202: queued), and get_listing_analytics (GET, owner and staff).
 * The tracker sends these only with the visitor's consent; the Worker stores nothing of them in D1
 * but the rollups (docs/decisions/036-analytics-pipeline.md).
 */
export const analyticsRoutes = new Hono<AppEnv>()
  .post("/sessions", limited, validate("json", analyticsSessionSchema), async (c) => {
    await enqueueAnalytics(c.env, { kind: "session", session: c.req.valid("json") });
    return c.body(null, 202);
  })
  .post("/events", limited, validate("json", analyticsEventsSchema), async (c) => {
    const { sessionId, events } = c.req.valid("json");
    await enqueueAnalytics(c.env, { kind: "events", sessionId, events });
    return c.body(null, 202);
  })
  .post("/listing-views", limited, validate("json", listingViewSchema), async (c) => {
    await enqueueAnalytics(c.env, { kind: "listing_view", view: c.req.valid("json") });
    return c.body(null, 202);
  })
  .post("/searches", limited, validate("json", searchTrackSchema), async (c) => {
    await enqueueAnalytics(c.env, { kind: "search", search: c.req.valid("json") });
    return c.body(null, 202);
  })
  .get("/listings/:id", requireUser, validate("query", listingAnalyticsQuerySchema), async (c) => {
    c.header("Cache-Control", "private, no-store");
    return c.json(await getListingAnalytics(c.env.DB, actorOf(c), c.req.param("id"), c.req.valid("query").days));
  })
  .get("/my-listings", requireUser, validate("query", listingAnalyticsQuerySchema), async (c) => {
    c.header("Cache-Control", "private, no-store");
    return c.json(await ownListingsStats(c.env.DB, actorOf(c), c.req.valid("query").days));
  });
