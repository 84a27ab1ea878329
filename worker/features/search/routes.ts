import { Hono } from "hono";
import { RATE_RULES } from "../../../domain/rate-limits";
import { searchParamsSchema } from "../../../domain/schemas/search";
import type { AppEnv } from "../../env";
import { enforceBindingLimit } from "../../lib/rate-limit";
import { clientAddressKey } from "../../lib/request";
import { validate } from "../../lib/validate";
import { searchListings } from "./search";

/**
 * The same for every visitor: its caching is the edge cache's (middleware/edge-cache.ts, decision 101).
 * Only the requests that reach this handler are counted per address (decision 010): an answer from
 * the edge cache costs D1 nothing, and a 429 is never stored there.
 */
export const searchRoutes = new Hono<AppEnv>().get(
  "/",
  async (c, next) => {
    await enforceBindingLimit(c.env, RATE_RULES.searchAddress, clientAddressKey(c));
    await next();
  },
  validate("query", searchParamsSchema),
  async (c) => {
    // Date.now() advances across I/O in workerd, so this is the D1 query's time (benchmarks read it).
    const started = Date.now();
    const result = await searchListings(c.var.db, c.req.valid("query"));
    c.header("Server-Timing", `d1;dur=${Date.now() - started}`);
    return c.json(result);
  },
);
