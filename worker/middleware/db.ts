import { createMiddleware } from "hono/factory";
import { getDb } from "../db/client";
import type { AppEnv } from "../env";

/**
 * The D1 client of this request as `c.var.db`, made once here instead of in every handler. Services
 * still take the client as an argument, so tests and the cron, queue and Durable Objects (which have
 * no request context) make their own with getDb.
 */
export const withDb = createMiddleware<AppEnv>(async (c, next) => {
  c.set("db", getDb(c.env.DB));
  await next();
});
