import { Hono } from "hono";
import type { AppEnv } from "../env";
import { isKnownRoute } from "../../domain/routes";

/**
 * Navigations that reach the Worker (run_worker_first): known SPA routes get index.html with 200,
 * unknown paths get the same shell with status 404 so crawlers and tools see a real 404 while the
 * SPA renders "Siden finnes ikke". Paths that look like files go straight to the asset server.
 */
export const pageRoutes = new Hono<AppEnv>().on(["GET", "HEAD"], "*", async (c) => {
  const url = new URL(c.req.url);
  if (/\.[a-z0-9]{1,8}$/i.test(url.pathname)) return c.env.ASSETS.fetch(c.req.raw);
  const shell = await c.env.ASSETS.fetch(new Request(new URL("/", url), { headers: c.req.raw.headers }));
  const status = isKnownRoute(url.pathname) ? shell.status : 404;
  const headers = new Headers(shell.headers);
  headers.set("Cache-Control", "no-cache");
  return new Response(c.req.method === "HEAD" ? null : shell.body, { status, headers });
});
