import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/**
 * Answers that are one user's, or change from one request to the next, are never stored by the
 * browser or a shared cache. Set after the handler, so it is on whatever answer the route gives,
 * its refusals too; where it sits in the chain decides which earlier refusals (sign-in, validation)
 * go without it.
 */
function cacheControl(value: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    c.header("Cache-Control", value);
  });
}

export const noStore = cacheControl("no-store");
/** The same for answers about one user's own data that name it private as well (analytics). */
export const privateNoStore = cacheControl("private, no-store");

/**
 * The default for everything the Worker answers: an answer that says nothing about caching is
 * `private, no-store`, so no browser or shared cache keeps what a route forgot to label
 * (docs/decisions/101-edge-cache.md). Pages and API answers the edge cache serves, images, the sitemap
 * and files from the asset server carry their own. A 101 (a socket) has no body to store.
 */
export const privateByDefault = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.res.status !== 101 && !c.res.headers.has("Cache-Control")) c.header("Cache-Control", "private, no-store");
});
