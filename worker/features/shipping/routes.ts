import { Hono } from "hono";
import { RATE_RULES } from "../../../domain/rate-limits";
import { pickupPointsQuerySchema } from "../../../domain/schemas/payments";
import type { AppEnv } from "../../env";
import { enforceRateLimit } from "../../lib/rate-limit";
import { validate } from "../../lib/validate";
import { actorOf, requireUser } from "../../middleware/session";
import { noStore } from "../../middleware/cache";
import { ORDER_ERROR_TEXTS } from "../../../domain/order-texts";
import { AppError } from "../../lib/errors";
import { isUuid } from "../../lib/uuid";
import { pickupPointsNear } from "../carriers/pickup-points";
import { retryShipment } from "./retry";

/**
 * What a signed-in buyer asks at checkout. The carriers' webhooks are in webhook-routes.ts, mounted
 * under /shipping too: the session guard sits on each route, not on the whole prefix, so the API
 * reference does not ask the carriers for a session.
 */
export const shippingRoutes = new Hono<AppEnv>().get(
  "/pickup-points",
  requireUser,
  noStore,
  validate("query", pickupPointsQuerySchema),
  async (c) => {
    await enforceRateLimit(c.env.DB, RATE_RULES.pickupPoints, actorOf(c).id);
    const { carrier, delivery, postal_code } = c.req.valid("query");
    return c.json({ pickup_points: await pickupPointsNear(c.env, carrier, delivery, postal_code) });
  },
);

/**
 * A sent order's parcel, beside the order's own routes: mounted at /api/payments/orders, where the
 * order's card in the chat calls it.
 */
export const shipmentOrderRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(noStore)
  .post("/:id/shipment/retry", async (c) => {
    const id = c.req.param("id");
    if (!isUuid(id)) throw new AppError("NOT_FOUND", ORDER_ERROR_TEXTS.notFound);
    return c.json(await retryShipment(c.env, actorOf(c), id));
  });
