// Analytics benchmark: push 50,000 analytics records through the local Queue from
// concurrent clients against the app started exactly as `npm start` starts it (own port and state
// directory), then report
//   - records/s accepted by the endpoints (HTTP 202),
//   - the consumer's batch sizes (messages and records per R2 object: one object per batch),
//   - the time until every record is in R2 and every view in the D1 rollups,
//   - stored == sent (0 lost, 0 doubled), by reading every raw object back.
// A "record" is one line of raw NDJSON: a session, one event of an events request, one listing-view
// report, one search. Views are reported twice (start, then leaving with the duration), as the
// browser does, so the rollups must count each view once.
//
// Run: npm run bench:analytics   (BENCH_EVENTS, BENCH_CLIENTS, BENCH_PORT, BENCH_SANDBOX_PORT)
// Prints a table and writes tests/bench/results/analytics.md.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ANALYTICS_MAX_EVENTS_PER_REQUEST, ANALYTICS_VIEWS_PER_SESSION_LISTING_DAY } from "../../domain/analytics";
import { AppServer, ROOT, ensureBuild, freshState, sleep } from "./support";

const TOTAL = Number(process.env.BENCH_EVENTS ?? 50_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 40);
const SESSIONS_PER_CLIENT = 10;
/** Share of the records that are listing-view reports (two per view). */
const VIEW_SHARE = 0.2;
const SETTLE_TIMEOUT_MS = 300_000;

const UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";

interface Summary {
  objects: { key: string; messages: number; records: number }[];
  records: number;
  distinct_records?: number;
  messages?: number;
  kinds?: Record<string, number>;
  processed_messages: number;
  rollups: { rows: number; views: number; unique_sessions: number; total_view_ms: number };
}

// ---------------------------------------------------------------- the server, as `npm start` runs it

const server = AppServer.forBench("analytics", 8846);
const STATE = server.stateDir;
const BASE = server.base;

// ---------------------------------------------------------------- the plan: what each client sends

type Job = { path: string; body: unknown; records: number; kind: "session" | "events" | "view" };

interface Plan {
  clients: Job[][];
  sent: number;
  /** Views sent (each reported twice) and those the rollup counts (at most a few per session and listing). */
  viewsSent: number;
  views: number;
  uniqueSessions: number;
  totalViewMs: number;
}

function uuid(): string {
  return crypto.randomUUID();
}

function makePlan(listingIds: string[]): Plan {
  const sessions = CLIENTS * SESSIONS_PER_CLIENT;
  const viewReports = Math.floor((TOTAL * VIEW_SHARE) / 2) * 2;
  const events = TOTAL - sessions - viewReports;
  if (events < 0) throw new Error("BENCH_EVENTS is too small for the sessions and views");
  const clients: Job[][] = Array.from({ length: CLIENTS }, () => []);
  const sessionIds = Array.from({ length: sessions }, () => uuid());
  const sessionOfClient = (c: number, i: number) => sessionIds[c * SESSIONS_PER_CLIENT + (i % SESSIONS_PER_CLIENT)];
  const now = () => new Date().toISOString();

  sessionIds.forEach((sessionId, i) => {
    clients[Math.floor(i / SESSIONS_PER_CLIENT)].push({
      path: "/sessions",
      body: { sessionId, userAgent: UA, referrer: null, entryPage: `${BASE}/`, deviceType: "mobile", browser: "Chrome", os: "Android" },
      records: 1,
      kind: "session",
    });
  });

  // Views: each a start report and a leaving report; expected unique sessions per listing (one day).
  const views = viewReports / 2;
  const sessionsPerListing = new Map<string, Set<string>>();
  /** Per session and listing (one day) the views sent, by id with their duration: the rollup counts the first few by id (decision 038). */
  const viewsPerPair = new Map<string, { viewId: string; duration: number }[]>();
  for (let v = 0; v < views; v++) {
    const c = v % CLIENTS;
    const sessionId = sessionOfClient(c, v);
    const listingId = listingIds[v % listingIds.length];
    const viewId = uuid();
    const duration = 5_001 + ((v * 7919) % 120_000);
    const pair = `${sessionId}/${listingId}`;
    if (!viewsPerPair.has(pair)) viewsPerPair.set(pair, []);
    viewsPerPair.get(pair)!.push({ viewId, duration });
    if (!sessionsPerListing.has(listingId)) sessionsPerListing.set(listingId, new Set());
    sessionsPerListing.get(listingId)!.add(sessionId);
    const report = (viewDurationMs: number) => ({
      path: "/listing-views",
      body: {
        sessionId,
        viewId,
        listingId,
        referrerType: "search",
        searchQuery: "lego",
        filterContext: { categories: "lego" },
        scrollDepthPercent: 50,
        viewDurationMs,
      },
      records: 1,
      kind: "view" as const,
    });
    clients[c].push(report(0), report(duration));
  }

  // Generic events in requests of up to 50, as the tracker flushes them.
  let left = events;
  let r = 0;
  while (left > 0) {
    const n = Math.min(ANALYTICS_MAX_EVENTS_PER_REQUEST, left);
    const c = r % CLIENTS;
    const sessionId = sessionOfClient(c, r);
    const batch = Array.from({ length: n }, (_, i) => ({
      eventType: i % 5 === 0 ? "listing_view" : "page_view",
      eventCategory: i % 5 === 0 ? "listing" : "navigation",
      eventAction: "view",
      eventLabel: `/annonse/bench-${i}`,
      eventValue: null,
      metadata: { sessionId, timestamp: now(), page: "/", userAgent: UA, referrer: null, pageUrl: `${BASE}/` },
    }));
    clients[c].push({ path: "/events", body: { sessionId, events: batch }, records: n, kind: "events" });
    left -= n;
    r++;
  }

  // Sessions first for each client, then views and events interleaved.
  for (const jobs of clients) {
    const [sessionJobs, rest] = [jobs.filter((j) => j.kind === "session"), jobs.filter((j) => j.kind !== "session")];
    const views = rest.filter((j) => j.kind === "view");
    const others = rest.filter((j) => j.kind !== "view");
    const mixed: Job[] = [];
    while (views.length || others.length) {
      // Keep each view's two reports in order.
      if (views.length) mixed.push(views.shift()!, views.shift()!);
      if (others.length) mixed.push(others.shift()!);
    }
    jobs.splice(0, jobs.length, ...sessionJobs, ...mixed);
  }

  const uniqueSessions = [...sessionsPerListing.values()].reduce((sum, s) => sum + s.size, 0);
  const counted = [...viewsPerPair.values()].flatMap((list) =>
    list.sort((a, b) => (a.viewId < b.viewId ? -1 : 1)).slice(0, ANALYTICS_VIEWS_PER_SESSION_LISTING_DAY),
  );
  const totalViewMs = counted.reduce((sum, v) => sum + v.duration, 0);
  return { clients, sent: TOTAL, viewsSent: views, views: counted.length, uniqueSessions, totalViewMs };
}

// ---------------------------------------------------------------- the push

interface PushResult {
  accepted: number;
  requests: number;
  statuses: Record<string, number>;
  ms: number;
}

async function push(plan: Plan): Promise<PushResult> {
  const statuses: Record<string, number> = {};
  let accepted = 0;
  let requests = 0;
  const started = performance.now();
  await Promise.all(
    plan.clients.map(async (jobs, c) => {
      // Each client has its own address, as distinct visitors do (rate limits are per IP).
      const ip = `198.18.${Math.floor(c / 250)}.${(c % 250) + 1}`;
      // The signed session cookie each /sessions answer sets (decision 038), per session, as each
      // tab of a browser would send it.
      const cookies = new Map<string, string>();
      for (const job of jobs) {
        const sessionId = (job.body as { sessionId: string }).sessionId;
        const cookie = cookies.get(sessionId);
        const res = await fetch(`${BASE}/api/analytics${job.path}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: BASE, "CF-Connecting-IP": ip, ...(cookie ? { Cookie: cookie } : {}) },
          body: JSON.stringify(job.body),
        });
        const set = res.headers.getSetCookie().find((line) => line.startsWith("lb_analytics="));
        if (set) cookies.set(sessionId, set.split(";")[0]);
        await res.arrayBuffer();
        requests++;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status === 202) accepted += job.records;
      }
    }),
  );
  return { accepted, requests, statuses, ms: performance.now() - started };
}

async function summary(full = false): Promise<Summary> {
  const res = await fetch(`${BASE}/api/dev/analytics/summary${full ? "?full=1" : ""}`);
  if (!res.ok) throw new Error(`summary: HTTP ${res.status}`);
  return (await res.json()) as Summary;
}

// ---------------------------------------------------------------- report

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function distribution(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return { n: s.length, min: s[0] ?? 0, p50: percentile(s, 50) ?? 0, max: s[s.length - 1] ?? 0, mean };
}

async function main() {
  console.log(
    `Analytics benchmark: ${TOTAL.toLocaleString("en")} records from ${CLIENTS} concurrent clients, app on ${BASE} (state ${path.relative(ROOT, STATE)})`,
  );
  ensureBuild();
  freshState(STATE, { demoData: true });
  server.start();
  await server.waitUntilReady();
  console.log("app ready");

  const search = (await (await fetch(`${BASE}/api/search?limit=50`)).json()) as { rows: { id: string }[] };
  const listingIds = search.rows.map((r) => r.id);
  if (listingIds.length === 0) throw new Error("no listings in the demo data");
  const plan = makePlan(listingIds);
  const requests = plan.clients.reduce((n, jobs) => n + jobs.length, 0);
  console.log(
    `plan: ${requests.toLocaleString("en")} requests (${plan.viewsSent.toLocaleString("en")} views on ${listingIds.length} listings, reported twice each; ${plan.views.toLocaleString("en")} count, at most ${ANALYTICS_VIEWS_PER_SESSION_LISTING_DAY} per session and listing)`,
  );

  const pushStart = performance.now();
  const pushed = await push(plan);
  const perSecond = pushed.accepted / (pushed.ms / 1000);
  console.log(
    `pushed in ${(pushed.ms / 1000).toFixed(1)} s: ${pushed.accepted.toLocaleString("en")} records accepted (${perSecond.toFixed(0)} records/s, ${(pushed.requests / (pushed.ms / 1000)).toFixed(0)} requests/s); statuses ${JSON.stringify(pushed.statuses)}`,
  );

  // Poll until every accepted record is in R2 and every view in the rollups.
  let last: Summary | null = null;
  let inR2At: number | null = null;
  let inRollupsAt: number | null = null;
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    last = await summary();
    const now = performance.now();
    if (inR2At === null && last.records >= pushed.accepted) inR2At = now;
    if (inRollupsAt === null && last.rollups.views >= plan.views && last.rollups.total_view_ms >= plan.totalViewMs) inRollupsAt = now;
    if (inR2At !== null && inRollupsAt !== null) break;
    await sleep(1_000);
  }
  const full = await summary(true);
  const batches = distribution(full.objects.map((o) => o.messages));
  const recordsPerBatch = distribution(full.objects.map((o) => o.records));
  const secs = (at: number | null, from: number) => (at === null ? "not reached" : `${((at - from) / 1000).toFixed(1)} s`);

  const lost = plan.sent - (full.distinct_records ?? 0);
  const doubled = full.records - (full.distinct_records ?? 0);
  const viewsOk = full.rollups.views === plan.views;
  const uniqueOk = full.rollups.unique_sessions === plan.uniqueSessions;
  const durationOk = full.rollups.total_view_ms === plan.totalViewMs;
  const ok = lost === 0 && doubled === 0 && pushed.accepted === plan.sent && viewsOk && uniqueOk && durationOk;

  const rows: [string, string][] = [
    ["records sent", plan.sent.toLocaleString("en")],
    ["requests", `${requests.toLocaleString("en")} from ${CLIENTS} concurrent clients`],
    [
      "accepted by the endpoints (202)",
      `${pushed.accepted.toLocaleString("en")} in ${(pushed.ms / 1000).toFixed(1)} s = **${perSecond.toFixed(0)} records/s** (${(pushed.requests / (pushed.ms / 1000)).toFixed(0)} requests/s)`,
    ],
    [
      "consumer batches (R2 objects)",
      `${batches.n}: messages per batch min ${batches.min} / median ${batches.p50} / max ${batches.max} (mean ${batches.mean.toFixed(1)})`,
    ],
    ["records per batch", `min ${recordsPerBatch.min} / median ${recordsPerBatch.p50} / max ${recordsPerBatch.max}`],
    ["all records in R2", `${secs(inR2At, pushStart)} after the first request (${secs(inR2At, pushStart + pushed.ms)} after the last)`],
    [
      "all views in the D1 rollups",
      `${secs(inRollupsAt, pushStart)} after the first request (${secs(inRollupsAt, pushStart + pushed.ms)} after the last)`,
    ],
    [
      "stored in R2",
      `${full.records.toLocaleString("en")} lines, ${(full.distinct_records ?? 0).toLocaleString("en")} distinct (message id, index): **${lost} lost, ${doubled} doubled**`,
    ],
    [
      "rollups",
      `views ${full.rollups.views.toLocaleString("en")} (expected ${plan.views.toLocaleString("en")} of ${plan.viewsSent.toLocaleString("en")} sent), unique sessions ${full.rollups.unique_sessions.toLocaleString("en")} (expected ${plan.uniqueSessions.toLocaleString("en")}), view time ${full.rollups.total_view_ms.toLocaleString("en")} ms (expected ${plan.totalViewMs.toLocaleString("en")})`,
    ],
    ["verdict", ok ? "stored == sent, rollups exact" : "**MISMATCH**"],
  ];
  const table = ["| measure | result |", "|---|---|", ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join("\n");
  console.log(`\n${table}\n`);
  console.log(`batch sizes (messages): ${full.objects.map((o) => o.messages).join(" ")}`);

  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const md = `# Analytics benchmark\n\nLatest run of \`npm run bench:analytics\` (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${cpu}, shared with other work).\nThe app runs as \`npm start\` runs it (wrangler dev, local Queue, R2 and D1) on port ${server.port} with its own state directory; ${CLIENTS} clients push concurrently, each with its own address.\n\n${table}\n\nBatch sizes (messages per consumer batch, in R2 key order): ${full.objects.map((o) => o.messages).join(", ")}\n`;
  mkdirSync(path.join(ROOT, "tests/bench/results"), { recursive: true });
  writeFileSync(path.join(ROOT, "tests/bench/results/analytics.md"), md);
  if (!ok) process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  console.error(error);
  console.error(server.logTail());
  process.exitCode = 1;
} finally {
  await server.stop();
  // Keep the state for a look afterwards only when asked; it is large.
  if (!process.env.BENCH_KEEP_STATE) rmSync(STATE, { recursive: true, force: true });
}
