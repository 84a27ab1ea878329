import { Hono } from "hono";
import { CARRIERS } from "../../../domain/carriers";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { traceOf } from "../../lib/request-log";
import { recordWebhookRefusal } from "../payments/webhook-refusals";
import { CARRIER_SIGNATURE_HEADER } from "../carriers/carrier-signature";
import { handleTrackingWebhook } from "./tracking-webhook";

/** A tracking event is a few hundred bytes; a larger body is not one. */
const WEBHOOK_BODY_LIMIT = 64 * 1024;

/**
 * The carriers' tracking webhooks, /bring and /helthjem, mounted in worker/app.ts beside the payment webhooks and before
 * the browser middleware: the carrier is not a browser, and the signature over the raw body, read
 * here as text exactly as it arrived, is the authentication.
 */
export const shippingWebhookRoutes = new Hono<AppEnv>()
  // Every refusal (signature, body, configuration, size) is counted for the operator's page.
  .use(async (c, next) => {
    await next();
    const carrier = CARRIERS.find((name) => c.req.path.endsWith(`/${name}`));
    if (c.req.method !== "POST" || c.res.status < 400 || !carrier) return;
    try {
      await recordWebhookRefusal(c.env, carrier, traceOf(c.req.raw).errorCode ?? String(c.res.status));
    } catch (error) {
      // The refusal stands as answered; only the page's count misses it.
      console.error("Webhook refusal not counted", carrier, error instanceof Error ? error.message : error);
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
  .post("/bring", async (c) =>
    c.json(await handleTrackingWebhook(c.env, "bring", await c.req.text(), c.req.header(CARRIER_SIGNATURE_HEADER))),
  )
  .post("/helthjem", async (c) =>
    c.json(await handleTrackingWebhook(c.env, "helthjem", await c.req.text(), c.req.header(CARRIER_SIGNATURE_HEADER))),
  );
