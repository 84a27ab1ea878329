import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { noStore } from "../../middleware/cache";
import { requireRole } from "../../middleware/session";
import { driftReport } from "./drift";

/**
 * The operator's API (docs/decisions/134-operations-page.md): admins only, the role read from D1
 * on this request (a visitor gets 401, anyone else 403).
 */
export const adminRoutes = new Hono<AppEnv>().get("/drift", requireRole("admin"), noStore, async (c) =>
  c.json(await driftReport(c.var.db, c.env)),
);
