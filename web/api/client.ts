// Shared infrastructure of web/api/ (one module per Worker feature beside it, decision 095).
// The typed API client: Hono's `hc` over the Worker's own route types (`AppType`), so request bodies,
// path parameters, queries and response bodies are checked against the routes at compile time
// (docs/decisions/026-typed-api-client.md). Call an endpoint and unwrap its answer with `call`:
//
//   const home = await call(api.home.$get(undefined, { init: { signal } }));
//   await call(api.listings[":id"].status.$post({ param: { id: encodeURIComponent(id) }, json: { status } }));
//
// hc puts path parameters into the URL as given: encode them (encodeURIComponent) first.
import { hc, type ClientResponse } from "hono/client";
import type { ClientErrorStatusCode, ServerErrorStatusCode } from "hono/utils/http-status";
import type { ApiErrorBody, ErrorCode } from "../../domain/errors";
import type { AppType } from "../../worker/app";

/** Codes the client adds to the server's: the request never got an answer. */
export type ClientErrorCode = ErrorCode | "NETWORK";

const NETWORK_MESSAGE = "Kunne ikke kontakte Lekebytte. Sjekk nettforbindelsen og prøv igjen.";
const UNKNOWN_MESSAGE = "Noe gikk galt. Prøv igjen.";

/**
 * An API failure: HTTP status (0 when the network failed), the server's error envelope, and the
 * request id the server answered with (`X-Request-Id`, docs/decisions/133-request-logs.md).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ClientErrorCode;
  readonly fields?: Record<string, string>;
  readonly requestId?: string;

  constructor(status: number, code: ClientErrorCode, message: string, fields?: Record<string, string>, requestId?: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.requestId = requestId;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string";
}

// Auth endpoints answer 401 for their own reasons; only other calls refresh the session and retry.
const NO_REFRESH = /^\/api\/auth\/(signin|signup|signout|refresh|resend|callback)\b/;

let refreshing: Promise<boolean> | undefined;
let refreshedListener: ((session: unknown) => void) | undefined;

/** Receives the new session body after a refresh (wired to the session query in main.tsx). */
export function onSessionRefreshed(listener: (session: unknown) => void): void {
  refreshedListener = listener;
}

/**
 * POST /api/auth/refresh once, shared by every caller that needs it at the same moment (a reused
 * refresh token revokes the whole family, so two parallel refreshes must never happen).
 */
export function refreshSessionOnce(): Promise<boolean> {
  refreshing ??= fetch("/api/auth/refresh", {
    method: "POST",
    credentials: "include",
    headers: { Accept: "application/json", "Content-Type": "application/json" },
  })
    .then(async (response) => {
      if (!response.ok) return false;
      const body: unknown = await response.json().catch(() => null);
      if (body) refreshedListener?.(body);
      return true;
    })
    .catch(() => false)
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}

function pathOf(input: RequestInfo | URL): string {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  return url.startsWith("/") ? url.split("?")[0] : new URL(url).pathname;
}

/**
 * The fetch under the typed client: same-origin with the session cookies, JSON accepted, a 401
 * refreshes the session once and retries (docs/product.md "Accounts"), and a request that gets no
 * answer becomes ApiError NETWORK (an abort stays an AbortError).
 */
export async function sessionFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const method = (init.method ?? "GET").toUpperCase();
  const headers = new Headers(init.headers);
  headers.set("Accept", "application/json");
  // The Worker takes a JSON content type as part of its same-origin check for state changes.
  if (method !== "GET" && method !== "HEAD" && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  const send = async () => {
    try {
      return await fetch(input, { ...init, method, headers, credentials: "include" });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
      throw new ApiError(0, "NETWORK", NETWORK_MESSAGE);
    }
  };
  const response = await send();
  if (response.status === 401 && !NO_REFRESH.test(pathOf(input)) && (await refreshSessionOnce())) return send();
  return response;
}

/** The client for every route under /api, typed by the Worker's routes. */
export const api = hc<AppType>("/api", { fetch: sessionFetch });

/**
 * What a successful answer carries, as the route declares it: the JSON body for `c.json`, text for
 * `c.text`, nothing for 204, and `unknown` for a raw `c.body`.
 */
export type SuccessBody<R> =
  R extends ClientResponse<infer Body, infer Status, infer Format>
    ? Status extends ClientErrorStatusCode | ServerErrorStatusCode
      ? never
      : Status extends 204 | 205
        ? undefined
        : Format extends "json"
          ? Body
          : Format extends "text"
            ? string
            : unknown
    : never;

/** The success body of a typed-client endpoint function, e.g. `ResponseBody<typeof api.me.$get>`. */
export type ResponseBody<T extends (...args: never[]) => Promise<unknown>> = SuccessBody<Awaited<ReturnType<T>>>;

/**
 * Await a typed-client request and return its body (parsed JSON when the answer is JSON, else its
 * text; undefined for 204). Any other status throws an ApiError built from the error envelope
 * `{ error: { code, message, fields } }`.
 */
export async function call<R extends ClientResponse<unknown, number, string>>(request: Promise<R>): Promise<SuccessBody<R>> {
  const response: Response = await request;
  if (response.status === 204 || response.status === 205) return undefined as SuccessBody<R>;
  const text = await response.text();
  const isJson = /^application\/(.+\+)?json\b/i.test(response.headers.get("Content-Type") ?? "");
  let data: unknown = text;
  if (isJson || !response.ok) {
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
  }
  if (!response.ok) {
    const requestId = response.headers.get("X-Request-Id") ?? undefined;
    if (isErrorBody(data)) throw new ApiError(response.status, data.error.code, data.error.message, data.error.fields, requestId);
    throw new ApiError(response.status, response.status >= 500 ? "INTERNAL" : "VALIDATION", UNKNOWN_MESSAGE, undefined, requestId);
  }
  return data as SuccessBody<R>;
}
