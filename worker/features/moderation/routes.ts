import { Hono } from "hono";
import { REPORT_TARGET_TYPES, type ReportTargetType, MODERATION_REFUSALS } from "../../../domain/moderation";
import { moderationActionSchema, moderationNotesSchema, moderationQuerySchema, roleChangeSchema } from "../../../domain/schemas/moderation";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { validate } from "../../lib/validate";
import { actorOf, requireRole } from "../../middleware/session";
import { noStore } from "../../middleware/cache";
import { moderationDashboard } from "./dashboard";
import { dismissReport, reviewReport, takeAction, unhideTarget } from "./decisions";
import { changeRole, listStaff } from "./staff";
import { actOnOrder } from "../payments/orders";
import { orderCases } from "../payments/order-views";
import { caseDecisionSchema } from "../../../domain/schemas/payments";
import { ORDER_ERROR_TEXTS } from "../../../domain/order-texts";
import { isUuid } from "../../lib/uuid";

function targetType(value: string): ReportTargetType {
  if (!(REPORT_TARGET_TYPES as readonly string[]).includes(value)) throw new AppError("NOT_FOUND", MODERATION_REFUSALS.targetNotFound);
  return value as ReportTargetType;
}

/**
 * The moderation dashboard's API. Every endpoint needs the moderator or admin role and no
 * active suspension, both read from D1 on this very request (middleware/session.ts), so a role
 * taken away or a suspension stops working at once, even with an access token that has not
 * expired: a visitor gets 401, any other user 403. Each decision also checks whose target it is
 * (nobody on themselves, only admins on staff; docs/decisions/085-staff-rules.md). Role changes
 * are for admins only.
 */
export const moderationRoutes = new Hono<AppEnv>()
  .use(requireRole("moderator", "admin"))
  .use(noStore)
  .get("/reports", validate("query", moderationQuerySchema), async (c) => {
    return c.json(await moderationDashboard(c.var.db, c.req.valid("query")));
  })
  // "Behandle": the open reports on the target become reviewed (Vurdert).
  .post("/reports/:id/review", async (c) => {
    return c.json(await reviewReport(c.var.db, actorOf(c), c.req.param("id")));
  })
  .post("/reports/:id/actions", validate("json", moderationActionSchema), async (c) => {
    return c.json(await takeAction(c.env, actorOf(c), c.req.param("id"), c.req.valid("json")));
  })
  .post("/reports/:id/dismiss", validate("json", moderationNotesSchema), async (c) => {
    return c.json(await dismissReport(c.env, actorOf(c), c.req.param("id"), c.req.valid("json").notes));
  })
  // Show a hidden listing again, or lift a user's suspension.
  .post("/targets/:type/:id/unhide", validate("json", moderationNotesSchema), async (c) => {
    const type = targetType(c.req.param("type"));
    return c.json(await unhideTarget(c.env, actorOf(c), type, c.req.param("id"), c.req.valid("json").notes));
  })
  // Payment cases ("Meld fra om et problem", decision 105) beside the reports: list and decide.
  .get("/payment-cases", async (c) => c.json(await orderCases(c.env, actorOf(c))))
  .post("/payment-cases/:id/decision", validate("json", caseDecisionSchema), async (c) => {
    const id = c.req.param("id");
    if (!isUuid(id)) throw new AppError("NOT_FOUND", ORDER_ERROR_TEXTS.notFound);
    const input = c.req.valid("json");
    const refundAmount = input.action === "partial_refund" ? input.refund_amount : undefined;
    return c.json(await actOnOrder(c.env, actorOf(c), id, input.action, { refundAmount }));
  })
  .get("/staff", requireRole("admin"), async (c) => {
    return c.json(await listStaff(c.var.db));
  })
  .put("/roles", requireRole("admin"), validate("json", roleChangeSchema), async (c) => {
    const { email, role } = c.req.valid("json");
    return c.json(await changeRole(c.var.db, actorOf(c), email, role));
  });
