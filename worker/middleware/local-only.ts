import { createMiddleware } from "hono/factory";
import { isLocal, type AppEnv } from "../env";
import { AppError } from "../lib/errors";
import { describeLocalOnly } from "../lib/openapi";

/**
 * Development routes (mail viewer, analytics summary, saved-search matcher, notification test)
 * exist only in local mode: everywhere else they answer 404 as if they were not there.
 */
export const localOnly = describeLocalOnly(
  createMiddleware<AppEnv>(async (c, next) => {
    if (!isLocal(c.env)) throw new AppError("NOT_FOUND");
    await next();
  }),
);
