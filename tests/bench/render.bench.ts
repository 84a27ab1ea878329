// Edge render benchmark (decision 103): the Worker's own CPU to render the first screen of
// the five edge-rendered pages (/, /search, a slug page, /listing/{id}, /bruker/{id}), separate from
// D1 and from the local simulator. It starts the app as `npm start` does, takes each page's inputs
// exactly as the Worker had them (the answers it inlined into the page: that is the D1 stub — the
// real rows, no database), stops the app, bundles the web's edge renderer (web/ssr/render.tsx) as the
// Worker's build does (Vite, the workerd export conditions, React's production build, everything in
// one bundle), and runs that bundle in Node (V8, as in workerd):
//   - warm: the median CPU of 200 renders per page in one process, after 20 unmeasured ones;
//   - cold: a fresh process per page (a new isolate): the CPU to load the renderer's modules, and the
//     first render after that.
// CPU is process.cpuUsage() (user + system) around the render alone. Writes tests/bench/results/render.md.
//
//   npm run bench:render        BENCH_PORT=8834, BENCH_RENDER_RUNS=200, SKIP_BUILD=1 (reuse dist/)
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import react from "@vitejs/plugin-react";
import { build } from "vite";
import type { FirstScreenInput, RenderFirstScreen } from "../../domain/first-screen";
import { AppServer, ROOT, ensureBuild, freshState, percentile } from "./support";

// React's production build, as the Worker bundles it (wrangler.toml [define]); set before React loads.
process.env.NODE_ENV = "production";

const RUNS = Number(process.env.BENCH_RENDER_RUNS ?? 200);
const WARMUP = 20;
const TARGET_WARM_MS = 5;
const INPUTS = path.join(ROOT, ".bench/render-inputs.json");
const RESULTS = path.join(ROOT, "tests/bench/results");

interface PageInput extends Omit<FirstScreenInput, "now"> {
  name: string;
}

const log = (message: string) => console.log(`[bench:render] ${message}`);

const BUNDLE_DIR = path.join(ROOT, ".bench/render-bundle");

/** The renderer bundled as the Worker's build bundles it: one file, no transpiling at load. */
async function bundleRenderer(): Promise<void> {
  await build({
    configFile: false,
    logLevel: "warn",
    root: ROOT,
    plugins: [react()],
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    resolve: { conditions: ["workerd", "worker", "browser", "import", "default"] },
    ssr: { noExternal: true, target: "webworker", resolve: { conditions: ["workerd", "worker", "browser"] } },
    build: {
      ssr: path.join(ROOT, "web/ssr/render.tsx"),
      outDir: BUNDLE_DIR,
      emptyOutDir: true,
      minify: true,
      rollupOptions: { output: { entryFileNames: "render.mjs", inlineDynamicImports: true } },
    },
  });
}

/** The bundled renderer (the web's code, loaded at run time: it is type-checked with the web). */
async function loadRenderer(): Promise<RenderFirstScreen> {
  const url = pathToFileURL(path.join(BUNDLE_DIR, "render.mjs")).href;
  return ((await import(url)) as { renderFirstScreen: RenderFirstScreen }).renderFirstScreen;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

function inlined(html: string, id: string): unknown {
  const match = html.match(new RegExp(`<script id="${id}" type="application/json">([\\s\\S]*?)</script>`));
  return match ? JSON.parse(match[1]) : undefined;
}

/** Each page's inputs as the Worker had them, read back from the pages it served. */
async function collectInputs(): Promise<PageInput[]> {
  const server = AppServer.forBench("render", 8834);
  ensureBuild();
  freshState(server.stateDir, { demoData: true });
  server.start();
  try {
    await server.waitUntilReady();
    const home = (await (await fetch(`${server.base}/api/home`)).json()) as { newest: { id: string; seo_slug: string; user_id: string }[] };
    const listing = home.newest[0];
    const pages = [
      { name: "/", url: "/" },
      { name: "/search?q=lego", url: "/search?q=lego" },
      { name: "slug page", url: `/annonse/${listing.seo_slug}` },
      { name: "/listing/{id}", url: `/listing/${listing.id}` },
      { name: "/bruker/{id}", url: `/bruker/${listing.user_id}` },
    ];
    const inputs: PageInput[] = [];
    for (const page of pages) {
      const html = await (await fetch(server.base + page.url, { headers: { Accept: "text/html" } })).text();
      const api = inlined(html, "preloaded-api") as Record<string, unknown> | undefined;
      if (!api) throw new Error(`${page.url}: no inlined answers`);
      inputs.push({ ...page, api, listing: inlined(html, "preloaded-listing") });
    }
    return inputs;
  } finally {
    await server.stop();
  }
}

/** In a fresh process: the renderer's module load and the first render of one page. */
async function coldChild(index: number): Promise<void> {
  const input = (JSON.parse(readFileSync(INPUTS, "utf8")) as PageInput[])[index];
  const start = process.cpuUsage();
  const render = await loadRenderer();
  const loadMs = cpuMs(start);
  const first = process.cpuUsage();
  const html = await render({ ...input, now: new Date() });
  const renderMs = cpuMs(first);
  if (!html) throw new Error(`${input.name}: not rendered`);
  process.stdout.write(JSON.stringify({ loadMs, renderMs }));
}

async function main(): Promise<void> {
  const load = os.loadavg();
  log(`load average at the start: ${load.map((l) => l.toFixed(2)).join(", ")} (${os.cpus().length} cores)`);
  const inputs = await collectInputs();
  mkdirSync(path.dirname(INPUTS), { recursive: true });
  writeFileSync(INPUTS, JSON.stringify(inputs));
  await bundleRenderer();

  const render = await loadRenderer();
  const rows: string[] = [];
  const json: Record<string, unknown>[] = [];
  for (const [index, input] of inputs.entries()) {
    const cold = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, "--cold", String(index)], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production" },
      encoding: "utf8",
    });
    if (cold.status !== 0) throw new Error(`${input.name}: cold run failed\n${cold.stderr}`);
    const { loadMs, renderMs: coldMs } = JSON.parse(cold.stdout) as { loadMs: number; renderMs: number };

    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const start = process.cpuUsage();
      const html = await render({ ...input, now: new Date() });
      const ms = cpuMs(start);
      if (!html) throw new Error(`${input.name}: not rendered`);
      bytes = html.length;
      if (i >= WARMUP) times.push(ms);
    }
    const warm = { p50: percentile(times, 50), p95: percentile(times, 95) };
    const verdict = warm.p50 <= TARGET_WARM_MS ? "meets" : "misses";
    rows.push(
      `| ${input.name} | ${warm.p50.toFixed(2)} | ${warm.p95.toFixed(2)} | ${coldMs.toFixed(1)} | ${loadMs.toFixed(0)} | ${(bytes / 1024).toFixed(1)} | ${verdict} |`,
    );
    json.push({
      page: input.name,
      warmP50Ms: warm.p50,
      warmP95Ms: warm.p95,
      coldFirstRenderMs: coldMs,
      coldModuleLoadMs: loadMs,
      htmlBytes: bytes,
    });
    log(
      `${input.name}: warm p50 ${warm.p50.toFixed(2)} ms, p95 ${warm.p95.toFixed(2)} ms; cold first render ${coldMs.toFixed(1)} ms after ${loadMs.toFixed(0)} ms of module load`,
    );
  }
  const end = os.loadavg();
  const busy = Math.max(load[0], end[0]) > 1.5;
  const text = [
    "# Edge render benchmark (`npm run bench:render`)",
    "",
    `Run ${new Date().toISOString()} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}; load average ${load[0].toFixed(2)} at the start, ${end[0].toFixed(2)} at the end.${busy ? " **The machine was busy: these figures are not evidence.**" : ""}`,
    "",
    `The Worker's own CPU to render a page's first screen (web/ssr/render.tsx, React's production build) from the rows the Worker had inlined into the page, without D1 and without the local simulator. Warm: median and p95 of ${RUNS} renders in one isolate. Cold: a new process per page — the renderer's module load (paid once per isolate) and the first render after it. Target: ≤ ${TARGET_WARM_MS} ms warm per render; a response from the edge cache costs no render.`,
    "",
    "| page | warm p50 ms | warm p95 ms | cold first render ms | cold module load ms | #root KB | ≤ 5 ms warm |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(path.join(RESULTS, "render.md"), text);
  writeFileSync(path.join(RESULTS, "render.json"), `${JSON.stringify({ loadAverage: { start: load, end }, pages: json }, null, 2)}\n`);
  console.log(`\n${text}`);
}

if (process.argv[2] === "--cold") {
  await coldChild(Number(process.argv[3]));
} else {
  await main();
}
