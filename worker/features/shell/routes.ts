import { Hono } from "hono";
import { isLocal, type AppEnv, type Bindings } from "../../env";
import { isKnownRoute } from "../../../domain/routes";
import { contentSecurityPolicy, inlineScriptHashes } from "../../lib/security-headers";
import { preloadFor, preloadWrites } from "./preload";
import { firstScreenWrites, isEdgeRendered, renderPage } from "./first-screen";
import { cutShell, writeShell, type ShellTemplate, type ShellWrites } from "./shell-text";
import { RATE_RULES } from "../../../domain/rate-limits";
import { takeBindingLimit } from "../../lib/rate-limit";
import { clientAddressKey } from "../../lib/request";
import { noScriptForm } from "./no-script-forms";

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
 * request of a deployment, so its text is decoded, cut (shell-text.ts) and its inline scripts hashed
 * once, not per page.
 */
let lastShell: { etag: string; template: ShellTemplate; scriptHashes: string[] } | undefined;

async function shellText(shell: Response): Promise<{ template: ShellTemplate; scriptHashes: string[] }> {
  const etag = shell.headers.get("ETag");
  if (etag && lastShell?.etag === etag) {
    await shell.body?.cancel();
    return lastShell;
  }
  const html = await shell.text();
  const template = cutShell(html);
  const scriptHashes = await inlineScriptHashes(html);
  if (etag) lastShell = { etag, template, scriptHashes };
  return { template, scriptHashes };
}

/**
 * The SPA's index.html from the asset server with a page's parts written in (none: the shell as it
 * is), and a policy that allows exactly its inline scripts by hash: the consent banner's one-line
 * <head> script (decision 102), and under Vite's dev server its own. Every page built on the shell
 * goes through here, so each carries that policy.
 */
export async function fetchShell(env: Bindings, url: URL, writes: ShellWrites = {}): Promise<Response> {
  return shellPage(await loadShell(env, url), url, writes);
}

/** The shell as the asset server answered it, cut once it is ok. */
type LoadedShell = { ok: false; answer: Response } | { ok: true; answer: Response; template: ShellTemplate; scriptHashes: string[] };

/**
 * The shell is asked for with headers of our own, never the visitor's: a validator (If-None-Match,
 * If-Modified-Since) or a Range of theirs would get a 304 or a piece of the shell, and the page built
 * on it would be empty or cut, for everyone the edge cache then serves it to (docs/security.md).
 */
const SHELL_REQUEST = { headers: { Accept: "text/html" } } as const;

async function loadShell(env: Bindings, url: URL): Promise<LoadedShell> {
  const answer = await env.ASSETS.fetch(new Request(new URL("/", url), SHELL_REQUEST));
  if (!answer.ok) return { ok: false, answer };
  return { ok: true, answer, ...(await shellText(answer)) };
}

function shellPage(loaded: LoadedShell, url: URL, writes: ShellWrites): Response {
  if (!loaded.ok) return loaded.answer;
  const out = new Response(writeShell(loaded.template, writes), loaded.answer);
  out.headers.delete("Content-Length");
  if (loaded.scriptHashes.length) {
    out.headers.set("Content-Security-Policy", contentSecurityPolicy({ origin: url.origin, scriptHashes: loaded.scriptHashes }));
  }
  return out;
}

/** A page on the shell, revalidated on every visit, with `status` (null: the shell's own). */
function withStatus(page: Response, status: number | null, head = false): Response {
  const out = new Headers(page.headers);
  out.set("Cache-Control", "no-cache");
  out.delete("ETag");
  return new Response(head ? null : page.body, { status: status ?? page.status, headers: out });
}

async function shellWithStatus(env: Bindings, url: URL, status: number | null, head = false): Promise<Response> {
  return withStatus(await fetchShell(env, url), status, head);
}

/** The SPA shell with status 404: the SPA renders "Siden finnes ikke", crawlers see a real 404. */
export function notFoundPage(env: Bindings, url: URL): Promise<Response> {
  return shellWithStatus(env, url, 404);
}

/**
 * Navigations that reach the Worker (run_worker_first): known SPA routes get index.html with 200,
 * unknown paths get the same shell with status 404. Paths that look like files go to the asset
 * server: the few files the Worker runs first for, and files it has not got (wrangler.toml).
 */
export const pageRoutes = new Hono<AppEnv>().on(["GET", "HEAD"], "*", async (c) => {
  const url = new URL(c.req.url);
  if (/\.[a-z0-9]{1,8}$/i.test(url.pathname) || (VITE_DEV_SERVER && url.pathname.startsWith("/@"))) {
    const asset = await c.env.ASSETS.fetch(c.req.raw);
    // A file that does not exist is the app's 404 page, revalidated on every visit (decision 164).
    // The asset server answers it with an empty 404 (not_found_handling = "none"); an asset server
    // with an SPA fallback would answer the shell as a 200 instead.
    if (
      asset.status === 404 ||
      (asset.ok && !/\.html?$/i.test(url.pathname) && asset.headers.get("Content-Type")?.startsWith("text/html"))
    ) {
      await asset.body?.cancel();
      return notFoundPage(c.env, url);
    }
    return asset;
  }
  const known = isKnownRoute(url.pathname, { local: isLocal(c.env) });
  const head = c.req.method === "HEAD";
  if (!known || head) return shellWithStatus(c.env, url, known ? null : 404, head);
  // The search page's first screen runs a search: it counts with the API's searches per address
  // (decision 010), and over the limit the page comes without its results (the SPA then asks the API
  // and shows the refusal), never stored for other visitors.
  const searchRefused = SEARCH_PAGE.test(url.pathname) && !(await takeBindingLimit(c.env, RATE_RULES.searchAddress, clientAddressKey(c)));
  // The page's first-screen data goes into the shell (preload.ts); it is read beside the shell fetch.
  const [shell, preload] = await Promise.all([loadShell(c.env, url), preloadFor(c.env, c.var.db, url, { pageData: !searchRefused })]);
  if (!shell.ok) return withStatus(shell.answer, null);
  if (searchRefused) {
    const page = shellPage(shell, url, preloadWrites(preload));
    const headers = new Headers(page.headers);
    headers.set("Cache-Control", "private, no-store");
    headers.delete("ETag");
    return new Response(page.body, { status: 200, headers });
  }
  if (preload.tags) c.set("edgeTags", preload.tags);
  // The first screen as HTML for the pages visitors open directly (decision 103).
  const screen = isEdgeRendered(url.pathname) ? await renderPage({ url: url.pathname + url.search, api: preload.api }) : null;
  // Sign-in and "Glemt passord?" without JavaScript: a plain form in #root that the app replaces (decision 126).
  const plain = screen ? null : noScriptForm(url);
  const root = screen ? firstScreenWrites(screen) : plain ? { rootHtml: plain } : {};
  return withStatus(shellPage(shell, url, { ...preloadWrites(preload), ...root }), null);
});
