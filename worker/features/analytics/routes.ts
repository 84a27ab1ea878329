import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import {
  analyticsEventsSchema,
  analyticsSessionSchema,
  listingAnalyticsQuerySchema,
  listingViewSchema,
  searchTrackSchema,
} from "../../../domain/schemas/analytics";
import type { AppEnv } from "../../env";
import { RATE_RULES } from "../../../domain/rate-limits";
import { enforceBindingLimit, enforceRateLimit } from "../../lib/rate-limit";
import { clientAddressKey } from "../../lib/request";
import { analyticsSessionOf, issueAnalyticsSession } from "./session-cookie";
import { AppError } from "../../lib/errors";
import { listedListingSql } from "../listings/visibility";
import { validate } from "../../lib/validate";
import { actorOf, requireUser } from "../../middleware/session";
import { privateNoStore } from "../../middleware/cache";
import { enqueueAnalytics } from "./ingest";
import { getListingAnalytics, ownListingsStats } from "./stats";
import { ANALYTICS_REFUSALS } from "../../../domain/analytics";

/** The request's server-issued analytics session; the body's own session id is not trusted. */
async function requireSession(c: Context<AppEnv>): Promise<string> {
  const sessionId = await analyticsSessionOf(c);
  if (!sessionId) throw new AppError("FORBIDDEN", ANALYTICS_REFUSALS.sessionMissing);
  return sessionId;
}

const limited = createMiddleware<AppEnv>(async (c, next) => {
  await enforceBindingLimit(c.env, RATE_RULES.analyticsAddress, clientAddressKey(c));
  await next();
});

/**
 * docs/product.md "Server calls": analytics-create-session, analytics-track-events, analytics-track-listing-view,
 * analytics-track-search (POST, 202: queued), and get_listing_analytics (GET, owner and staff).
 * The tracker sends these only with the visitor's consent; the Worker stores nothing of them in D1
 * but the rollups (docs/decisions/036-analytics-pipeline.md). Events, views and searches count only
 * under the signed session cookie /sessions sets (decision 038).
 */
export const analyticsRoutes = new Hono<AppEnv>()
  // The browser's consent starts a session: the server signs its id into a cookie (decision 038).
  // A browser that still has a valid one keeps it, and no second session is recorded.
  .post("/sessions", limited, validate("json", analyticsSessionSchema), async (c) => {
    if (await analyticsSessionOf(c)) return c.body(null, 202);
    await enforceRateLimit(c.var.db, RATE_RULES.analyticsSession, clientAddressKey(c));
    const session = c.req.valid("json");
    await issueAnalyticsSession(c, session.sessionId);
    await enqueueAnalytics(c.env, { kind: "session", session: { ...session, sessionId: session.sessionId.toLowerCase() } });
    return c.body(null, 202);
  })
  .post("/events", limited, validate("json", analyticsEventsSchema), async (c) => {
    const sessionId = await requireSession(c);
    const events = c.req.valid("json").events.map((e) => ({ ...e, metadata: { ...e.metadata, sessionId } }));
    await enqueueAnalytics(c.env, { kind: "events", sessionId, events });
    return c.body(null, 202);
  })
  .post("/listing-views", limited, validate("json", listingViewSchema), async (c) => {
    const sessionId = await requireSession(c);
    const view = c.req.valid("json");
    // Only views of a listing people can see are counted (and stored).
    const listing = await c.var.db
      .prepare(`SELECT 1 FROM listings WHERE id = ?1 AND ${listedListingSql("listings")}`)
      .bind(view.listingId)
      .first();
    if (!listing) throw new AppError("NOT_FOUND", ANALYTICS_REFUSALS.listingNotFound);
    await enqueueAnalytics(c.env, { kind: "listing_view", view: { ...view, sessionId } });
    return c.body(null, 202);
  })
  .post("/searches", limited, validate("json", searchTrackSchema), async (c) => {
    const sessionId = await requireSession(c);
    await enqueueAnalytics(c.env, { kind: "search", search: { ...c.req.valid("json"), sessionId } });
    return c.body(null, 202);
  })
  .get("/listings/:id", requireUser, validate("query", listingAnalyticsQuerySchema), privateNoStore, async (c) => {
    return c.json(await getListingAnalytics(c.env.DB, actorOf(c), c.req.param("id"), c.req.valid("query").days));
  })
  .get("/my-listings", requireUser, validate("query", listingAnalyticsQuerySchema), privateNoStore, async (c) => {
    return c.json(await ownListingsStats(c.env.DB, actorOf(c), c.req.valid("query").days));
  });
