// Page speed benchmark (issue 9, "Page speed on phones"; signed-in pages from issue 15): builds and
// starts the app exactly as `npm start` does (its own port and a fresh state directory with the demo
// data), runs Lighthouse's mobile preset three times on /, /search, a slug page, /listing/{id} and
// /auth signed out, and on /messages, a chat, /trade-history and /payment-success signed in as the
// demo user Kari (signed in through the API; the session cookies set in each Chromium over the
// DevTools protocol before Lighthouse loads the page), and reports the median of each figure. For
// the last two, Kari first buys a listing of the demo user Ola by card on the payment sandbox (Ola
// connects Stripe on the sandbox's onboarding page; the sandbox sends the signed webhook). Writes tests/bench/results/pages.{md,json} and prints the
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
const SANDBOX = server.sandboxBase;
const DEMO_PASSWORD = "lekebytte123";
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
  /** Where the page ended up (a signed-out visit to a signed-in page is sent to /auth). */
  finalPath: string;
}

interface PageResult {
  name: string;
  path: string;
  signedIn?: boolean;
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

async function audit(url: string, cookies: Cookie[] = []): Promise<Figures> {
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
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    const { lhr } = result;
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
    const requests =
      (lhr.audits["network-requests"]?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
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
      finalPath: new URL(lhr.finalDisplayedUrl).pathname,
    };
  } finally {
    chrome.kill();
  }
}

function medianOf(runs: Figures[]): Figures {
  const m = (key: keyof Omit<Figures, "lcpElement" | "finalPath">) => median(runs.map((r) => r[key]));
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
    finalPath: runs[0].finalPath,
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
    ...results.map(
      ({ name, median: f }) =>
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
    let kari = await signIn("kari@lekebytte.test");
    const paymentSuccess = await purchase(kari);
    const inbox = await apiAs<{ id: string; last_seq: number }[]>(kari, "GET", "/api/conversations");
    // The longest of Kari's conversations (the demo data's, and the one about her purchase).
    const chat = [...inbox].sort((a, b) => b.last_seq - a.last_seq)[0];
    if (!chat) throw new Error("Kari has no conversation in the demo data");
    const pages: { name: string; path: string; signedIn?: boolean }[] = [
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
    // One throwaway load warms the Worker's bundle and D1 (not measured).
    for (const page of pages)
      await (await fetch(BASE + page.path, { headers: page.signedIn ? { Cookie: cookieHeader(kari) } : {} })).arrayBuffer();

    const results: PageResult[] = [];
    for (const page of pages) {
      // A fresh sign-in per signed-in page: the access cookie lasts 15 minutes, and no run refreshes it.
      if (page.signedIn) kari = await signIn("kari@lekebytte.test");
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++) {
        const figures = await audit(BASE + page.path, page.signedIn ? kari : []);
        if (page.signedIn && figures.finalPath !== new URL(BASE + page.path).pathname)
          throw new Error(`${page.name}: ended on ${figures.finalPath}, not signed in?`);
        runs.push(figures);
        log(
          `${page.name} run ${i + 1}/${RUNS}: performance ${figures.performance}, accessibility ${figures.accessibility}, LCP ${seconds(figures.lcpMs)}, CLS ${figures.cls.toFixed(3)}`,
        );
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
