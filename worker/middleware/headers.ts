import { createMiddleware } from "hono/factory";
import { appMode, type AppEnv } from "../env";
import { securityHeaders } from "../lib/security-headers";

/**
 * The security headers on every response the Worker sends: pages, API, images, errors, and the
 * files it passes through from the asset server (HSTS outside local mode). A page built on the shell
 * has set its own policy with the hashes of the shell's inline scripts; that one is kept. Staging's
 * answers are all `noindex`: search engines must never list a copy of the site (decision 136).
 */
export const securityHeadersMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const mode = appMode(c.env);
  const keepPolicy = c.res.headers.has("Content-Security-Policy");
  for (const [name, value] of Object.entries(securityHeaders({ origin: new URL(c.req.url).origin, production: mode !== "local" }))) {
    if (name === "Content-Security-Policy" && keepPolicy) continue;
    c.header(name, value);
  }
  if (mode === "staging") c.header("X-Robots-Tag", "noindex");
});
