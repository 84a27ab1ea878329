import { Hono } from "hono";
import { RATE_RULES } from "../../../domain/rate-limits";
import { reportSchema } from "../../../domain/schemas/content";
import type { AppEnv } from "../../env";
import { clientIp } from "../../lib/request";
import { validate } from "../../lib/validate";
import { actorOf, requireUser } from "../../middleware/session";
import { enforceRateLimit } from "../../lib/rate-limit";
import { fileReport } from "./reports";

/**
 * POST /api/reports: the report dialog (docs/product.md "Validation", "Server calls"). Signed in only; rate limited per user
 * (an identical repeat counts too). 201 when filed, 200 when the reporter's identical open report
 * already stood (decision 083).
 */
export const reportRoutes = new Hono<AppEnv>().post("/", requireUser, validate("json", reportSchema), async (c) => {
  const actor = actorOf(c);
  await enforceRateLimit(c.var.db, RATE_RULES.reportUser, actor.id);
  const report = await fileReport(c.env, actor, c.req.valid("json"), clientIp(c));
  return c.json(report, report.created ? 201 : 200);
});
