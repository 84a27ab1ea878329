import { errorCodeText } from "../../domain/errors";
import { serverErrorId } from "../api/client";
import { cn } from "../lib/cn";

/**
 * "Feilkode: {id}" under a failure the page shows in place, when the failure was a server error
 * (the Worker's X-Request-Id, docs/decisions/133-request-logs.md); nothing for anything else.
 */
export function ErrorCode({ error, className }: { error: unknown; className?: string }) {
  const id = serverErrorId(error);
  return id ? <p className={cn("font-mono text-sm text-stone-700 select-all", className)}>{errorCodeText(id)}</p> : null;
}
