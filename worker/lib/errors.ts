import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DEFAULT_ERROR_MESSAGES, ERROR_STATUS, type ApiErrorBody, type ErrorCode } from "../../domain/errors";
import { traceOf } from "./request-log";

/** The only error type routes and services throw; `app.onError` turns it into the JSON envelope. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? DEFAULT_ERROR_MESSAGES[code]);
  }
  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.code] as ContentfulStatusCode;
  }
}

export function errorBody(code: ErrorCode, message?: string, fields?: Record<string, string>): ApiErrorBody {
  return { error: { code, message: message ?? DEFAULT_ERROR_MESSAGES[code], ...(fields ? { fields } : {}) } };
}

export function errorResponse(c: Context, err: AppError): Response {
  // The request's log line names the code it was answered with.
  traceOf(c.req.raw).errorCode = err.code;
  for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
  return c.json(errorBody(err.code, err.message, err.fields), err.status);
}
