import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { traceOf } from "../../lib/request-log";
import { recordWebhookRefusal } from "./webhook-refusals";
import { handleStripeWebhook, handleVippsWebhook } from "./webhooks";

/** Provider events are small; a larger body is not one of theirs. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * Provider webhooks, mounted in worker/app.ts before the browser middleware (same-origin, JSON only,
 * session, the JSON body limit): providers are not browsers, and the signature over the raw body,
 * read here as text exactly as it arrived, is the authentication.
 */
export const paymentWebhookRoutes = new Hono<AppEnv>()
  // Every refusal (signature, body, configuration, size) is counted for the operator's page.
  .use(async (c, next) => {
    await next();
    const provider = /\/(stripe|vipps)$/.exec(c.req.path)?.[1] as "stripe" | "vipps" | undefined;
    if (!provider || c.req.method !== "POST" || c.res.status < 400) return;
    try {
      await recordWebhookRefusal(c.env, provider, traceOf(c.req.raw).errorCode ?? String(c.res.status));
    } catch (error) {
      // The refusal stands as answered; only the page's count misses it.
      console.error("Webhook refusal not counted", provider, error instanceof Error ? error.message : error);
    }
  })
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
