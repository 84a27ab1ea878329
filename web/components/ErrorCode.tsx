import { errorCodeText } from "../../domain/error-code";
import { isApiError } from "../api/client";

// The toasts and the operator's page write the id through here too: the text and the rule travel in
// this one chunk.
export { errorCodeText };
import { cn } from "../lib/cn";

/**
 * The request id of a server error (5xx), which the web shows as "Feilkode"; null for anything else.
 * Here, not in the client, so pages load it only with the parts that show it (the toasts, a failure).
 */
export function serverErrorId(error: unknown): string | null {
  return isApiError(error) && error.status >= 500 && error.requestId ? error.requestId : null;
}

/**
 * "Feilkode: {id}" under a failure the page shows in place, when the failure was a server error
 * (the Worker's X-Request-Id, docs/decisions/133-request-logs.md); nothing for anything else.
 */
export function ErrorCode({ error, className }: { error: unknown; className?: string }) {
  const id = serverErrorId(error);
  return id ? <p className={cn("font-mono text-sm text-stone-700 select-all", className)}>{errorCodeText(id)}</p> : null;
}
