import { Hono } from "hono";
import { contactSchema } from "../../domain/schemas/content";
import type { AppEnv } from "../env";
import { clientIp } from "../lib/request";
import { enforceRateLimits, RATE_RULES } from "../lib/rate-limit";
import { validate } from "../lib/validate";
import { storeContactMessage } from "../services/contact";

/** The contact form is stored for the team (the prototype only simulated it). */
export const contactRoutes = new Hono<AppEnv>().post("/", validate("json", contactSchema), async (c) => {
  await enforceRateLimits(c.env.DB, [[RATE_RULES.contactIp, clientIp(c)]]);
  await storeContactMessage(c.env.DB, c.get("actor")?.id ?? null, c.req.valid("json"));
  return c.json({ ok: true }, 201);
});
