import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { isLocal } from "../env";
import { AppError } from "../lib/errors";
import { hasSigningSecret } from "../lib/jwt";

/**
 * Production is the default (docs/decisions/018-production-by-default.md): outside local mode the
 * Worker refuses every request while JWT_SECRET is missing or short, instead of running with a
 * guessable key. Local mode comes only from .dev.vars, the start scripts or the test config.
 */
export const requireConfiguration = createMiddleware<AppEnv>(async (c, next) => {
  if (!isLocal(c.env) && !hasSigningSecret(c.env)) {
    console.error("Refusing to serve: JWT_SECRET is missing or shorter than 32 characters (set it with `wrangler secret put JWT_SECRET`).");
    throw new AppError("INTERNAL", "Tjenesten er ikke ferdig satt opp. Prøv igjen senere.");
  }
  await next();
});
