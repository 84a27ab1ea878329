import { cloudflare } from "@cloudflare/vite-plugin";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig, type Plugin, type Rollup } from "vite";

/** The chunks `start` imports statically, itself included. */
function staticClosure(byFile: ReadonlyMap<string, Rollup.OutputChunk>, start: Rollup.OutputChunk): Set<string> {
  const seen = new Set<string>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const file of chunk.imports) {
      const next = byFile.get(file);
      if (next) visit(next);
    }
  };
  visit(start);
  return seen;
}

/** Each chunk's static imports, all the way down: loaded before its code runs (see `entryChunks`). */
const loadedWithChunk = new Map<string, ReadonlySet<string>>();
/** The client entry's own (one of `loadedWithChunk`'s sets), known once the bundle is generated. */
let loadedWithEntry: ReadonlySet<string> = new Set();
/** The page modules (web/routes) the entry imports lazily: the router's pages (see `entryChunks`). */
const routerPages = new Set<string>();

/** A lazily loaded module of web/routes (a page, or a part a page loads later). */
function isPageModule(chunk: Rollup.OutputChunk): chunk is Rollup.OutputChunk & { facadeModuleId: string } {
  return chunk.isDynamicEntry && !!chunk.facadeModuleId?.includes(`${path.sep}web${path.sep}routes${path.sep}`);
}

/**
 * Records the chunks the entry imports statically, before Vite writes each lazy import's preload
 * list. Those chunks have run before any lazy import can, so `modulePreload.resolveDependencies`
 * leaves them out of the lists: they were about 1.7 KB gzipped of the entry that every page loads
 * (decision 102). The same holds for what the chunk making the lazy import imports statically
 * (decision 160). It also records the router's pages, whose lists are left out altogether: the app
 * fetches them as route-chunks.json when idle (web/lib/routeCode.ts, decision 160).
 */
function entryChunks(): Plugin {
  return {
    name: "lekebytte:entry-chunks",
    apply: "build",
    generateBundle: {
      order: "pre",
      handler(_options, bundle) {
        if (this.environment.config.consumer !== "client") return;
        const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === "chunk");
        const entry = chunks.find((c) => c.isEntry);
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        routerPages.clear();
        loadedWithChunk.clear();
        for (const chunk of chunks) loadedWithChunk.set(chunk.fileName, staticClosure(byFile, chunk));
        loadedWithEntry = (entry && loadedWithChunk.get(entry.fileName)) ?? new Set();
        if (!entry) return;
        for (const chunk of chunks)
          if (isPageModule(chunk) && entry.dynamicImports.includes(chunk.fileName)) routerPages.add(chunk.fileName);
      },
    },
  };
}

/**
 * Writes `route-chunks.json` into the client build: for every lazily loaded page module
 * (web/routes/…/XPage.tsx) the JavaScript files it needs beyond the entry's. The Worker names them
 * in the page it serves (`#page-modules`), and the app loader fetches them together with the entry
 * instead of one round trip later (docs/decisions/020-shell-preload.md and 112).
 */
function routeChunks(): Plugin {
  return {
    name: "lekebytte:route-chunks",
    apply: "build",
    // After `entryChunks`, whose sets say what each chunk and the entry load.
    generateBundle(_options, bundle) {
      if (this.environment.config.consumer !== "client") return;
      const routes: Record<string, string[]> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk" || !isPageModule(chunk)) continue;
        const files = [...(loadedWithChunk.get(chunk.fileName) ?? [])].filter((file) => !loadedWithEntry.has(file));
        routes[path.basename(chunk.facadeModuleId).replace(/\.tsx?$/, "")] = files.map((file) => `/${file}`);
      }
      this.emitFile({ type: "asset", fileName: "route-chunks.json", source: `${JSON.stringify(routes, null, 2)}\n` });
    },
  };
}

/**
 * The stylesheet goes into index.html as a <style> element: one render-blocking request less on
 * the first load (about 9 KB gzipped; Lighthouse counted 150–380 ms on a phone).
 */
function inlineCss(): Plugin {
  return builtHtml("lekebytte:inline-css", (html, bundle) =>
    html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (tag, file: string) => {
      const asset = bundle[file];
      if (asset?.type !== "asset") return tag;
      // Without the marker Vite leaves in the one stylesheet of a build without CSS code splitting.
      return `<style>${String(asset.source).replace(/\/\*\$vite\$:\d+\*\/\s*$/, "")}</style>`;
    }),
  );
}

/** A plugin that rewrites the built index.html, after Vite's own changes to it (builds only). */
function builtHtml(name: string, rewrite: (html: string, bundle: Rollup.OutputBundle) => string): Plugin {
  return {
    name,
    apply: "build",
    enforce: "post",
    transformIndexHtml: {
      order: "post",
      handler: (html, ctx) => (ctx.bundle ? rewrite(html, ctx.bundle) : html),
    },
  };
}

/**
 * The app's code loads after the first paint (decision 112): the built page's module script and its
 * modulepreload links become one small inline loader (web/app-loader.js) that asks for the same
 * files once the browser has painted the HTML — the edge-rendered first screen and the consent
 * banner — so that paint never waits for JavaScript.
 */
function scriptsAfterFirstPaint(): Plugin {
  return builtHtml("lekebytte:scripts-after-first-paint", (html) => {
    const entries = [...html.matchAll(/<script type="module" crossorigin src="([^"]+)"><\/script>\s*/g)];
    if (entries.length !== 1) throw new Error(`index.html: expected one module script, found ${entries.length}`);
    const modules = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
    let out = html;
    for (const [tag] of [...entries, ...modules]) out = out.replace(tag, "");
    // The comments stay in the source file; the page gets the code alone.
    const code = readFileSync(path.resolve(import.meta.dirname, "web/app-loader.js"), "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("//"))
      .join("\n");
    const attr = (value: string) => value.replaceAll("&", "&amp;").replaceAll("'", "&#39;");
    const loader = `<script id="app-loader" data-entry='${attr(entries[0][1])}' data-modules='${attr(JSON.stringify(modules.map((m) => m[1])))}'>${code}</script>`;
    return out.replace("</body>", `${loader}\n  </body>`);
  });
}

/**
 * hono's RPC client imports its cookie serializer (with its name and attribute checks) for a `cookie`
 * argument, which the browser never passes: it sends its own cookies. The browser build gets a
 * stand-in that throws if it is ever called, about 0.5 KB gzipped less on every page.
 */
function honoClientWithoutCookies(): Plugin {
  return {
    name: "lekebytte:hono-client-without-cookies",
    apply: "build",
    enforce: "pre",
    resolveId(source, importer) {
      if (this.environment.config.consumer !== "client") return null;
      if (source !== "../utils/cookie.js" || !importer || !/hono[\\/]dist[\\/]client[\\/]client\.js$/.test(importer)) return null;
      return path.resolve(import.meta.dirname, "web/api/hono-client-cookies.ts");
    },
  };
}

/**
 * react-router ships its browser code as one module whose top level names each context and
 * component (`X.displayName = "…"`) and creates them with calls the bundler cannot tell are pure,
 * so nearly the whole package (data routers, forms, fetchers) stayed in every page although the
 * app uses the declarative router. Dropping the names and marking those calls pure lets the bundler
 * keep only what the app imports.
 */
function reactRouterTreeShaking(): Plugin {
  // Per environment (the client and the Worker build side by side): react-router's module seen, and
  // how many calls were marked in it.
  const counts = new Map<string, { seen: boolean; marked: number }>();
  return {
    name: "lekebytte:react-router-tree-shaking",
    apply: "build",
    buildStart() {
      counts.set(this.environment.name, { seen: false, marked: 0 });
    },
    transform(code, id) {
      if (!/react-router[\\/]dist[\\/]production[\\/]chunk-[\w-]+\.mjs$/.test(id)) return null;
      const count = counts.get(this.environment.name) ?? { seen: false, marked: 0 };
      counts.set(this.environment.name, count);
      count.seen = true;
      return code
        .replace(/^[ \t]*[\w$]+\.displayName = "[\w.]+";[ \t]*$/gm, "")
        .replace(/= (React\d*)\.(createContext|forwardRef|memo)\(/g, (_call, react: string, factory: string) => {
          count.marked++;
          return `= /* @__PURE__ */ ${react}.${factory}(`;
        });
    },
    buildEnd() {
      // A react-router release written differently would otherwise make this a silent no-op.
      const count = counts.get(this.environment.name);
      if (count?.seen && count.marked === 0)
        this.error("react-router's module no longer has the calls this plugin marks pure (decision 159)");
    },
  };
}

/**
 * react-dom makes five errors as it loads: markers it throws and knows again by identity ("not a
 * real error"). A browser with DevTools' runtime attached (Lighthouse, Playwright, an open DevTools)
 * records where each error was made, and for that parses again every function on the stack: here
 * all of react-dom's module, most of its start (decision 162). Made from Error's prototype with the
 * same message instead, without running Error, they are the same markers and record no stack.
 */
function reactMarkersWithoutStacks(): Plugin {
  const MARKERS = 5;
  return {
    name: "lekebytte:react-markers-without-stacks",
    apply: "build",
    transform(code, id) {
      if (!/react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/.test(id)) return null;
      let made = 0;
      const out = code.replace(
        /^(\s*(?:var )?\w+Exception = )Error\((formatProdErrorMessage\(\d+\))\)/gm,
        (_marker, name: string, message: string) => {
          made++;
          return `${name}Object.create(Error.prototype, { message: { value: ${message}, writable: true, configurable: true } })`;
        },
      );
      // A react-dom release written differently would otherwise make this a silent no-op.
      if (made !== MARKERS)
        this.error(`react-dom's client module has ${made} of the ${MARKERS} markers this plugin rewrites (decision 162)`);
      return out;
    },
  };
}

export default defineConfig(({ command }) => ({
  // `npm run dev` runs the Worker in local mode (dev outbox, built-in JWT fallback); the build that
  // `wrangler deploy` ships keeps wrangler.toml's production default (docs/decisions/018).
  plugins: [
    react(),
    tailwindcss(),
    cloudflare(command === "serve" ? { config: { vars: { APP_ENV: "local" } } } : {}),
    routeChunks(),
    entryChunks(),
    inlineCss(),
    scriptsAfterFirstPaint(),
    honoClientWithoutCookies(),
    reactRouterTreeShaking(),
    reactMarkersWithoutStacks(),
  ],
  resolve: {
    alias: [
      // The web's edge renderer, bundled into the Worker (decision 103); the browser never imports it.
      { find: "virtual:first-screen", replacement: path.resolve(import.meta.dirname, "web/ssr/render.tsx") },
      // react-router's package exports only its development build (dev warnings on); the production
      // build it ships beside it is the same code without them: about 0.5 KB gzipped less on every
      // page (decision 104).
      { find: /^react-router$/, replacement: path.resolve(import.meta.dirname, "node_modules/react-router/dist/production/index.mjs") },
    ],
  },
  build: {
    // One stylesheet for the whole app, inlined into the page (`inlineCss`). Split per chunk, each
    // lazily loaded chunk named the entry's stylesheet among its dependencies, and Vite's loader
    // then fetched it as a <link> and waited for it: the whole stylesheet again, and a style
    // recalculation of the page, before a lazy part (the chat's review prompt) could show.
    cssCodeSplit: false,
    modulePreload: {
      // No polyfill for <link rel="modulepreload"> (0.3 KB on every page, decision 104): a browser
      // without it (Safari before 17) fetches a page's files as it finds their imports instead.
      polyfill: false,
      // A lazy import's preload list without what the entry and the importing chunk have loaded
      // already, and none for the router's pages (see `entryChunks`).
      resolveDependencies: (file, deps, { hostId, hostType }) =>
        hostType !== "js"
          ? deps
          : routerPages.has(file)
            ? []
            : deps.filter((dep) => !loadedWithEntry.has(dep) && !loadedWithChunk.get(hostId)?.has(dep)),
    },
    // Keep the first load small: vendor code in its own long-cached chunk, routes split lazily.
    rollupOptions: {
      output: {
        // Every page runs the vendor chunk at once: Chromium (136 and later) then compiles its
        // functions on the thread that streams the file instead of on the main thread as each is
        // first called, which shortened the longest task of the chat's start by about 20 ms at 4×
        // CPU (decision 159). After minification, which would drop the comment.
        postBanner: (chunk) => (chunk.name === "react" ? "//# allFunctionsCalledOnLoad" : ""),
        codeSplitting: {
          groups: [
            // The vendor code every page runs, long-cached. TanStack's `infiniteQueryOptions` (an
            // identity function) rides along: left alone it joins whichever group below imports it
            // first, and every page with an infinite list would then load that group.
            {
              name: "react",
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]|[\\/]infiniteQueryOptions\.js$|web[\\/]vendor[\\/]/,
              priority: 3,
            },
            // Everything the entry imports statically is one chunk with it. Left to itself the
            // bundler made a small chunk of each module the entry shares with a lazy page (the API
            // client, TanStack Query's observer, the icon factory...): eight files every page loads,
            // each compressed on its own, about 2 KB more gzipped than together (decision 104).
            { name: "app", tags: ["$initial"], priority: 2 },
            // The same for what the inbox and the chat share (the live socket) and what they share
            // with the trade history and the payment pages (the chat's and the deals' API clients
            // and event names): one file each instead of three and five (decision 159). A group
            // takes the modules its members import too, unless a group above has them: keep each to
            // modules whose imports every page that loads it needs anyway.
            { name: "chat-live", test: /web[\\/]lib[\\/](liveSocket|liveInbox)\.ts$|domain[\\/]chat-days\.ts$/, priority: 0 },
            { name: "chat-api", test: /web[\\/]api[\\/](chat|trades|payment-keys|reviews)\.ts$|domain[\\/]chat\.ts$/, priority: 1 },
          ],
        },
      },
    },
  },
}));
