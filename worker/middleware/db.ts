import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { hasSessionCookie, isBookmark, readBookmarkCookie, setBookmarkCookie } from "../lib/cookies";

const READS = new Set(["GET", "HEAD"]);
/**
 * Writes nobody reads back through a replica: no bookmark, no extra query. Analytics goes to a queue;
 * signing in, refreshing and signing out are read back only by the session check, on the primary;
 * after deleting the account nothing is left to read. A chat message is written by its room, which
 * mirrors it to D1 after the answer (decision 107), and the chat reads it from the room.
 */
function nothingToReadBack(method: string, path: string): boolean {
  return (
    /^\/api\/(analytics|auth)(\/|$)/.test(path) ||
    (method === "DELETE" && /^\/api\/me\/?$/.test(path)) ||
    (method === "POST" && /^\/api\/conversations\/[^/]+\/messages\/?$/.test(path))
  );
}

/**
 * The primary's bookmark now: a new session's first query always goes to the primary. It covers every
 * write this request made, also those through env.DB (auth, moderation, payments), which the request's
 * own session never saw.
 */
async function primaryBookmark(d1: D1Database): Promise<string | null> {
  const primary = d1.withSession("first-primary");
  await primary.prepare("SELECT 1").first();
  return primary.getBookmark();
}

/**
 * The D1 client of this request as `c.var.db`, made once here instead of in every handler: a D1
 * session (docs/decisions/110-read-replicas.md). Reads start on any replica ("first-unconstrained"),
 * or on one at least as fresh as the browser's bookmark cookie (its own last write); writes start on
 * the primary, so the checks a write makes read the latest rows. After a signed-in request that wrote,
 * or that carried a bookmark the replica has since passed, the cookie gets the new bookmark. An
 * anonymous request never gets the cookie: an answer with Set-Cookie is never edge-cached (decision
 * 101). Services still take the client as an argument, so tests and the cron, queue and Durable
 * Objects (which have no request context and stay on the primary) make their own with env.DB.
 */
export const withDb = createMiddleware<AppEnv>(async (c, next) => {
  const writes = !READS.has(c.req.method);
  const carried = readBookmarkCookie(c);
  const session = c.env.DB.withSession(writes ? "first-primary" : (carried ?? "first-unconstrained"));
  c.set("db", session);
  await next();

  // A socket's 101 answer cannot be copied to add a header.
  if (!hasSessionCookie(c) || c.res.status === 101) return;
  if (writes) {
    if (c.res.status >= 400 || nothingToReadBack(c.req.method, c.req.path)) return;
    try {
      const bookmark = await primaryBookmark(c.env.DB);
      if (isBookmark(bookmark)) setBookmarkCookie(c, bookmark);
    } catch (error) {
      // The write is done; without the cookie the next read may only be a few seconds stale.
      console.error("D1 bookmark after a write failed", error);
    }
  } else if (carried) {
    // Bookmarks sort oldest to newest: move the cookie forward when this read saw a newer state.
    const bookmark = session.getBookmark();
    if (isBookmark(bookmark) && bookmark > carried) setBookmarkCookie(c, bookmark);
  }
});
