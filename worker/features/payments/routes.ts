import { Hono } from "hono";
import { checkoutSchema, detailsQuerySchema, ordersQuerySchema, problemSchema, verifySchema } from "../../../domain/schemas/payments";
import { ORDER_ERROR_TEXTS } from "../../../domain/order-texts";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { isUuid } from "../../lib/uuid";
import { validate } from "../../lib/validate";
import { actorOf, requireUser } from "../../middleware/session";
import { noStore } from "../../middleware/cache";
import { startCheckout } from "./checkout";
import { actOnOrder } from "./orders";
import { orderForViewer, ordersInConversation } from "./order-views";
import { connectStripe, sellerStatus, stripeDashboardLink } from "./connect";
import { paymentDetails, orderRecords, verifyPayment } from "./results";

/** An order id from the path; anything but a UUID is an order that does not exist (404). */
function uuidParam(id: string): string {
  if (!isUuid(id)) throw new AppError("NOT_FOUND", ORDER_ERROR_TEXTS.notFound);
  return id;
}

/** Buying, the result pages, purchases and sales, and seller onboarding. Everything needs a signed-in user. */
export const paymentRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(noStore)
  .post("/checkout", validate("json", checkoutSchema), async (c) =>
    c.json(await startCheckout(c.env, actorOf(c), c.req.valid("json")), 201),
  )
  .post("/verify", validate("json", verifySchema), async (c) => {
    const { session_id, payment_id } = c.req.valid("json");
    return c.json(await verifyPayment(c.env, actorOf(c), session_id, payment_id));
  })
  .get("/details", validate("query", detailsQuerySchema), async (c) =>
    c.json(await paymentDetails(c.env, actorOf(c), c.req.valid("query").session_id)),
  )
  // Held money (decision 105): the deal's card in the chat, and the moves of its buyer and seller.
  .get("/orders", validate("query", ordersQuerySchema), async (c) =>
    c.json(await ordersInConversation(c.env, actorOf(c), c.req.valid("query").conversation_id)),
  )
  .get("/orders/:id", async (c) => c.json(await orderForViewer(c.env, actorOf(c), uuidParam(c.req.param("id")))))
  .post("/orders/:id/handed-over", async (c) =>
    c.json(await actOnOrder(c.env, actorOf(c), uuidParam(c.req.param("id")), "mark_handed_over")),
  )
  .post("/orders/:id/received", async (c) => c.json(await actOnOrder(c.env, actorOf(c), uuidParam(c.req.param("id")), "confirm_received")))
  .post("/orders/:id/problem", validate("json", problemSchema), async (c) =>
    c.json(await actOnOrder(c.env, actorOf(c), uuidParam(c.req.param("id")), "report_problem", c.req.valid("json"))),
  )
  .post("/orders/:id/cancel", async (c) => c.json(await actOnOrder(c.env, actorOf(c), uuidParam(c.req.param("id")), "cancel_no_handover")))
  .get("/purchases", async (c) => c.json(await orderRecords(c.var.db, actorOf(c), "purchases")))
  .get("/sales", async (c) => c.json(await orderRecords(c.var.db, actorOf(c), "sales")))
  .get("/stripe/account", async (c) => c.json(await sellerStatus(c.env, actorOf(c))))
  // The prototype's create-stripe-account-link (docs/product.md "Server calls"): a url the browser navigates to.
  .post("/stripe/account-link", async (c) => c.json(await connectStripe(c.env, actorOf(c))))
  .post("/stripe/dashboard-link", async (c) => c.json(await stripeDashboardLink(c.env, actorOf(c))));
