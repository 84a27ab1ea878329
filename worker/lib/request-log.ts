// One structured JSON line per request, and one per error the Worker did not expect, both under the
// request's id (docs/decisions/133-request-logs.md). Workers Logs indexes the fields of a JSON line;
// `wrangler tail` and the local server print it as it is.
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";
import { PAGE_ROUTES, type PageRoute, routeRegExp } from "../../domain/routes";
import { emptyD1Usage, type D1Usage } from "../db/usage";
import type { Bindings } from "../env";
import { serverHmacKey } from "./jwt";

/** The response header that carries the request id; the web shows it as "Feilkode". */
export const REQUEST_ID_HEADER = "X-Request-Id";

/** Cloudflare's ray id: 16 hex digits and, behind a dash, the data centre ("8f1c2d3e4a5b6c7d-OSL"). */
const RAY_ID = /^[0-9a-f]{16}(?:-[A-Z]{3,4})?$/;

/**
 * The request's id: Cloudflare's `cf-ray` (set by Cloudflare on every request it forwards, so the
 * same id is in Cloudflare's own logs), or 16 random hex digits where there is none (locally).
 * Anything else a client puts in `cf-ray` is not used: the id goes into logs and a header as it is.
 */
export function requestIdOf(request: Request): string {
  const ray = request.headers.get("cf-ray");
  if (ray && RAY_ID.test(ray)) return ray;
  return [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The route table's patterns, to name a page path by ("/annonse/:slug"). */
const PAGE_PATTERNS = (Object.values(PAGE_ROUTES) as PageRoute[]).map((route) => ({ path: route.path, re: routeRegExp(route.path) }));

/** What one request's log line is made of, gathered while it runs. */
export interface RequestTrace {
  id: string;
  /** Date.now() when the Worker got the request. */
  started: number;
  /** The request's own D1 calls (db/usage.ts `countD1Into`). */
  d1: D1Usage;
  route: string | null;
  userId: string | null;
  /** The error envelope's code, when the answer is one. */
  errorCode: string | null;
}

const traces = new WeakMap<Request, RequestTrace>();

/** The trace of `request`, begun on first ask (the Worker's fetch begins it before the app runs). */
export function traceOf(request: Request): RequestTrace {
  let trace = traces.get(request);
  if (!trace) {
    trace = { id: requestIdOf(request), started: Date.now(), d1: emptyD1Usage(), route: null, userId: null, errorCode: null };
    traces.set(request, trace);
  }
  return trace;
}

/**
 * The route pattern that answered, never the raw URL (which carries ids, slugs and queries): the
 * Hono route whose handler ran; where a middleware answered in front of a route (an edge-cache hit,
 * a refusal), the route behind it; for the SPA's pages (one catch-all route) the route table's
 * pattern ("/annonse/:slug", domain/routes.ts). Paths no route matches stay "/*".
 */
export function routePattern(c: Context): string {
  const matched = matchedRoutes(c);
  const index = c.req.routeIndex;
  let route = matched[index];
  if (route && route.method === "ALL" && route.path.endsWith("*")) {
    const behind = matched.slice(index + 1).find((r) => r.method !== "ALL" && r.path !== "/*");
    if (behind) route = behind;
  }
  const path = route?.path ?? "/*";
  if (path !== "/*") return path;
  const pathname = new URL(c.req.url).pathname;
  return PAGE_PATTERNS.find((page) => page.re.test(pathname))?.path ?? "/*";
}

/**
 * The signed-in user as a keyed hash: HMAC-SHA256 under the server secret with a label of its own,
 * 16 hex digits. The same user has the same hash in every line, so one person's requests can be
 * followed; without the secret it leads back to no id or e-mail. An operator who has a user's id
 * computes it the same way to find their lines. Null when there is no secret to key it with.
 */
export async function userHash(env: Bindings, userId: string): Promise<string | null> {
  try {
    const mac = await crypto.subtle.sign("HMAC", await serverHmacKey(env), new TextEncoder().encode(`lekebytte/log-user/v1\0${userId}`));
    return [...new Uint8Array(mac, 0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  } catch {
    return null;
  }
}

export interface RequestLine {
  type: "request";
  request_id: string;
  method: string;
  route: string | null;
  status: number;
  /** From the request's arrival to its answer, by the runtime's clock (deployed, it moves only with I/O). */
  duration_ms: number;
  /** Our Worker's own CPU, only where it can be measured (locally, for `npm run bench:load`); null otherwise. */
  cpu_ms: number | null;
  /** Trips to D1 (a batch is one): what the request waited on D1 for. */
  d1_round_trips: number;
  d1_statements: number;
  d1_rows_read: number;
  d1_rows_written: number;
  /** userHash() of the signed-in user, when the request read the session. */
  user: string | null;
  error_code: string | null;
}

export async function requestLine(
  env: Bindings,
  request: Request,
  response: Response,
  trace: RequestTrace,
  cpuMs: number | null,
): Promise<RequestLine> {
  return {
    type: "request",
    request_id: trace.id,
    method: request.method,
    route: trace.route,
    status: response.status,
    duration_ms: Date.now() - trace.started,
    cpu_ms: cpuMs,
    d1_round_trips: trace.d1.roundTrips,
    d1_statements: trace.d1.statements,
    d1_rows_read: trace.d1.rowsRead,
    d1_rows_written: trace.d1.rowsWritten,
    user: trace.userId ? await userHash(env, trace.userId) : null,
    error_code: trace.errorCode,
  };
}

export interface ErrorLine {
  type: "error";
  request_id: string;
  method: string;
  route: string;
  status: number;
  name: string;
  message: string;
  stack: string | null;
}

export function errorLine(c: Context, error: unknown, status: number): ErrorLine {
  const err = error instanceof Error ? error : new Error(String(error));
  return {
    type: "error",
    request_id: traceOf(c.req.raw).id,
    method: c.req.method,
    route: routePattern(c),
    status,
    name: err.name,
    message: err.message,
    stack: err.stack ?? null,
  };
}
