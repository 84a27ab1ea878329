import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/**
 * Answers that are one user's, or change from one request to the next, are never stored by the
 * browser or a shared cache. Set after the handler, so it is on whatever answer the route gives,
 * its refusals too; where it sits in the chain decides which earlier refusals (sign-in, validation)
 * go without it.
 */
function cacheControl(value: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    c.header("Cache-Control", value);
  });
}

export const noStore = cacheControl("no-store");
/** The same for answers about one user's own data that name it private as well (analytics). */
export const privateNoStore = cacheControl("private, no-store");
