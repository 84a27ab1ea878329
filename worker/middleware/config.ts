import { REQUEST_REFUSALS } from "../../domain/errors";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { isLoopbackOrigin, parsedOrigin, readMode } from "../env";
import { AppError } from "../lib/errors";
import { hasSigningSecret } from "../lib/jwt";

/**
 * APP_ORIGIN as deployed: https and a real host. The committed top-level value is
 * http://localhost:8787 (what `npm start` uses); deployed as it is, e-mail links, payment return URLs
 * and the origin check would all point at the reader's own machine.
 */
export function isPublicOrigin(origin: string | undefined): boolean {
  const url = parsedOrigin(origin);
  if (!url) return false;
  const host = url.hostname;
  const local = isLoopbackOrigin(origin) || host.endsWith(".localhost") || host === "0.0.0.0";
  return url.protocol === "https:" && !local;
}

/** What is wrong with the configuration (for the log), or null when it may serve. */
export function configurationProblem(env: AppEnv["Bindings"]): string | null {
  const read = readMode(env);
  if (read.mode === null) return read.reason;
  if (read.mode === "local") return null;
  if (!hasSigningSecret(env)) {
    return "JWT_SECRET is missing, shorter than 32 characters or the public value from .dev.vars.example (set a random one with `wrangler secret put JWT_SECRET`).";
  }
  if (!isPublicOrigin(env.APP_ORIGIN))
    return `APP_ORIGIN is "${env.APP_ORIGIN}": set the site's https origin in wrangler.toml [env.${read.mode}.vars] before deploying.`;
  return null;
}

/**
 * Production is the default (docs/decisions/018-production-by-default.md, 135): outside local mode
 * the Worker refuses every request with a 503 while JWT_SECRET is missing, short or public, or
 * APP_ORIGIN is not a public https origin, instead of running with a guessable key or links to
 * localhost; and so it does when APP_ENV says "local" on a real host or names no mode at all.
 */
export const requireConfiguration = createMiddleware<AppEnv>(async (c, next) => {
  const problem = configurationProblem(c.env);
  if (problem) {
    console.error(`Refusing to serve: ${problem}`);
    throw new AppError("SERVICE_UNAVAILABLE", REQUEST_REFUSALS.notConfigured);
  }
  await next();
});
