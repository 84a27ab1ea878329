import { REQUEST_REFUSALS } from "../../domain/errors";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { isLocal } from "../env";
import { AppError } from "../lib/errors";
import { hasSigningSecret } from "../lib/jwt";

/**
 * APP_ORIGIN as deployed: https and a real host. The committed value is http://localhost:8787 (what
 * `npm start` uses); deployed as it is, e-mail links, payment return URLs and the origin check would
 * all point at the reader's own machine.
 */
export function isPublicOrigin(origin: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin ?? "");
  } catch {
    return false;
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopback = host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "::1" || host === "0.0.0.0";
  return url.protocol === "https:" && !loopback;
}

/** What is wrong with the deployed configuration (for the log), or null when it may serve. */
export function configurationProblem(env: AppEnv["Bindings"]): string | null {
  if (isLocal(env)) return null;
  if (!hasSigningSecret(env)) {
    return "JWT_SECRET is missing, shorter than 32 characters or the public value from .dev.vars.example (set a random one with `wrangler secret put JWT_SECRET`).";
  }
  if (!isPublicOrigin(env.APP_ORIGIN))
    return `APP_ORIGIN is "${env.APP_ORIGIN}": set the site's https origin in wrangler.toml [vars] before deploying.`;
  return null;
}

/**
 * Production is the default (docs/decisions/018-production-by-default.md): outside local mode the
 * Worker refuses every request while JWT_SECRET is missing, short or public, or APP_ORIGIN is not a
 * public https origin, instead of running with a guessable key or links to localhost. Local mode
 * comes only from .dev.vars, the start scripts or the test config.
 */
export const requireConfiguration = createMiddleware<AppEnv>(async (c, next) => {
  const problem = configurationProblem(c.env);
  if (problem) {
    console.error(`Refusing to serve: ${problem}`);
    throw new AppError("INTERNAL", REQUEST_REFUSALS.notConfigured);
  }
  await next();
});
