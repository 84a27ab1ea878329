import { REQUEST_REFUSALS } from "../../domain/errors";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { AppError } from "../lib/errors";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * State-changing requests must come from our own pages: a browser always sends Origin on a
 * cross-site POST, and Sec-Fetch-Site tells cross-site from same-origin. Non-browser clients
 * (no Origin, no Sec-Fetch-Site) cannot carry a victim's cookies, so they pass.
 */
export const sameOriginOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (MUTATING.has(c.req.method)) {
    const origin = c.req.header("Origin");
    const requestOrigin = new URL(c.req.url).origin;
    const fetchSite = c.req.header("Sec-Fetch-Site");
    if (origin && origin !== requestOrigin && origin !== c.env.APP_ORIGIN) {
      throw new AppError("FORBIDDEN", REQUEST_REFUSALS.foreignOrigin);
    }
    if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") {
      throw new AppError("FORBIDDEN", REQUEST_REFUSALS.foreignOrigin);
    }
  }
  await next();
});

/** JSON routes accept only JSON bodies (a form post from another site cannot reach them). */
export const jsonBodiesOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (MUTATING.has(c.req.method)) {
    const length = c.req.header("Content-Length");
    const hasBody = (length !== undefined && length !== "0") || c.req.header("Transfer-Encoding") !== undefined;
    const type = c.req.header("Content-Type") ?? "";
    if (hasBody && !/^application\/json\b/i.test(type)) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", REQUEST_REFUSALS.jsonOnly);
    }
  }
  await next();
});
