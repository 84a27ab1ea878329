// Worker tests run inside workerd through @cloudflare/vitest-plugin (tests/worker, tests/factories).
// Bindings come from wrangler.toml. Each of the two pool workers is one workerd process that runs
// its test files one after another (isolate: false below); tests/worker/setup.ts empties D1 and R2
// before each file.
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { mkdirSync, writeFileSync } from "node:fs";
import { build } from "esbuild";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { SANDBOX_KEYS } from "./scripts/payment-sandbox/dev-keys.mjs";

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig(async () => {
  // The same SQL files `wrangler d1 migrations apply` runs; tests/worker/setup.ts applies them.
  // wrangler accepts a migration that is only comments (drizzle-kit's `--custom` placeholder);
  // applyD1Migrations sends each piece to D1, which rejects a comment-only one, so drop those.
  const migrations = (await readD1Migrations(path.join(root, "migrations"))).map((m) => ({
    ...m,
    queries: m.queries.filter((q) => !isOnlyComments(q)),
  }));

  // The payment tests talk to the real payment sandbox (a Node server started by the global setup
  // below) through the same clients the app uses in production; only keys and base URLs differ.
  process.env.TEST_PAYMENT_SANDBOX_PORT ||= String(await freePort());
  const sandboxUrl = `http://127.0.0.1:${process.env.TEST_PAYMENT_SANDBOX_PORT}`;

  const [firstScreen, vendor] = await Promise.all([bundleFirstScreen(), bundleVendor()]);

  return {
    plugins: [
      bundlesWithoutSourceMaps(),
      cloudflareTest({
        wrangler: { configPath: path.join(root, "wrangler.toml") },
        miniflare: {
          // wrangler.toml defaults to production; the tests run the Worker in local mode, as
          // `npm start` does (tests/worker/deploy-safety.integration.test.ts covers production),
          // with the payment providers pointed at the sandbox (keys and base URLs only).
          bindings: {
            TEST_MIGRATIONS: migrations,
            APP_ENV: "local",
            TEST_SANDBOX_URL: sandboxUrl,
            ...SANDBOX_KEYS,
            STRIPE_API_BASE: sandboxUrl,
            VIPPS_API_BASE: sandboxUrl,
            BRING_API_BASE: sandboxUrl,
            HELTHJEM_API_BASE: sandboxUrl,
          },
          // wrangler.toml serves ./dist/client, which only exists after `vite build`. Worker tests must
          // not depend on a build, so the ASSETS binding points at a tiny committed shell instead
          // (tests/worker/fixtures/assets/index.html); the page handler's status logic is tested
          // against it.
          assets: { directory: path.join(root, "tests/worker/fixtures/assets"), binding: "ASSETS" },
          // A second database that stands for a lagging read replica (tests/worker/read-replicas…).
          d1Databases: { TEST_REPLICA: "test-replica" },
        },
      }),
    ],
    // The web's edge renderer (decision 103), bundled as the deployed Worker has it (below).
    // and the packages the Worker imports, bundled the same way (bundleVendor below).
    resolve: { alias: [{ find: /^virtual:first-screen$/, replacement: firstScreen }, ...vendor] },
    test: {
      include: ["tests/worker/**/*.test.ts"],
      // The Worker writes one JSON line per request (docs/decisions/133-request-logs.md): thousands
      // in a run, which would bury what a failing test prints. Tests that check them read them
      // from their own console spy (tests/worker/request-log.integration.test.ts).
      onConsoleLog: (log: string) => !log.startsWith('{"type":"request"'),
      setupFiles: ["tests/worker/setup.ts"],
      globalSetup: ["tests/worker/support/payment-sandbox.global.ts"],
      // The build machines have two cores: two test files at a time (three were tried: the end-to-end
      // tests beside them then met more timeouts), and a timeout that leaves room for scrypt (~260 ms
      // per password hash) when both run at once.
      maxWorkers: 2,
      // One workerd process per pool worker for all its files, not one per file: a fresh process per
      // file started workerd and fetched the Worker's ~200 modules again, 2.5 s of CPU per file and
      // 40 % of the Worker tests' CPU (docs/testing.md). Modules stay loaded between files; storage
      // does not (tests/worker/setup.ts), and the Rate Limiting binding's counters, which do, are
      // kept apart by visitorAddress() (tests/worker/support/http.ts).
      isolate: false,
      // npm test runs these beside the e2e run: there a test takes 2–4× its quiet time (the sweep of
      // malformed ids on every route, 2.5 s alone and 10 s in a local fresh-clone run, passed 20 s in
      // CI). The limits catch a hang, not slowness, which the benchmarks measure.
      testTimeout: 60_000,
      // beforeAll hooks that sign several users in pay scrypt for each (twice: hash and verify).
      hookTimeout: 60_000,
    },
  };
});

/**
 * The two bundles below are served to every test file without a source map. Vite would otherwise
 * make one for each (every character of a minified bundle mapped, the whole source inside) and
 * inline it into the module it sends over the pool's socket: 20 MB per test file instead of 6, all
 * of it serialised character by character in vitest's one main thread, which every test file waits
 * on (docs/testing.md). An empty map is how a Vite plugin says "no map". A failure inside React, the
 * renderer or a package then points into the bundle's own lines; the Worker's and the tests' own
 * modules keep their source maps.
 */
function bundlesWithoutSourceMaps(): Plugin {
  const bundles = path.join(root, "node_modules/.cache/worker-tests/");
  return {
    name: "worker-tests:bundles-without-source-maps",
    enforce: "post",
    transform(code, id) {
      return id.startsWith(bundles) ? { code, map: { mappings: "" } } : undefined;
    },
  };
}

/**
 * The edge renderer (web/ssr/render.tsx with React, the router, the query client and every page) as
 * one minified module, built the way wrangler bundles a Worker (esbuild, the worker conditions,
 * React's production build as wrangler.toml's `define` gives it). Every Worker test file loads the
 * Worker and so the renderer: served module by module through Vite that was some 300 modules per
 * file, about a third of the Worker tests' time (docs/testing.md); one module costs a fraction.
 * Rebuilt on every run (well under a second), so a test always renders the current pages.
 */
async function bundleFirstScreen(): Promise<string> {
  const outfile = path.join(root, "node_modules/.cache/worker-tests/first-screen.mjs");
  await build({
    entryPoints: [path.join(root, "web/ssr/render.tsx")],
    outfile,
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    target: "es2022",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    // The Worker loads zod itself: one copy, not a second inside the renderer.
    external: ["zod"],
    minify: true,
    logLevel: "warning",
  });
  return outfile;
}

/**
 * The packages the Worker imports, each specifier as it is imported. Served by Vite they are
 * hundreds of modules (stripe alone some 270) that every test file loads again; bundled the way
 * wrangler bundles them they are a few dozen, shared between the specifiers (esbuild's code
 * splitting), so `hono` and `hono/factory` still see one Hono and `zod` is one copy for all.
 */
const VENDORED = [
  "hono",
  "hono/factory",
  "hono/cookie",
  "hono/body-limit",
  "hono/http-exception",
  "hono/route",
  "hono/client",
  "drizzle-orm",
  "drizzle-orm/sqlite-core",
  "zod",
  "stripe",
  "jose",
  "@hono/zod-validator",
];
/** Those of them with a default export (`import Stripe from "stripe"`, `import z from "zod"`). */
const WITH_DEFAULT = new Set(["stripe", "zod"]);

async function bundleVendor(): Promise<{ find: RegExp; replacement: string }[]> {
  const cache = path.join(root, "node_modules/.cache/worker-tests");
  const sources = path.join(cache, "vendor-entries");
  const outdir = path.join(cache, "vendor");
  mkdirSync(sources, { recursive: true });
  const fileName = (specifier: string) => specifier.replace(/[@/]/g, "_");
  const entryPoints = VENDORED.map((specifier) => {
    const file = path.join(sources, `${fileName(specifier)}.mjs`);
    const reexport = `export * from ${JSON.stringify(specifier)};\n`;
    const withDefault = WITH_DEFAULT.has(specifier) ? `export { default } from ${JSON.stringify(specifier)};\n` : "";
    writeFileSync(file, reexport + withDefault);
    return file;
  });
  await build({
    entryPoints,
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    target: "es2022",
    logLevel: "warning",
  });
  return VENDORED.map((specifier) => ({
    find: new RegExp(`^${specifier.replace(/[/.]/g, "\\$&")}$`),
    replacement: path.join(outdir, `${fileName(specifier)}.mjs`),
  }));
}

function isOnlyComments(sql: string): boolean {
  return sql.split("\n").every((line) => line.trim() === "" || line.trim().startsWith("--"));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
