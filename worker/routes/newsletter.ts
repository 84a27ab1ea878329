import { Hono } from "hono";
import { newsletterSchema } from "../../domain/schemas/content";
import type { AppEnv } from "../env";
import { clientIp } from "../lib/request";
import { enforceRateLimits, RATE_RULES } from "../lib/rate-limit";
import { validate } from "../lib/validate";
import { subscribe } from "../services/newsletter";

export const newsletterRoutes = new Hono<AppEnv>().post("/", validate("json", newsletterSchema), async (c) => {
  const body = c.req.valid("json");
  await enforceRateLimits(c.env.DB, [
    [RATE_RULES.newsletterIp, clientIp(c)],
    [RATE_RULES.newsletterEmail, body.email],
  ]);
  await subscribe(c.env.DB, body);
  return c.json({ ok: true }, 201);
});
