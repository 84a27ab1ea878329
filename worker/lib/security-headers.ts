// The security headers of every response (docs/decisions/024-content-security-policy.md). The Worker
// sets them on everything it answers; built assets under /assets/* bypass the Worker and get the
// static production variant from public/_headers (a worker test keeps the two equal).

/**
 * Denied browser features. Only features Chromium recognises: an unknown name is a console error on
 * every page. Web Share and the clipboard stay allowed (the listing page's "Del" button uses them),
 * and so does fullscreen.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "browsing-topics=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()",
].join(", ");

export interface PolicyOptions {
  /**
   * The page's own origin: its WebSocket form (ws: for http, wss: for https) is allowed explicitly
   * for chat. CSP Level 3 lets 'self' match same-host WebSockets, but not every browser in use
   * does. Without it (the static _headers variant) only 'self' is listed.
   */
  origin?: string;
  /** sha256 hashes (base64) of inline scripts the served HTML carries (the shell's consent script). */
  scriptHashes?: readonly string[];
}

/**
 * The Content-Security-Policy. Scripts only from our own origin, and the inline scripts of the
 * shell by hash (`scriptHashes`, computed from the shell itself): no other inline script, no eval. The
 * JSON blocks the edge writes into slug pages (`application/ld+json`, `application/json`) are data,
 * not scripts, and need nothing. Styles allow 'unsafe-inline': the toast library and the dialogs'
 * scroll lock insert <style> elements at run time and offer no nonce; with images, fonts and
 * connections limited to our origin, injected CSS has nowhere to send anything.
 */
export function contentSecurityPolicy({ origin, scriptHashes = [] }: PolicyOptions = {}): string {
  const connect = ["'self'"];
  if (origin) {
    const url = new URL(origin);
    connect.push(`${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`);
  }
  const directives: [string, ...string[]][] = [
    ["default-src", "'none'"],
    ["script-src", "'self'", ...scriptHashes.map((h) => `'sha256-${h}'`)],
    ["style-src", "'self'", "'unsafe-inline'"],
    // data: and blob: for the photo previews the create-listing wizard shows before upload.
    ["img-src", "'self'", "data:", "blob:"],
    ["font-src", "'self'"],
    ["connect-src", ...connect],
    ["manifest-src", "'self'"],
    ["object-src", "'none'"],
    ["base-uri", "'none'"],
    ["frame-ancestors", "'none'"],
    ["form-action", "'self'"],
  ];
  return directives.map((d) => d.join(" ")).join("; ");
}

/**
 * HSTS for production: browsers come back over https only, for two years, subdomains included.
 * Browsers ignore it on plain-http answers, so local mode (http://localhost) leaves it out.
 */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/** Every header with its value; `origin` as for the policy, `production` adds HSTS. */
export function securityHeaders(options: PolicyOptions & { production?: boolean } = {}): Record<string, string> {
  return {
    ...(options.production ? { "Strict-Transport-Security": STRICT_TRANSPORT_SECURITY } : {}),
    "Content-Security-Policy": contentSecurityPolicy(options),
    "Permissions-Policy": PERMISSIONS_POLICY,
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
    // For browsers without frame-ancestors.
    "X-Frame-Options": "DENY",
  };
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const TYPE_ATTR = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/** A <script> the browser executes (classic, module, import map); any other type is a data block. */
function isExecutable(attrs: string): boolean {
  const m = TYPE_ATTR.exec(attrs);
  const type = (m?.[1] ?? m?.[2] ?? m?.[3] ?? "").trim().toLowerCase();
  return type === "" || type === "module" || type === "importmap" || /javascript|ecmascript/.test(type);
}

/**
 * sha256 (base64) of each executable inline script in a trusted HTML template (the SPA shell from
 * the assets binding, never a page that already carries user content): the consent banner's <head>
 * script, and under Vite's dev server the React refresh preamble, which `npm run dev` needs to run.
 */
export async function inlineScriptHashes(html: string): Promise<string[]> {
  const hashes: string[] = [];
  for (const [, attrs, body] of html.matchAll(INLINE_SCRIPT)) {
    if (/(?:^|\s)src\s*=/i.test(attrs) || !isExecutable(attrs) || body.length === 0) continue;
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
    hashes.push(btoa(String.fromCharCode(...new Uint8Array(digest))));
  }
  return hashes;
}
