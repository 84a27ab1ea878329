import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { noStore } from "../../middleware/cache";
import { localOnly } from "../../middleware/local-only";
import { AppError } from "../../lib/errors";
import { countingD1 } from "./statement-counter";
import { forgetMatches, matchListings } from "./matching";
import { SAVED_SEARCH_REFUSALS } from "../../../domain/saved-searches";

const MAX_LISTINGS = 1000;

/**
 * Local mode only (404 elsewhere): run the saved-search matcher on given listings and report its
 * time, statements and matches, for the benchmark (`npm run bench:saved-searches`). `fresh` first
 * forgets those listings' earlier matches (not timed), so the run inserts them again.
 */
export const devSavedSearchRoutes = new Hono<AppEnv>()
  .use(localOnly)
  .use(noStore)
  .post("/match", async (c) => {
    const body = (await c.req.json().catch(() => null)) as { listingIds?: unknown; fresh?: unknown } | null;
    const ids = Array.isArray(body?.listingIds) ? body.listingIds.filter((id): id is string => typeof id === "string") : [];
    if (ids.length === 0 || ids.length > MAX_LISTINGS) throw new AppError("VALIDATION", SAVED_SEARCH_REFUSALS.devListingIds(MAX_LISTINGS));
    if (body?.fresh === true) await forgetMatches(c.var.db, ids);
    const counter = countingD1(c.env.DB);
    const started = Date.now();
    const result = await matchListings(counter.d1, ids);
    const ms = Date.now() - started;
    const { pairs, ...stats } = result;
    return c.json({ ms, statements: counter.statements(), ...stats, pairs: pairs.map((p) => [p.savedSearchId, p.listingId]) });
  });
