import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { REQUEST_ID_HEADER, routePattern, traceOf } from "../lib/request-log";

/**
 * The first middleware of the app (docs/decisions/133-request-logs.md): the request's id as
 * `c.var.requestId` and, on every answer, in `X-Request-Id` (the web shows it as "Feilkode"); after
 * the answer, the route pattern and the signed-in user for the request's log line, which the
 * Worker's fetch writes (worker/index.ts).
 */
export const traceRequest = createMiddleware<AppEnv>(async (c, next) => {
  const trace = traceOf(c.req.raw);
  c.set("requestId", trace.id);
  await next();
  trace.route = routePattern(c);
  trace.userId = c.get("actor")?.id ?? null;
  c.header(REQUEST_ID_HEADER, trace.id);
});
