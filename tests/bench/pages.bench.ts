// Page speed benchmark (issue 9, "Page speed on phones"): builds and starts the app exactly as
// `npm start` does (its own port and a fresh state directory with the demo data), runs Lighthouse's
// mobile preset three times on /, /search, a slug page, /listing/{id} and /auth in Debian's Chromium,
// and reports the median of each figure. Writes tests/bench/results/pages.{md,json} and prints the
// table. Lighthouse's figures move by a few points from run to run on a shared 2-core machine.
//
//   npm run bench:pages       BENCH_PORT=8832, BENCH_SANDBOX_PORT (PORT + 30), BENCH_PAGES_RUNS=3,
//                             CHROME_PATH=/usr/bin/chromium, SKIP_BUILD=1 (reuse dist/)
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { AppServer, ROOT, ensureBuild, freshState } from "./support";

const server = AppServer.forBench("pages", 8832);
const RUNS = Number(process.env.BENCH_PAGES_RUNS ?? 3);
const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const BASE = server.origin;
const RESULTS = path.join(ROOT, "tests/bench/results");

const TARGETS = { performance: 95, accessibility: 100, cls: 0.05, lcpMs: 2000 };

interface Figures {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** LCP breakdown: from the first byte to the LCP resource's start, its download, and the wait for rendering. */
  lcpLoadDelayMs: number;
  lcpLoadMs: number;
  lcpRenderDelayMs: number;
  /** JavaScript transferred before the page was measured, and the main thread's busy time (4× CPU slowdown). */
  scriptKb: number;
  mainThreadMs: number;
  lcpElement: string;
}

interface PageResult {
  name: string;
  path: string;
  runs: Figures[];
  median: Figures;
}

function log(message: string): void {
  console.log(`[bench:pages] ${message}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function audit(url: string): Promise<Figures> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility"] });
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    // Lighthouse 13 names the LCP element in its LCP breakdown insight (a "node" item).
    const breakdown = lhr.audits["lcp-breakdown-insight"]?.details as { items?: { type?: string; selector?: string; nodeLabel?: string }[] } | undefined;
    const node = breakdown?.items?.find((item) => item.type === "node");
    const snippet = node ? `${node.selector ?? ""} (${node.nodeLabel ?? ""})` : "";
    const subparts = (breakdown?.items?.find((item) => item.type === "table") as { items?: { subpart: string; duration: number }[] } | undefined)?.items ?? [];
    const subpart = (name: string) => subparts.find((p) => p.subpart === name)?.duration ?? 0;
    const requests = (lhr.audits["network-requests"]?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
    const scriptBytes = requests.filter((r) => r.resourceType === "Script").reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      fcpMs: numeric("first-contentful-paint"),
      lcpMs: numeric("largest-contentful-paint"),
      tbtMs: numeric("total-blocking-time"),
      cls: numeric("cumulative-layout-shift"),
      speedIndexMs: numeric("speed-index"),
      lcpLoadDelayMs: subpart("resourceLoadDelay"),
      lcpLoadMs: subpart("resourceLoadDuration"),
      lcpRenderDelayMs: subpart("elementRenderDelay"),
      scriptKb: Math.round(scriptBytes / 102.4) / 10,
      mainThreadMs: numeric("mainthread-work-breakdown"),
      lcpElement: snippet.slice(0, 120),
    };
  } finally {
    chrome.kill();
  }
}

function medianOf(runs: Figures[]): Figures {
  const m = (key: keyof Omit<Figures, "lcpElement">) => median(runs.map((r) => r[key]));
  // The LCP element of the run whose LCP is the median.
  const lcp = m("lcpMs");
  return {
    performance: m("performance"),
    accessibility: m("accessibility"),
    fcpMs: m("fcpMs"),
    lcpMs: lcp,
    tbtMs: m("tbtMs"),
    cls: m("cls"),
    speedIndexMs: m("speedIndexMs"),
    lcpLoadDelayMs: m("lcpLoadDelayMs"),
    lcpLoadMs: m("lcpLoadMs"),
    lcpRenderDelayMs: m("lcpRenderDelayMs"),
    scriptKb: m("scriptKb"),
    mainThreadMs: m("mainThreadMs"),
    lcpElement: runs.find((r) => r.lcpMs === lcp)?.lcpElement ?? "",
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function misses(f: Figures): string[] {
  const out: string[] = [];
  if (f.performance < TARGETS.performance) out.push(`performance ${f.performance} < ${TARGETS.performance}`);
  if (f.accessibility < TARGETS.accessibility) out.push(`accessibility ${f.accessibility} < ${TARGETS.accessibility}`);
  if (f.cls > TARGETS.cls) out.push(`CLS ${f.cls.toFixed(3)} > ${TARGETS.cls}`);
  if (f.lcpMs > TARGETS.lcpMs) out.push(`LCP ${seconds(f.lcpMs)} > ${seconds(TARGETS.lcpMs)}`);
  return out;
}

/** Where each page's LCP time goes (medians), to name the cause of a miss. */
function causes(results: PageResult[]): string {
  const ms = (n: number) => `${Math.round(n)} ms`;
  return [
    "| page | LCP element | waiting for the resource | its download | render delay after it | JS transferred | main thread busy |",
    "|---|---|---|---|---|---|---|",
    ...results.map(({ name, median: f }) =>
      `| ${name} | ${f.lcpElement.replace(/\|/g, "/")} | ${ms(f.lcpLoadDelayMs)} | ${ms(f.lcpLoadMs)} | ${ms(f.lcpRenderDelayMs)} | ${f.scriptKb} KB | ${ms(f.mainThreadMs)} |`,
    ),
  ].join("\n");
}

function table(results: PageResult[]): string {
  const rows = results.map(({ name, median: f }) =>
    [
      name,
      f.performance,
      f.accessibility,
      seconds(f.fcpMs),
      seconds(f.lcpMs),
      `${Math.round(f.tbtMs)} ms`,
      f.cls.toFixed(3),
      misses(f).length ? `missed: ${misses(f).join("; ")}` : "all met",
    ].join(" | "),
  );
  return [
    "| page | performance | accessibility | FCP | LCP | TBT | CLS | targets |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r} |`),
  ].join("\n");
}

async function main(): Promise<number> {
  log(`building, then starting the app as npm start does (PORT=${server.port}, STATE_DIR=${path.relative(ROOT, server.stateDir)}) …`);
  ensureBuild({ fresh: true });
  freshState(server.stateDir, { demoData: true });
  server.start();
  try {
    await server.waitUntilReady();
    const home = (await (await fetch(`${BASE}/api/home`)).json()) as { newest: { id: string; seo_slug: string }[] };
    const listing = home.newest[0];
    const pages = [
      { name: "/", path: "/" },
      { name: "/search", path: "/search" },
      { name: "slug page", path: `/annonse/${listing.seo_slug}` },
      { name: "/listing/{id}", path: `/listing/${listing.id}` },
      { name: "/auth", path: "/auth" },
    ];
    // One throwaway load warms the Worker's bundle and D1 (not measured).
    for (const page of pages) await (await fetch(BASE + page.path)).arrayBuffer();

    const results: PageResult[] = [];
    for (const page of pages) {
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++) {
        const figures = await audit(BASE + page.path);
        runs.push(figures);
        log(`${page.name} run ${i + 1}/${RUNS}: performance ${figures.performance}, accessibility ${figures.accessibility}, LCP ${seconds(figures.lcpMs)}, CLS ${figures.cls.toFixed(3)}`);
      }
      results.push({ ...page, runs, median: medianOf(runs) });
    }

    const when = new Date().toISOString();
    const text = table(results);
    const causeTable = causes(results);
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(path.join(RESULTS, "pages.json"), `${JSON.stringify({ when, runs: RUNS, targets: TARGETS, results }, null, 2)}\n`);
    writeFileSync(
      path.join(RESULTS, "pages.md"),
      [
        "# Page speed (Lighthouse, mobile preset)",
        "",
        `Median of ${RUNS} runs per page, \`npm run bench:pages\`, ${when}, Debian Chromium headless on this 2-core machine`,
        "(simulated slow 4G and 4× CPU slowdown, Lighthouse's mobile defaults). Targets: performance ≥ 95,",
        "accessibility 100, CLS ≤ 0.05, LCP ≤ 2.0 s.",
        "",
        text,
        "",
        "Where the LCP time goes (medians; Lighthouse's LCP breakdown, time to first byte left out):",
        "",
        causeTable,
        "",
      ].join("\n"),
    );
    console.log(`\n${text}\n\n${causeTable}\n`);
    log(`written to ${path.relative(ROOT, RESULTS)}/pages.md and pages.json`);
    return 0;
  } finally {
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
