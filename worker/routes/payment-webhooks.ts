import { Hono } from "hono";
import type { AppEnv } from "../env";
import { AppError } from "../lib/errors";
import { handleStripeWebhook, handleVippsWebhook } from "../services/payments/webhooks";

/** Provider events are small; a larger body is not one of theirs. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

async function rawBody(req: Request): Promise<string> {
  const length = Number(req.headers.get("Content-Length") ?? 0);
  if (length > WEBHOOK_BODY_LIMIT) throw new AppError("PAYLOAD_TOO_LARGE");
  const text = await req.text();
  if (text.length > WEBHOOK_BODY_LIMIT) throw new AppError("PAYLOAD_TOO_LARGE");
  return text;
}

/**
 * Provider webhooks: no session, no same-origin check (providers are not browsers); the signature
 * over the raw body is the authentication.
 */
export const paymentWebhookRoutes = new Hono<AppEnv>()
  .post("/stripe", async (c) => c.json(await handleStripeWebhook(c.env, await rawBody(c.req.raw), c.req.header("Stripe-Signature"))))
  .post("/vipps", async (c) =>
    c.json(await handleVippsWebhook(c.env, { method: c.req.method, url: c.req.url, headers: c.req.raw.headers, body: await rawBody(c.req.raw) })),
  );
