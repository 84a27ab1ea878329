import { Hono } from "hono";
import { d1Usage } from "./db/usage";
import type { AppEnv } from "./env";
import { localOnly } from "./middleware/local-only";

/** Local mode only (404 elsewhere): what this isolate has asked of D1 so far, for `npm run bench:load`. */
export const devD1UsageRoutes = new Hono<AppEnv>().use(localOnly).get("/", (c) => c.json(d1Usage()));
