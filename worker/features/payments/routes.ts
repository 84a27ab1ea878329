import { Hono } from "hono";
import { checkoutSchema, detailsQuerySchema, verifySchema } from "../../../domain/schemas/payments";
import type { AppEnv } from "../../env";
import { validate } from "../../lib/validate";
import { actorOf, requireUser } from "../../middleware/session";
import { noStore } from "../../middleware/cache";
import { startCheckout } from "./checkout";
import { connectStripe, sellerStatus, stripeDashboardLink } from "./connect";
import { paymentDetails, tradeRecords, verifyPayment } from "./results";

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
  .get("/purchases", async (c) => c.json(await tradeRecords(c.var.db, actorOf(c), "purchases")))
  .get("/sales", async (c) => c.json(await tradeRecords(c.var.db, actorOf(c), "sales")))
  .get("/stripe/account", async (c) => c.json(await sellerStatus(c.env, actorOf(c))))
  // The prototype's create-stripe-account-link (docs/product.md "Server calls"): a url the browser navigates to.
  .post("/stripe/account-link", async (c) => c.json(await connectStripe(c.env, actorOf(c))))
  .post("/stripe/dashboard-link", async (c) => c.json(await stripeDashboardLink(c.env, actorOf(c))));
