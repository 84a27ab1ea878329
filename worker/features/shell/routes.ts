import { Hono } from "hono";
import { isLocal, type AppEnv, type Bindings } from "../../env";
import { isKnownRoute } from "../../../domain/routes";
import { contentSecurityPolicy, inlineScriptHashes } from "../../lib/security-headers";
import { preloadFor, withPreload } from "./preload";
import { isEdgeRendered, renderPage, withFirstScreen } from "./first-screen";
import { RATE_RULES } from "../../../domain/rate-limits";
import { takeBindingLimit } from "../../lib/rate-limit";
import { clientAddressKey } from "../../lib/request";

/** The search page: its first screen is a search (preload.ts). */
const SEARCH_PAGE = /^\/search\/?$/;

/**
 * Under `npm run dev` the Vite dev server serves its own modules (/@vite/client, /@react-refresh,
 * /@fs/…) through the assets binding; they are not SPA routes. Vite defines import.meta.env there;
 * the production bundle (wrangler's) does not.
 */
const VITE_DEV_SERVER = (import.meta as { env?: { DEV?: boolean } }).env?.DEV === true;

/**
 * The last shell this isolate read, by its ETag: the asset server's index.html is the same on every
 * request of a deployment, so its text is decoded and its inline scripts hashed once, not per page.
 */
let lastShell: { etag: string; html: string; scriptHashes: string[] } | undefined;

async function shellText(shell: Response): Promise<{ html: string; scriptHashes: string[] }> {
  const etag = shell.headers.get("ETag");
  if (etag && lastShell?.etag === etag) {
    await shell.body?.cancel();
    return lastShell;
  }
  const html = await shell.text();
  const scriptHashes = await inlineScriptHashes(html);
  if (etag) lastShell = { etag, html, scriptHashes };
  return { html, scriptHashes };
}

/**
 * The SPA's index.html from the asset server, with a policy that allows exactly its inline scripts
 * by hash: the consent banner's one-line <head> script (decision 102), and under Vite's dev server
 * its own. Every page built on the shell goes through here, so each carries that policy.
 */
export async function fetchShell(env: Bindings, url: URL, headers: Headers): Promise<Response> {
  const shell = await env.ASSETS.fetch(new Request(new URL("/", url), { headers }));
  if (!shell.ok) return shell;
  const { html, scriptHashes } = await shellText(shell);
  const out = new Response(html, shell);
  out.headers.delete("Content-Length");
  if (scriptHashes.length) out.headers.set("Content-Security-Policy", contentSecurityPolicy({ origin: url.origin, scriptHashes }));
  return out;
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
  if (/\.[a-z0-9]{1,8}$/i.test(url.pathname) || (VITE_DEV_SERVER && url.pathname.startsWith("/@"))) {
    const asset = await c.env.ASSETS.fetch(c.req.raw);
    // The asset server answers a missing file with the SPA shell (not_found_handling): a file that
    // does not exist is a real 404, not a 200 page (docs/decisions/060).
    if (asset.ok && !/\.html?$/i.test(url.pathname) && asset.headers.get("Content-Type")?.startsWith("text/html")) {
      await asset.body?.cancel();
      return notFoundPage(c.env, url, c.req.raw.headers);
    }
    return asset;
  }
  const known = isKnownRoute(url.pathname, { local: isLocal(c.env) });
  const head = c.req.method === "HEAD";
  if (!known || head) return shellWithStatus(c.env, url, c.req.raw.headers, known ? null : 404, head);
  // The search page's first screen runs a search: it counts with the API's searches per address
  // (decision 010), and over the limit the page comes without its results (the SPA then asks the API
  // and shows the refusal), never stored for other visitors.
  const searchRefused = SEARCH_PAGE.test(url.pathname) && !(await takeBindingLimit(c.env, RATE_RULES.searchAddress, clientAddressKey(c)));
  // The page's first-screen data goes into the shell (preload.ts); it runs beside the shell fetch.
  const [shell, preload] = await Promise.all([
    shellWithStatus(c.env, url, c.req.raw.headers, null),
    preloadFor(c.env, c.var.db, url, { pageData: !searchRefused }),
  ]);
  if (!shell.ok) return shell;
  if (searchRefused) {
    const page = withPreload(new HTMLRewriter(), preload).transform(shell);
    const headers = new Headers(page.headers);
    headers.set("Cache-Control", "private, no-store");
    return new Response(page.body, { status: 200, headers });
  }
  if (preload.tags) c.set("edgeTags", preload.tags);
  // The first screen as HTML for the pages visitors open directly (decision 103).
  const screen = isEdgeRendered(url.pathname) ? await renderPage({ url: url.pathname + url.search, api: preload.api }) : null;
  const rewriter = withPreload(new HTMLRewriter(), preload);
  return (screen ? withFirstScreen(rewriter, screen) : rewriter).transform(shell);
});
