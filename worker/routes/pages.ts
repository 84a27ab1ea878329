import { Hono } from "hono";
import type { AppEnv, Bindings } from "../env";
import { isKnownRoute } from "../../domain/routes";
import { preloadFor, withPreload } from "./preload";

/** The SPA's index.html from the asset server. */
export function fetchShell(env: Bindings, url: URL, headers: Headers): Promise<Response> {
  return env.ASSETS.fetch(new Request(new URL("/", url), { headers }));
}

async function shellWithStatus(env: Bindings, url: URL, headers: Headers, status: number | null, head = false): Promise<Response> {
  const shell = await fetchShell(env, url, headers);
  const out = new Headers(shell.headers);
  out.set("Cache-Control", "no-cache");
  out.delete("ETag");
  return new Response(head ? null : shell.body, { status: status ?? shell.status, headers: out });
}

/** The SPA shell with status 404: the SPA renders "Siden finnes ikke", crawlers see a real 404. */
export function notFoundPage(env: Bindings, url: URL, headers: Headers): Promise<Response> {
  return shellWithStatus(env, url, headers, 404);
}

/**
 * Navigations that reach the Worker (run_worker_first): known SPA routes get index.html with 200,
 * unknown paths get the same shell with status 404. Paths that look like files go straight to the
 * asset server.
 */
export const pageRoutes = new Hono<AppEnv>().on(["GET", "HEAD"], "*", async (c) => {
  const url = new URL(c.req.url);
  if (/\.[a-z0-9]{1,8}$/i.test(url.pathname)) return c.env.ASSETS.fetch(c.req.raw);
  const known = isKnownRoute(url.pathname);
  const head = c.req.method === "HEAD";
  if (!known || head) return shellWithStatus(c.env, url, c.req.raw.headers, known ? null : 404, head);
  // The page's first-screen data goes into the shell (routes/preload.ts); it runs beside the shell fetch.
  const [shell, preload] = await Promise.all([shellWithStatus(c.env, url, c.req.raw.headers, null), preloadFor(c.env, url)]);
  if (!shell.ok) return shell;
  return withPreload(new HTMLRewriter(), preload).transform(shell);
});
