// Page speed benchmark (nine pages, visitors' and signed-in): builds and starts the app exactly as
// `npm start` does (its own port and a fresh state directory with the demo data), runs Lighthouse's mobile preset five times on /, /search, a slug
// page, /listing/{id} and /auth signed out, and on /messages, a chat, /trade-history and
// /payment-success signed in as the demo user Kari (signed in through the API; the session cookies
// set in each Chromium over the DevTools protocol before Lighthouse loads the page), and reports the
// median of each figure, the spread of performance and LCP, and pass/miss against the targets. For
// the last two, Kari first buys a listing of the demo user Ola by card on the payment sandbox (Ola
// connects Stripe on the sandbox's onboarding page; the sandbox sends the signed webhook).
//
// Lighthouse multiplies the CPU time it observes by four, so other work on this shared 2-core
// machine moves its figures more than most code changes do. The bench therefore records the load
// average before it starts anything, and per run the CPU that other processes used and Lighthouse's
// benchmarkIndex; the results carry a warning when the machine was busy (thresholds below,
// docs/benchmarks.md). Writes tests/bench/results/pages.{md,json}
// and prints the table.
//
//   npm run bench:pages       BENCH_PORT=8832, BENCH_SANDBOX_PORT (PORT + 30), BENCH_PAGES_RUNS=5,
//                             CHROME_PATH (default /usr/bin/chromium, else the headless shell the
//                             e2e tests use), SKIP_BUILD=1 (reuse dist/),
//                             BENCH_QUIET_INDEX=2850 (this machine's benchmarkIndex when quiet),
//                             BENCH_PAGES_ONLY="/,slug page" (only these pages, by their names below)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { AppServer, ROOT, ensureBuild, freshState, procStats } from "./support";

const server = AppServer.forBench("pages", 8832);
const RUNS = Number(process.env.BENCH_PAGES_RUNS ?? 5);
// Debian's full Chromium where it is installed (the figures before 2026-11-29 are from it), else its
// headless shell, which the machine may have alone. The quiet run of 2026-11-29 in the headless shell
// read a benchmarkIndex of 1,100-1,800 where the full browser had read 2,800: compare figures taken
// in one browser only (docs/benchmarks.md).
const CHROME_PATH = process.env.CHROME_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : "/usr/bin/chromium-headless-shell");
const BASE = server.origin;
const SANDBOX = server.sandboxBase;
const DEMO_PASSWORD = "lekebytte123";
const RESULTS = path.join(ROOT, "tests/bench/results");

const TARGETS = { performance: 95, accessibility: 100, lcpMs: 2000, tbtMs: 200, cls: 0.05, firstLoadJsKb: 120, longestTaskMs: 150 };

/**
 * When a result counts as measured on a busy machine. The load average cannot say it during the
 * runs: the bench's own server and Chromium keep it at 1.6–3.4 on an otherwise idle 2-core machine,
 * so every run of the quiet issue-23 measurement was flagged. Three signals instead:
 * - `machineLoad`: the 1-minute load average when the bench starts, before it builds or starts
 *   anything: the machine's own state. Above 1.0 (one of the two cores taken by other work over
 *   the last minute) the whole result is busy.
 * - `otherCores`: during each run, the CPU that processes outside the bench took (the whole
 *   machine's busy time from /proc/stat less this process and all its descendants: the app's
 *   server, wrangler, workerd, Chromium), in cores. Above 0.25 the run is busy.
 * - `benchmarkIndex`: Lighthouse's CPU microbenchmark (single-threaded, in the page's Chromium
 *   before the page loads) was 2,820–2,860 in three of four runs on this machine. It is recorded for
 *   every run but marks one busy (below 80 % of that) only where /proc cannot tell the other
 *   processes' CPU: in the quiet run of 2026-11-26 15:00Z (other processes 0.00–0.04 cores in all
 *   45 runs) it still ranged 1,640–2,843, since it shares its first second with the bench's own
 *   Chromium starting up.
 */
const QUIET_INDEX = Number(process.env.BENCH_QUIET_INDEX ?? 2850);
const BUSY = { machineLoad: 1.0, otherCores: 0.25, benchmarkIndex: Math.round(QUIET_INDEX * 0.8) };

/** The machine's 1-minute load average when the bench started (set first thing in `main`). */
let machineLoad = Number.NaN;

interface Figures {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** The main document's response time as observed locally (Lighthouse's server-response-time). */
  ttfbMs: number;
  /** LCP breakdown: from the first byte to the LCP resource's start, its download, and the wait for rendering. */
  lcpLoadDelayMs: number;
  lcpLoadMs: number;
  lcpRenderDelayMs: number;
  /** Script bytes as this local server sent them (Lighthouse's transfer sizes, headers included). */
  scriptKb: number;
  /** The same scripts gzipped (see jsGzip), in bytes: the 120 KB budget is 122,880 of them, as in the size test. */
  firstLoadJsBytes: number;
  scriptCount: number;
  /** Main thread busy time (4× CPU slowdown). */
  mainThreadMs: number;
  /** The longest main-thread task (Lighthouse's long-tasks audit, at its 4× CPU slowdown; 0 when none). */
  longestTaskMs: number;
  lcpElement: string;
  /** Where the page ended up (a signed-out visit to a signed-in page is sent to /auth). */
  finalPath: string;
}

/** What the machine was doing around one Lighthouse run. */
interface Machine {
  /** Lighthouse's CPU microbenchmark, run in the page's Chromium before the page loads (lhr.environment). */
  benchmarkIndex: number;
  /** os.loadavg() (1, 5 and 15 minutes) right before Chromium starts and right after the run (for the record: the bench's own work is in it). */
  loadStart: number[];
  loadEnd: number[];
  /** Cores used by processes outside the bench during the run (null where /proc is not there). */
  otherCores: number | null;
  /** Why this run counts as measured on a busy machine (empty: quiet). */
  busy: string[];
}

/** One Lighthouse run; `scripts` (each script's gzipped size) is kept in the results for the median page only. */
type Run = Figures & Machine & { scripts?: { path: string; gzipKb: number }[] };

interface PageResult {
  name: string;
  path: string;
  signedIn?: boolean;
  runs: Run[];
  median: Figures;
  /** The scripts of the run with the median first-load JavaScript, largest first. */
  scripts: { path: string; gzipKb: number }[];
  spread: { performance: [number, number]; lcpMs: [number, number] };
  missed: string[];
  busyRuns: number;
}

function log(message: string): void {
  console.log(`[bench:pages] ${message}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// ---- signed in ------------------------------------------------------------------------------------

interface Cookie {
  name: string;
  value: string;
  path: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "Strict" | "Lax" | "None";
  expires?: number;
}

/** Sign a demo user in through the API, as the sign-in form does; the session cookies it sets. */
async function signIn(email: string): Promise<Cookie[]> {
  const res = await fetch(`${BASE}/api/auth/signin`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: BASE },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return res.headers.getSetCookie().map((line) => {
    const [pair, ...attributes] = line.split(";").map((part) => part.trim());
    const eq = pair.indexOf("=");
    const attr = (name: string) => attributes.find((a) => a.toLowerCase().startsWith(name.toLowerCase()));
    const maxAge = Number(attr("Max-Age=")?.split("=")[1]);
    const sameSite = attr("SameSite=")?.split("=")[1] ?? "Lax";
    return {
      name: pair.slice(0, eq),
      value: pair.slice(eq + 1),
      path: attr("Path=")?.split("=")[1] ?? "/",
      httpOnly: !!attr("HttpOnly"),
      secure: !!attr("Secure"),
      sameSite: (sameSite[0].toUpperCase() + sameSite.slice(1).toLowerCase()) as Cookie["sameSite"],
      ...(Number.isFinite(maxAge) ? { expires: Math.floor(Date.now() / 1000) + maxAge } : {}),
    };
  });
}

const cookieHeader = (cookies: Cookie[]) => cookies.map((c) => `${c.name}=${c.value}`).join("; ");

async function apiAs<T>(cookies: Cookie[], method: string, pathname: string, body?: unknown): Promise<T> {
  const res = await fetch(`${BASE}${pathname}`, {
    method,
    headers: { Origin: BASE, Cookie: cookieHeader(cookies), ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A form post on one of the sandbox's hosted pages (their URLs name localhost; it listens on 127.0.0.1). */
async function sandboxForm(url: string, fields: Record<string, string>): Promise<string> {
  const u = new URL(url);
  const res = await fetch(`${SANDBOX}${u.pathname}${u.search}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  await res.arrayBuffer();
  if (res.status !== 303) throw new Error(`${u.pathname}: ${res.status}, expected 303`);
  return res.headers.get("Location") ?? "";
}

/**
 * Kari buys one of Ola's listings by card: Ola connects Stripe on the sandbox, Kari checks out and
 * pays with the test card, and the sandbox's signed webhook completes the sale. Returns the result
 * page's path (the success redirect Stripe Checkout makes) once the purchase is recorded.
 */
async function purchase(kari: Cookie[]): Promise<string> {
  const ola = await signIn("ola@lekebytte.test");
  const { url: onboarding } = await apiAs<{ url: string }>(ola, "POST", "/api/payments/stripe/account-link");
  await sandboxForm(onboarding, { first_name: "Ola", last_name: "Hansen", account_number: "12345678903" });
  await apiAs(ola, "GET", "/api/payments/stripe/account");
  const own = await apiAs<
    { id: string; status: string; is_free: boolean; price: number | null; payment_enabled: boolean; is_hidden?: boolean }[]
  >(ola, "GET", "/api/me/listings");
  const listing = own.find((l) => l.status === "active" && l.payment_enabled && !l.is_hidden && !l.is_free && (l.price ?? 0) >= 50);
  if (!listing) throw new Error("Ola has no listing for sale in the demo data");
  const { url } = await apiAs<{ url: string }>(kari, "POST", "/api/payments/checkout", { listing_id: listing.id, method: "card" });
  const success = new URL(
    await sandboxForm(url, {
      email: "kari@lekebytte.test",
      card: "4242 4242 4242 4242",
      expiry: "12 / 40",
      cvc: "123",
      name: "Kari Nordmann",
    }),
  );
  for (let i = 0; i < 100; i++) {
    const purchases = await apiAs<unknown[]>(kari, "GET", "/api/payments/purchases");
    if (purchases.length > 0) return `${success.pathname}${success.search}`;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error("the sandbox's webhook did not complete the purchase");
}

/** Put the session cookies into a fresh Chromium (Storage.setCookies on the browser target); Lighthouse keeps cookies. */
async function setCookies(port: number, cookies: Cookie[]): Promise<void> {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", reject);
  });
  try {
    const answer = new Promise<{ error?: unknown }>((resolve) =>
      ws.addEventListener("message", (m) => resolve(JSON.parse(String(m.data)))),
    );
    ws.send(
      JSON.stringify({
        id: 1,
        method: "Storage.setCookies",
        params: { cookies: cookies.map((c) => ({ ...c, domain: new URL(BASE).hostname })) },
      }),
    );
    const { error } = await answer;
    if (error) throw new Error(`Storage.setCookies: ${JSON.stringify(error)}`);
  } finally {
    ws.close();
  }
}

const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

/** gzip of a built file (default zlib level, as the size test and a CDN compressing on the fly); cached per path. */
const gzipped = new Map<string, number | null>();
function gzipOfBuilt(url: string): number | null {
  const pathname = new URL(url).pathname;
  if (!gzipped.has(pathname)) {
    const file = path.join(ROOT, "dist/client", pathname);
    gzipped.set(pathname, pathname !== "/" && existsSync(file) ? gzipSync(readFileSync(file)).length : null);
  }
  return gzipped.get(pathname) ?? null;
}

interface NetworkRequest {
  url: string;
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
}

/**
 * The scripts' gzipped bytes: each script Lighthouse saw load, counted as its built file gzipped
 * (what the size test counts). Lighthouse's transfer sizes are the local server's gzip bodies
 * (within 0.5 % of these) plus about 0.9 KB of response headers per file (CSP, permissions policy),
 * which would count 20–45 KB of headers as JavaScript on pages with 24–55 chunks; they stay in
 * scriptKb. A script that is not in dist/ counts with its transfer size.
 */
function jsGzip(scripts: NetworkRequest[]): { bytes: number; files: { path: string; gzipKb: number }[] } {
  const files = scripts.map((r) => {
    const bytes = gzipOfBuilt(r.url) ?? r.transferSize ?? 0;
    return { path: new URL(r.url).pathname, bytes };
  });
  return {
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    files: files.sort((x, y) => y.bytes - x.bytes).map((f) => ({ path: f.path, gzipKb: kb(f.bytes) })),
  };
}

/** Why a run counts as measured on a busy machine (empty: quiet). */
function busyReasons(m: Omit<Machine, "busy">): string[] {
  const out: string[] = [];
  if (m.otherCores !== null && m.otherCores > BUSY.otherCores)
    out.push(`other processes used ${m.otherCores.toFixed(2)} cores > ${BUSY.otherCores}`);
  if (m.otherCores === null && m.benchmarkIndex < BUSY.benchmarkIndex)
    out.push(`benchmarkIndex ${Math.round(m.benchmarkIndex)} < ${BUSY.benchmarkIndex}`);
  return out;
}

/** Clock ticks: the whole machine's (all cores) and its busy part, and this process with all its descendants. */
interface CpuSample {
  total: number;
  busy: number;
  ours: number;
}

/** Every process's parent and CPU ticks (itself and the children it has reaped), from /proc. */
function processTree(): Map<number, { ppid: number; ticks: number }> {
  return new Map(procStats().map((p) => [p.pid, { ppid: p.ppid, ticks: p.utime + p.stime + p.cutime + p.cstime }]));
}

/** `root` and every process below it. */
function descendants(root: number, tree: Map<number, { ppid: number }>): Set<number> {
  const ours = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of tree)
      if (!ours.has(pid) && ours.has(p.ppid)) {
        ours.add(pid);
        grew = true;
      }
  }
  return ours;
}

/** Linux only (/proc); elsewhere null and only the benchmarkIndex marks a run. */
function cpuSample(): CpuSample | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((sum, n) => sum + n, 0);
    const busy = total - fields[3] - fields[4]; // less idle and iowait
    const tree = processTree();
    let ourTicks = 0;
    for (const pid of descendants(process.pid, tree)) ourTicks += tree.get(pid)?.ticks ?? 0;
    return { total, busy, ours: ourTicks };
  } catch {
    return null;
  }
}

/**
 * Stop a run's Chromium and wait until all of its processes are gone. Killed, its helper processes
 * are re-parented to init: one still alive when the next run starts counts as ours then and not at
 * that run's end, and its whole CPU time was read as other processes' work (0.3–0.5 cores in every
 * other run on a quiet machine, before this wait).
 */
async function stopChrome(chrome: chromeLauncher.LaunchedChrome): Promise<void> {
  const tree = existsSync("/proc/self") && chrome.pid ? descendants(chrome.pid, processTree()) : new Set<number>();
  chrome.kill();
  const deadline = Date.now() + 5_000;
  while ([...tree].some((pid) => existsSync(`/proc/${pid}`)) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The cores that processes outside the bench kept busy between two samples. */
function otherCores(start: CpuSample | null, end: CpuSample | null): number | null {
  if (!start || !end || end.total <= start.total) return null;
  const other = end.busy - start.busy - (end.ours - start.ours);
  return Math.max(0, (other / (end.total - start.total)) * os.cpus().length);
}

async function audit(url: string, cookies: Cookie[] = []): Promise<Run> {
  const loadStart = os.loadavg();
  const cpuStart = cpuSample();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    if (cookies.length) await setCookies(chrome.port, cookies);
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
    });
    const loadEnd = os.loadavg();
    const cpuEnd = cpuSample();
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    const { lhr } = result;
    // BENCH_PAGES_DUMP=<dir> keeps every run's whole Lighthouse report, to read its long tasks and scripts.
    if (process.env.BENCH_PAGES_DUMP) {
      mkdirSync(process.env.BENCH_PAGES_DUMP, { recursive: true });
      const name = `${new URL(url).pathname.replace(/[^a-z0-9]+/gi, "_")}-${Date.now()}.json`;
      writeFileSync(path.join(process.env.BENCH_PAGES_DUMP, name), JSON.stringify(lhr));
    }
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    // Lighthouse 13 names the LCP element in its LCP breakdown insight (a "node" item).
    const breakdown = lhr.audits["lcp-breakdown-insight"]?.details as
      | { items?: { type?: string; selector?: string; nodeLabel?: string }[] }
      | undefined;
    const node = breakdown?.items?.find((item) => item.type === "node");
    const snippet = node ? `${node.selector ?? ""} (${node.nodeLabel ?? ""})` : "";
    const subparts =
      (breakdown?.items?.find((item) => item.type === "table") as { items?: { subpart: string; duration: number }[] } | undefined)?.items ??
      [];
    const subpart = (name: string) => subparts.find((p) => p.subpart === name)?.duration ?? 0;
    const requests = (lhr.audits["network-requests"]?.details as { items?: NetworkRequest[] } | undefined)?.items ?? [];
    const scripts = requests.filter((r) => r.resourceType === "Script");
    const js = jsGzip(scripts);
    const machine = { benchmarkIndex: lhr.environment.benchmarkIndex, loadStart, loadEnd, otherCores: otherCores(cpuStart, cpuEnd) };
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      fcpMs: numeric("first-contentful-paint"),
      lcpMs: numeric("largest-contentful-paint"),
      tbtMs: numeric("total-blocking-time"),
      cls: numeric("cumulative-layout-shift"),
      speedIndexMs: numeric("speed-index"),
      ttfbMs: numeric("server-response-time"),
      lcpLoadDelayMs: subpart("resourceLoadDelay"),
      lcpLoadMs: subpart("resourceLoadDuration"),
      lcpRenderDelayMs: subpart("elementRenderDelay"),
      scriptKb: kb(scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0)),
      firstLoadJsBytes: js.bytes,
      scriptCount: scripts.length,
      mainThreadMs: numeric("mainthread-work-breakdown"),
      longestTaskMs: Math.max(
        0,
        ...((lhr.audits["long-tasks"]?.details as { items?: { duration: number }[] } | undefined)?.items ?? []).map((t) => t.duration),
      ),
      lcpElement: snippet.slice(0, 120),
      finalPath: new URL(lhr.finalDisplayedUrl).pathname,
      ...machine,
      busy: busyReasons(machine),
      scripts: js.files,
    };
  } finally {
    await stopChrome(chrome);
  }
}

function medianOf(runs: Run[]): Figures {
  const m = (key: keyof Figures) => median(runs.map((r) => r[key] as number));
  // The LCP element and its breakdown come from the run whose LCP is the median, so they add up.
  const lcp = m("lcpMs");
  const lcpRun = runs.find((r) => r.lcpMs === lcp) ?? runs[0];
  return {
    performance: m("performance"),
    accessibility: m("accessibility"),
    fcpMs: m("fcpMs"),
    lcpMs: lcp,
    tbtMs: m("tbtMs"),
    cls: m("cls"),
    speedIndexMs: m("speedIndexMs"),
    ttfbMs: m("ttfbMs"),
    lcpLoadDelayMs: lcpRun.lcpLoadDelayMs,
    lcpLoadMs: lcpRun.lcpLoadMs,
    lcpRenderDelayMs: lcpRun.lcpRenderDelayMs,
    scriptKb: m("scriptKb"),
    firstLoadJsBytes: m("firstLoadJsBytes"),
    scriptCount: m("scriptCount"),
    mainThreadMs: m("mainThreadMs"),
    longestTaskMs: m("longestTaskMs"),
    lcpElement: lcpRun.lcpElement,
    finalPath: runs[0].finalPath,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ms = (n: number) => `${Math.round(n)} ms`;

function misses(f: Figures): string[] {
  const out: string[] = [];
  if (f.performance < TARGETS.performance) out.push(`performance ${f.performance} < ${TARGETS.performance}`);
  if (f.lcpMs > TARGETS.lcpMs) out.push(`LCP ${seconds(f.lcpMs)} > ${seconds(TARGETS.lcpMs)}`);
  if (f.tbtMs > TARGETS.tbtMs) out.push(`TBT ${ms(f.tbtMs)} > ${TARGETS.tbtMs} ms`);
  if (f.longestTaskMs > TARGETS.longestTaskMs) out.push(`longest task ${ms(f.longestTaskMs)} > ${TARGETS.longestTaskMs} ms`);
  if (f.cls > TARGETS.cls) out.push(`CLS ${f.cls.toFixed(3)} > ${TARGETS.cls}`);
  if (f.accessibility < TARGETS.accessibility) out.push(`accessibility ${f.accessibility} < ${TARGETS.accessibility}`);
  if (f.firstLoadJsBytes > TARGETS.firstLoadJsKb * 1024)
    out.push(`first-load JS ${kb(f.firstLoadJsBytes)} KB (${f.firstLoadJsBytes} bytes) > ${TARGETS.firstLoadJsKb} KB`);
  return out;
}

function pageResult(page: { name: string; path: string; signedIn?: boolean }, runs: Run[]): PageResult {
  const range = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];
  const m = medianOf(runs);
  const jsRun = runs.find((r) => r.firstLoadJsBytes === m.firstLoadJsBytes) ?? runs[0];
  return {
    ...page,
    runs: runs.map(({ scripts: _, ...run }) => run),
    median: m,
    scripts: jsRun.scripts ?? [],
    spread: { performance: range(runs.map((r) => r.performance)), lcpMs: range(runs.map((r) => r.lcpMs)) },
    missed: misses(m),
    busyRuns: runs.filter((r) => r.busy.length).length,
  };
}

const TARGET_LINE =
  `Targets on every page: performance ≥ ${TARGETS.performance}, LCP ≤ ${seconds(TARGETS.lcpMs)}, TBT ≤ ${TARGETS.tbtMs} ms, ` +
  `no main-thread task over ${TARGETS.longestTaskMs} ms, ` +
  `CLS ≤ ${TARGETS.cls}, accessibility ${TARGETS.accessibility}, first-load JavaScript ≤ ${TARGETS.firstLoadJsKb} KB gzipped.`;

function table(results: PageResult[]): string {
  const span = ([lo, hi]: [number, number], f: (n: number) => string) => (lo === hi ? f(lo) : `${f(lo)}–${f(hi)}`);
  const rows = results.map((r) => {
    const f = r.median;
    return [
      r.name,
      `${f.performance} (${span(r.spread.performance, String)})`,
      `${seconds(f.lcpMs)} (${span(r.spread.lcpMs, (n) => (n / 1000).toFixed(2))})`,
      ms(f.tbtMs),
      ms(f.longestTaskMs),
      f.cls.toFixed(3),
      f.accessibility,
      seconds(f.fcpMs),
      ms(f.ttfbMs),
      `${kb(f.firstLoadJsBytes)} KB`,
      r.missed.length ? `**miss**: ${r.missed.join("; ")}` : "pass",
      r.busyRuns ? `**busy** (${r.busyRuns} of ${r.runs.length} runs)` : "quiet",
    ].join(" | ");
  });
  return [
    `| page | performance (min–max) | LCP (min–max) | TBT | longest task | CLS | accessibility | FCP | TTFB (local) | first-load JS (gzip) | targets | machine |`,
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    `| **target** | ≥ ${TARGETS.performance} | ≤ ${seconds(TARGETS.lcpMs)} | ≤ ${TARGETS.tbtMs} ms | ≤ ${TARGETS.longestTaskMs} ms | ≤ ${TARGETS.cls} | ${TARGETS.accessibility} | – | – | ≤ ${TARGETS.firstLoadJsKb} KB | | |`,
    ...rows.map((r) => `| ${r} |`),
  ].join("\n");
}

/** Where each missing page's LCP time goes (the median-LCP run's breakdown), so the cause is on record. */
function causes(results: PageResult[]): string {
  const missed = results.filter((r) => r.missed.length);
  if (!missed.length) return "Every page met every target.";
  return [
    "| page | LCP element | waiting for the resource | its download | render delay after it | JS transferred (local) | main thread busy |",
    "|---|---|---|---|---|---|---|",
    ...missed.map(
      ({ name, median: f }) =>
        `| ${name} | ${f.lcpElement.replace(/\|/g, "/")} | ${ms(f.lcpLoadDelayMs)} | ${ms(f.lcpLoadMs)} | ${ms(f.lcpRenderDelayMs)} | ${f.scriptKb} KB (${f.scriptCount} files) | ${ms(f.mainThreadMs)} |`,
    ),
  ].join("\n");
}

/** Every run's machine: the other processes' CPU, benchmarkIndex, and the load average (1 min) at its start → end. */
function machineTable(results: PageResult[]): string {
  const load = (r: Run) => `${r.loadStart[0].toFixed(2)} → ${r.loadEnd[0].toFixed(2)}`;
  const other = (r: Run) => (r.otherCores === null ? "?" : r.otherCores.toFixed(2));
  return [
    "| page | other processes' CPU per run (cores) | benchmarkIndex per run | load average per run (1 min, start → end; the bench's own work included) | busy runs |",
    "|---|---|---|---|---|",
    ...results.map(
      ({ name, runs }) =>
        `| ${name} | ${runs.map(other).join(", ")} | ${runs.map((r) => Math.round(r.benchmarkIndex)).join(", ")} | ${runs.map(load).join(", ")} | ${
          runs
            .map((r, i) => (r.busy.length ? `run ${i + 1}: ${r.busy.join(", ")}` : ""))
            .filter(Boolean)
            .join("; ") || "none"
        } |`,
    ),
  ].join("\n");
}

const BUSY_RULE =
  `busy means a 1-minute load average above ${BUSY.machineLoad} before the bench started anything, or a run during which ` +
  `processes outside the bench used more than ${BUSY.otherCores} cores (where /proc cannot tell that: whose benchmarkIndex was below ${BUSY.benchmarkIndex}, 80 % of the quiet ${QUIET_INDEX})`;

function busyWarning(results: PageResult[]): string | null {
  const runs = results.flatMap((r) => r.runs);
  const busy = runs.filter((r) => r.busy.length);
  const machineBusy = machineLoad > BUSY.machineLoad;
  if (!busy.length && !machineBusy) return null;
  const others = runs.flatMap((r) => (r.otherCores === null ? [] : [r.otherCores]));
  const indexes = runs.map((r) => r.benchmarkIndex);
  return (
    `WARNING: the machine was busy (load average ${machineLoad.toFixed(2)} on ${os.cpus().length} cores before the bench started; ` +
    `${busy.length} of ${runs.length} runs busy: other processes ${others.length ? `${Math.min(...others).toFixed(2)}–${Math.max(...others).toFixed(2)}` : "?"} cores, ` +
    `benchmarkIndex ${Math.round(Math.min(...indexes))}–${Math.round(Math.max(...indexes))}; ${BUSY_RULE}). These figures measure the other work ` +
    "as much as the pages: do not compare them with a quiet run or judge the targets by them."
  );
}

async function main(): Promise<number> {
  // The machine's own state, before this bench builds or starts anything.
  machineLoad = os.loadavg()[0];
  log(
    `load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" / ")} (1 / 5 / 15 min) before the bench starts`,
  );
  if (machineLoad > BUSY.machineLoad) log(`the machine is busy (above ${BUSY.machineLoad}); the result will say so`);
  log(`building, then starting the app as npm start does (PORT=${server.port}, STATE_DIR=${path.relative(ROOT, server.stateDir)}) …`);
  ensureBuild({ fresh: true });
  freshState(server.stateDir, { demoData: true });
  server.start();
  try {
    await server.waitUntilReady();
    const home = (await (await fetch(`${BASE}/api/home`)).json()) as { newest: { id: string; seo_slug: string }[] };
    const listing = home.newest[0];
    let kari = await signIn("kari@lekebytte.test");
    const paymentSuccess = await purchase(kari);
    const inbox = await apiAs<{ id: string; last_seq: number }[]>(kari, "GET", "/api/conversations");
    // The longest of Kari's conversations (the demo data's, and the one about her purchase).
    const chat = [...inbox].sort((a, b) => b.last_seq - a.last_seq)[0];
    if (!chat) throw new Error("Kari has no conversation in the demo data");
    const allPages: { name: string; path: string; signedIn?: boolean }[] = [
      { name: "/", path: "/" },
      { name: "/search", path: "/search" },
      { name: "slug page", path: `/annonse/${listing.seo_slug}` },
      { name: "/listing/{id}", path: `/listing/${listing.id}` },
      { name: "/auth", path: "/auth" },
      { name: "/messages (signed in)", path: "/messages", signedIn: true },
      { name: "/chat/{id} (signed in)", path: `/chat/${chat.id}`, signedIn: true },
      { name: "/trade-history (signed in)", path: "/trade-history", signedIn: true },
      { name: "/payment-success (signed in)", path: paymentSuccess, signedIn: true },
    ];
    const only = process.env.BENCH_PAGES_ONLY?.split(",").map((name) => name.trim());
    const pages = only ? allPages.filter((p) => only.includes(p.name)) : allPages;
    if (!pages.length) throw new Error(`BENCH_PAGES_ONLY names no page; the names: ${allPages.map((p) => p.name).join(", ")}`);
    // One throwaway load warms the Worker's bundle and D1 (not measured).
    for (const page of pages)
      await (await fetch(BASE + page.path, { headers: page.signedIn ? { Cookie: cookieHeader(kari) } : {} })).arrayBuffer();

    const results: PageResult[] = [];
    for (const page of pages) {
      // A fresh sign-in per signed-in page: the access cookie lasts 15 minutes, and no run refreshes it.
      if (page.signedIn) kari = await signIn("kari@lekebytte.test");
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) {
        const run = await audit(BASE + page.path, page.signedIn ? kari : []);
        if (page.signedIn && run.finalPath !== new URL(BASE + page.path).pathname)
          throw new Error(`${page.name}: ended on ${run.finalPath}, not signed in?`);
        runs.push(run);
        log(
          `${page.name} run ${i + 1}/${RUNS}: performance ${run.performance}, LCP ${seconds(run.lcpMs)}, TBT ${ms(run.tbtMs)}, ` +
            `CLS ${run.cls.toFixed(3)}, accessibility ${run.accessibility}, JS ${kb(run.firstLoadJsBytes)} KB gzip; ` +
            `other processes ${run.otherCores === null ? "?" : run.otherCores.toFixed(2)} cores, benchmarkIndex ${Math.round(run.benchmarkIndex)}, ` +
            `load ${run.loadStart[0].toFixed(2)} → ${run.loadEnd[0].toFixed(2)}` +
            (run.busy.length ? ` — BUSY (${run.busy.join(", ")})` : ""),
        );
      }
      results.push(pageResult(page, runs));
    }

    const when = new Date().toISOString();
    const subset = only ? ` (BENCH_PAGES_ONLY: ${pages.length} of ${allPages.length} pages)` : "";
    const warning = busyWarning(results);
    const text = table(results);
    const causeTable = causes(results);
    const machines = machineTable(results);
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(
      path.join(RESULTS, "pages.json"),
      `${JSON.stringify(
        {
          when,
          runs: RUNS,
          targets: TARGETS,
          machine: {
            cores: os.cpus().length,
            loadBeforeStart: machineLoad,
            quietBenchmarkIndex: QUIET_INDEX,
            busyWhen: BUSY,
            busy: warning !== null,
          },
          warning,
          results,
        },
        null,
        2,
      )}\n`,
    );
    writeFileSync(
      path.join(RESULTS, "pages.md"),
      [
        "# Page speed (Lighthouse, mobile preset)",
        "",
        `Median of ${RUNS} ${RUNS === 1 ? "run" : "runs"} per page (min–max beside performance and LCP), \`npm run bench:pages\`${subset}, ${when}, Debian Chromium`,
        "headless on this 2-core machine (simulated slow 4G and 4× CPU slowdown, Lighthouse's mobile defaults).",
        `${TARGET_LINE} First-load JavaScript: the scripts loaded before Lighthouse stopped, gzipped.`,
        "TTFB is the local server's (wrangler, workerd and the local D1 simulator on the same cores), not Cloudflare's.",
        "",
        ...(warning
          ? [`> **${warning}**`, ""]
          : [`The machine was quiet during every run (load average ${machineLoad.toFixed(2)} before the bench started).`, ""]),
        text,
        "",
        "Where the LCP time goes on the pages that miss a target (the median-LCP run; Lighthouse's LCP breakdown, time to first byte left out):",
        "",
        causeTable,
        "",
        `The machine during each run (${BUSY_RULE}):`,
        "",
        machines,
        "",
      ].join("\n"),
    );
    console.log(`\n${text}\n\n${causeTable}\n\n${machines}\n`);
    if (warning) console.warn(`\n[bench:pages] ${warning}\n`);
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
