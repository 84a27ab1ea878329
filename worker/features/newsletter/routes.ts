import { Hono } from "hono";
import { newsletterSchema } from "../../../domain/schemas/content";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { AppEnv } from "../../env";
import { clientAddressKey } from "../../lib/request";
import { validate } from "../../lib/validate";
import { subscribe } from "./newsletter";
import { enforceRateLimits } from "../../lib/rate-limit";

export const newsletterRoutes = new Hono<AppEnv>().post("/", validate("json", newsletterSchema), async (c) => {
  const body = c.req.valid("json");
  const db = c.var.db;
  await enforceRateLimits(db, [
    [RATE_RULES.newsletterAccount, body.email],
    [RATE_RULES.newsletterAddress, clientAddressKey(c)],
  ]);
  await subscribe(db, body);
  return c.json({ ok: true }, 201);
});
