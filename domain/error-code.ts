/**
 * A server error's request id as the web and the Worker's error page show it, so a parent's support
 * mail names the request (docs/decisions/133-request-logs.md). A module of its own: the web loads it
 * only with the parts that show it, without the error texts of errors.ts.
 */
export function errorCodeText(requestId: string): string {
  return `Feilkode: ${requestId}`;
}
