import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { handleStripeWebhook, handleVippsWebhook } from "./webhooks";

/** Provider events are small; a larger body is not one of theirs. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * Provider webhooks, mounted in worker/app.ts before the browser middleware (same-origin, JSON only,
 * session, the JSON body limit): providers are not browsers, and the signature over the raw body,
 * read here as text exactly as it arrived, is the authentication.
 */
export const paymentWebhookRoutes = new Hono<AppEnv>()
  .use(
    bodyLimit({
      maxSize: WEBHOOK_BODY_LIMIT,
      onError: () => {
        throw new AppError("PAYLOAD_TOO_LARGE");
      },
    }),
  )
  .post("/stripe", async (c) => c.json(await handleStripeWebhook(c.env, await c.req.text(), c.req.header("Stripe-Signature"))))
  .post("/vipps", async (c) =>
    c.json(await handleVippsWebhook(c.env, { method: c.req.method, url: c.req.url, headers: c.req.raw.headers, body: await c.req.text() })),
  );
