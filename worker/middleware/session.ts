import { createMiddleware } from "hono/factory";
import { STAFF_REFUSAL_MESSAGES } from "../../domain/moderation";
import type { Actor, AppEnv } from "../env";
import { AppError } from "../lib/errors";
import { describeGuard } from "../lib/openapi";
import { readAccessCookie } from "../lib/cookies";
import { actorForAccessToken } from "../features/auth/session";

/** Resolve the signed-in user for this request from the access cookie (features/auth/session.ts). */
export const loadActor = createMiddleware<AppEnv>(async (c, next) => {
  const token = readAccessCookie(c);
  c.set("actor", token ? await actorForAccessToken(c.env, token) : null);
  await next();
});

export const requireUser = describeGuard(
  createMiddleware<AppEnv & { Variables: { actor: Actor } }>(async (c, next) => {
    if (!c.get("actor")) throw new AppError("UNAUTHENTICATED");
    await next();
  }),
  { signedIn: true },
);

/**
 * Staff routes: the role read from D1 on this request, and no active suspension, since a suspended
 * user has no staff rights (docs/decisions/052-moderator-rights.md).
 */
export function requireRole(...roles: Exclude<Actor["role"], "user">[]) {
  return describeGuard(
    createMiddleware<AppEnv>(async (c, next) => {
      const actor = c.get("actor");
      if (!actor) throw new AppError("UNAUTHENTICATED");
      if (!(roles as Actor["role"][]).includes(actor.role)) throw new AppError("FORBIDDEN");
      if (actor.suspended) throw new AppError("FORBIDDEN", STAFF_REFUSAL_MESSAGES.suspended);
      await next();
    }),
    { signedIn: true, roles },
  );
}

/** The actor of a route behind requireUser. */
export function actorOf(c: { get(key: "actor"): Actor | null }): Actor {
  const actor = c.get("actor");
  if (!actor) throw new AppError("UNAUTHENTICATED");
  return actor;
}
