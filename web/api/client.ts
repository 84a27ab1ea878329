import type { ApiErrorBody, ErrorCode } from "../../domain/errors";

/** Codes the client adds to the server's: the request never got an answer. */
export type ClientErrorCode = ErrorCode | "NETWORK";

const NETWORK_MESSAGE = "Kunne ikke kontakte Lekebytte. Sjekk nettforbindelsen og prøv igjen.";
const UNKNOWN_MESSAGE = "Noe gikk galt. Prøv igjen.";

/** An API failure: HTTP status (0 when the network failed) and the server's error envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ClientErrorCode;
  readonly fields?: Record<string, string>;

  constructor(status: number, code: ClientErrorCode, message: string, fields?: Record<string, string>) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface ApiRequestInit extends Omit<RequestInit, "body"> {
  /** Serialised as JSON. */
  body?: unknown;
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

/**
 * Same-origin JSON request with the session cookies. A 401 refreshes the session once and retries
 * (DESIGN "Session refresh"). Resolves to the parsed body (undefined for
 * 204) and throws an ApiError built from the `{ error: { code, message, fields } }` envelope.
 */
export async function apiFetch<T>(path: string, init: ApiRequestInit = {}): Promise<T> {
  return request<T>(path, init, true);
}

async function request<T>(path: string, init: ApiRequestInit, mayRefresh: boolean): Promise<T> {
  const { body, headers, ...rest } = init;
  const method = (rest.method ?? (body === undefined ? "GET" : "POST")).toUpperCase();
  const requestHeaders = new Headers(headers);
  requestHeaders.set("Accept", "application/json");
  // The Worker treats a JSON content type as part of its same-origin check for state changes.
  if (method !== "GET" && method !== "HEAD") requestHeaders.set("Content-Type", "application/json");

  let response: Response;
  try {
    response = await fetch(path, {
      ...rest,
      method,
      headers: requestHeaders,
      credentials: "include",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError(0, "NETWORK", NETWORK_MESSAGE);
  }

  if (response.status === 401 && mayRefresh && !NO_REFRESH.test(path) && (await refreshSessionOnce())) {
    return request<T>(path, init, false);
  }

  if (response.status === 204 || response.status === 205) return undefined as T;

  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }

  if (!response.ok) {
    if (isErrorBody(data)) {
      throw new ApiError(response.status, data.error.code, data.error.message, data.error.fields);
    }
    throw new ApiError(response.status, response.status >= 500 ? "INTERNAL" : "VALIDATION", UNKNOWN_MESSAGE);
  }
  return data as T;
}
