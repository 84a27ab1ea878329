// What the app does with an error it did not expect, and the page a navigation gets for a server
// error (docs/decisions/133-request-logs.md).
import { HTTPException } from "hono/http-exception";
import { errorCodeText } from "../../domain/error-code";
import { DEFAULT_ERROR_MESSAGES, SERVER_ERROR_TEXTS } from "../../domain/errors";
import type { AppContext } from "../env";
import { storeRequestError } from "./error-store";
import { AppError, errorResponse } from "./errors";
import { escapeText } from "./html";
import { errorLine, traceOf, userHash } from "./request-log";

/**
 * One JSON error line with the stack under the request id, and the error kept in D1 for the
 * operator's page after the answer (`waitUntil`). A failure to keep it is logged, never thrown.
 */
export function reportUnexpectedError(c: AppContext, error: unknown): void {
  const line = errorLine(c, error, 500);
  console.error(JSON.stringify(line));
  const actorId = c.get("actor")?.id ?? null;
  const kept = (async () => storeRequestError(c.env, line, actorId ? await userHash(c.env, actorId) : null))().catch((failure: unknown) =>
    console.error(
      JSON.stringify({
        type: "error",
        request_id: line.request_id,
        message: `The error could not be kept for /admin/drift: ${failure instanceof Error ? failure.message : String(failure)}`,
      }),
    ),
  );
  let ctx: { waitUntil(promise: Promise<unknown>): void } | undefined;
  try {
    ctx = c.executionCtx;
  } catch {
    // app.fetch without an execution context (a test): the write runs on its own.
  }
  ctx?.waitUntil(kept);
}

/** A browser navigating to a page (not the API, not a photo): it reads HTML, not the JSON envelope. */
export function wantsPage(c: AppContext): boolean {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return false;
  const path = c.req.path;
  if (path === "/api" || path.startsWith("/api/") || path.startsWith("/images/")) return false;
  return (c.req.header("Accept") ?? "").includes("text/html");
}

/** A small page of its own (no app, no assets): the server could not build the real one. */
export function serverErrorPage(c: AppContext, err: AppError): Response {
  const trace = traceOf(c.req.raw);
  trace.errorCode = err.code;
  const text = err.message === DEFAULT_ERROR_MESSAGES.INTERNAL ? SERVER_ERROR_TEXTS.text : err.message;
  const html = `<!doctype html>
<html lang="nb">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeText(SERVER_ERROR_TEXTS.title)} – ${escapeText(c.env.APP_NAME)}</title>
<style>
body{margin:0;font-family:system-ui,sans-serif;background:#fafaf9;color:#1c1917}
main{max-width:32rem;margin:0 auto;padding:4rem 1.25rem;text-align:center}
h1{font-size:1.5rem;margin:0 0 .75rem}
p{margin:0 0 1rem;line-height:1.5}
.code{font-family:ui-monospace,monospace;background:#f5f5f4;border-radius:.5rem;padding:.5rem .75rem;display:inline-block;user-select:all}
a{display:inline-block;margin-top:1rem;padding:.75rem 1.25rem;border-radius:.75rem;background:#0f766e;color:#fff;text-decoration:none;font-weight:600}
</style>
</head>
<body>
<main>
<h1>${escapeText(SERVER_ERROR_TEXTS.title)}</h1>
<p>${escapeText(text)}</p>
<p class="code">${escapeText(errorCodeText(trace.id))}</p>
<p>${escapeText(SERVER_ERROR_TEXTS.codeHint)}</p>
<a href="/">${escapeText(SERVER_ERROR_TEXTS.home)}</a>
</main>
</body>
</html>
`;
  return c.html(html, err.status);
}

/** The HTTPExceptions Hono's own middleware throws for a bad request, and their envelope's code. */
const KNOWN_HTTP_EXCEPTIONS: Record<number, "VALIDATION" | "UNAUTHENTICATED" | "PAYLOAD_TOO_LARGE"> = {
  400: "VALIDATION",
  401: "UNAUTHENTICATED",
  413: "PAYLOAD_TOO_LARGE",
};

/**
 * The app's error handler: an AppError is its own envelope; Hono's known refusals theirs; anything
 * else (an unknown HTTPException too) is a fault of ours, logged with its stack under the request id
 * and kept for /admin/drift before the generic 500. A navigation to a page gets a page that shows
 * the request id instead of the JSON envelope for a server error.
 */
export function handleAppError(err: Error, c: AppContext): Response {
  let answer: AppError;
  if (err instanceof AppError) answer = err;
  else if (err instanceof HTTPException && KNOWN_HTTP_EXCEPTIONS[err.status]) answer = new AppError(KNOWN_HTTP_EXCEPTIONS[err.status]);
  else {
    reportUnexpectedError(c, err);
    answer = new AppError("INTERNAL");
  }
  if (answer.status >= 500 && wantsPage(c)) return serverErrorPage(c, answer);
  return errorResponse(c, answer);
}
