import { cloudflare } from "@cloudflare/vite-plugin";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import path from "node:path";
import { defineConfig, type Plugin, type Rollup } from "vite";

/** The chunks `start` imports statically, itself included, leaving out `skip`. */
function staticClosure(byFile: ReadonlyMap<string, Rollup.OutputChunk>, start: Rollup.OutputChunk, skip: ReadonlySet<string>): string[] {
  const seen = new Set<string>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (seen.has(chunk.fileName) || skip.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const file of chunk.imports) {
      const next = byFile.get(file);
      if (next) visit(next);
    }
  };
  visit(start);
  return [...seen];
}

/** The client entry's static chunks, known once the bundle is generated (see `entryChunks`). */
const loadedWithEntry = new Set<string>();

/**
 * Records the chunks the entry imports statically, before Vite writes each lazy import's preload
 * list. Those chunks have run before any lazy import can, so `modulePreload.resolveDependencies`
 * leaves them out of the lists: they were about 1.7 KB gzipped of the entry that every page loads
 * (decision 102).
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
        loadedWithEntry.clear();
        if (!entry) return;
        for (const file of staticClosure(new Map(chunks.map((c) => [c.fileName, c])), entry, new Set())) loadedWithEntry.add(file);
      },
    },
  };
}

/**
 * Writes `route-chunks.json` into the client build: for every lazily loaded page module
 * (web/routes/…/XPage.tsx) the JavaScript files it needs beyond the entry's. The Worker puts them
 * into the page it serves as <link rel="modulepreload">, so a phone fetches the page's code together
 * with the entry instead of one round trip later (docs/decisions/020-shell-preload.md).
 */
function routeChunks(): Plugin {
  return {
    name: "lekebytte:route-chunks",
    apply: "build",
    generateBundle(_options, bundle) {
      if (this.environment.config.consumer !== "client") return;
      const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === "chunk");
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (start: Rollup.OutputChunk, skip: ReadonlySet<string>) => staticClosure(byFile, start, skip);
      const entry = chunks.find((c) => c.isEntry);
      const inEntry = new Set(entry ? closure(entry, new Set()) : []);
      const routes: Record<string, string[]> = {};
      for (const chunk of chunks) {
        const module = chunk.facadeModuleId;
        if (!chunk.isDynamicEntry || !module?.includes(`${path.sep}web${path.sep}routes${path.sep}`)) continue;
        routes[path.basename(module).replace(/\.tsx?$/, "")] = closure(chunk, inEntry).map((file) => `/${file}`);
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
  return {
    name: "lekebytte:inline-css",
    apply: "build",
    enforce: "post",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = ctx.bundle![file];
          if (asset?.type !== "asset") return tag;
          return `<style>${String(asset.source)}</style>`;
        });
      },
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
    modulePreload: {
      // No polyfill for <link rel="modulepreload"> (0.3 KB on every page, decision 104): a browser
      // without it (Safari before 17) fetches a page's files as it finds their imports instead.
      polyfill: false,
      // A lazy import's preload list without what the entry has loaded already (see `entryChunks`).
      resolveDependencies: (_file, deps, { hostType }) => (hostType === "js" ? deps.filter((dep) => !loadedWithEntry.has(dep)) : deps),
    },
    // Keep the first load small: vendor code in its own long-cached chunk, routes split lazily.
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 2 },
            // Everything the entry imports statically is one chunk with it. Left to itself the
            // bundler made a small chunk of each module the entry shares with a lazy page (the API
            // client, TanStack Query's observer, the icon factory...): eight files every page loads,
            // each compressed on its own, about 2 KB more gzipped than together (decision 104).
            { name: "app", tags: ["$initial"], priority: 1 },
          ],
        },
      },
    },
  },
}));
