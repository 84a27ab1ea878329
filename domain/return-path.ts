/**
 * Where sign-in sends the user back to (`/auth?next=…`, docs/decisions/090-phone-findings.md):
 * only a path on this site. Anything that a browser could resolve to another origin
 * ("//evil.example", "/\evil.example", "https:…", "javascript:…"), a control character, or a path
 * back into /auth (a loop) gives null, and the caller falls back to its default.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || value.length > 512) return null;
  if (!value.startsWith("/") || value.startsWith("//")) return null;
  // Browsers read "\" as "/" in a URL, and drop tabs and newlines: "/\evil" and "/\t/evil" leave the site.
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, "https://lekebytte.invalid");
  } catch {
    return null;
  }
  if (url.origin !== "https://lekebytte.invalid") return null;
  if (url.pathname === "/auth" || url.pathname.startsWith("/auth/")) return null;
  // Dot segments can collapse into a new leading "//" ("/..//evil.example" is "//evil.example").
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") ? null : path;
}

/** `/auth` with the way back to `path` (the page the visitor was on). */
export function signInPath(path: string): string {
  const next = safeReturnPath(path);
  return next ? `/auth?${new URLSearchParams({ next })}` : "/auth";
}

/** The listing action a sign-in carries on with: `?handling=melding` opens the conversation. */
export const CONTINUE_PARAM = "handling";
export const CONTINUE_MESSAGE = "melding";
