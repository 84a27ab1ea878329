import { Hono } from "hono";
import { contactSchema } from "../../../domain/schemas/content";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { AppEnv } from "../../env";
import { clientAddressKey } from "../../lib/request";
import { validate } from "../../lib/validate";
import { storeContactMessage } from "./contact";
import { enforceRateLimit } from "../../lib/rate-limit";

/** The contact form is stored for the team (the prototype only simulated it). */
export const contactRoutes = new Hono<AppEnv>().post("/", validate("json", contactSchema), async (c) => {
  const db = c.var.db;
  await enforceRateLimit(db, RATE_RULES.contactAddress, clientAddressKey(c));
  await storeContactMessage(db, c.get("actor")?.id ?? null, c.req.valid("json"));
  return c.json({ ok: true }, 201);
});
