// Load benchmark: a realistic mix of requests against `npm start`'s server (its own port
// and state directory), sent from this process over loopback at a bounded rate (open loop: requests
// leave on schedule whether or not earlier ones have answered, so a slow server is not hidden by a
// slower client). Per endpoint it prints requests/s, p50/p99/max latency and errors; the target is
// 0 errors and p99 ≤ 100 ms at 200 requests/s. Then what production pays (decision 111):
// D1 statements per 1,000 requests of the mix with the edge cache and without it (EDGE_CACHE=off),
// and per endpoint D1 round trips, statements and rows, our Worker's own time per request
// (X-Local-Worker-Ms: wall time minus awaited I/O) and, as the local cost, the CPU of its workerd process.
//
//   npm run bench:load      # BENCH_PORT (8863), BENCH_SANDBOX_PORT (8866, the payment sandbox),
//                           # BENCH_RATE (200 req/s), BENCH_SECONDS (60), BENCH_LISTINGS (10,000),
//                           # BENCH_MIX (e.g. "signin=0" to leave sign-in out), BENCH_OUT (results file),
//                           # BENCH_COST_REQUESTS (40 per endpoint for the production figures)
//
// The crowd: 2,000 visitor addresses (CF-Connecting-IP, as Cloudflare sets it in production; the
// app's rate limits are per address and per user, decision 010, and stay as they are), 400 signed-in
// users each in a conversation, 100 accounts that sign in with their password, 400 analytics sessions
// opened as consenting browsers open them (decision 038). Bench rows are written
// into a fresh local D1 before the server starts; access cookies are minted with the app's JWT code.
//
// The parts: load-requests.ts (the settings, the crowd and its requests), load-cost.ts (what
// production pays).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PAYS_NOTE, paysReport, whatProductionPays } from "./load-cost";
import {
  CONVERSATIONS,
  DEFAULT_MIX,
  type Endpoint,
  LISTINGS,
  RATE,
  SECONDS,
  SIGNIN_ACCOUNTS,
  STATE,
  VISITORS,
  WARMUP_SECONDS,
  type World,
  deck,
  expected,
  makeRequests,
  mix,
  openAnalyticsSessions,
  populate,
  send,
  server,
} from "./load-requests";
import { LoadSampler, ROOT, cores, ensureBuild, percentile, sleep } from "./support";

interface Stats {
  latencies: number[];
  errors: number;
  statuses: Record<string, number>;
}

/** Open loop: request i leaves at i / rate seconds; its latency counts from when it left. */
async function drive(world: World, seconds: number, record: boolean): Promise<{ stats: Map<Endpoint, Stats>; wallSeconds: number }> {
  const make = makeRequests(world);
  const order = deck(mix());
  const stats = new Map<Endpoint, Stats>();
  const total = Math.round(RATE * seconds);
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE) + 1);
    while (sent < due) {
      const endpoint = order[sent % order.length];
      const address = `198.18.${Math.floor((sent % VISITORS) / 250)}.${((sent * 7919) % 250) + 1}`;
      const p = send(make[endpoint](), address).then(({ status, ms }) => {
        if (!record) return;
        const s = stats.get(endpoint) ?? { latencies: [], errors: 0, statuses: {} };
        stats.set(endpoint, s);
        s.latencies.push(ms);
        s.statuses[status] = (s.statuses[status] ?? 0) + 1;
        if (status !== expected(endpoint)) s.errors++;
      });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      sent++;
    }
    await sleep(Math.max(0, started + (sent / RATE) * 1000 - performance.now()));
  }
  await Promise.all(inFlight);
  return { stats, wallSeconds: (performance.now() - started) / 1000 };
}

/**
 * Server CPU per request of each endpoint on its own: `count` requests, two at a time, after the
 * run. With the CPU a rate needs, this says what the server's time goes to.
 */
async function cpuPerRequest(world: World, count = 40): Promise<Map<Endpoint, number>> {
  const make = makeRequests(world);
  const out = new Map<Endpoint, number>();
  for (const endpoint of Object.keys(DEFAULT_MIX) as Endpoint[]) {
    if (mix()[endpoint] === 0) continue;
    const before = server.cpuSeconds();
    let i = 0;
    await Promise.all(
      [0, 1].map(async () => {
        while (i < count) await send(make[endpoint](), `198.18.9.${(i++ % 250) + 1}`);
      }),
    );
    out.set(endpoint, ((server.cpuSeconds() - before) * 1000) / count);
  }
  return out;
}

// ---- report ---------------------------------------------------------------------------------------

function table(stats: Map<Endpoint, Stats>, seconds: number, cpu: Map<Endpoint, number>): { text: string; p99: number; errors: number } {
  const ms = (v: number) => (Number.isNaN(v) ? "–" : v.toFixed(1));
  const rows: string[] = [];
  const all: number[] = [];
  let errors = 0;
  for (const endpoint of Object.keys(DEFAULT_MIX) as Endpoint[]) {
    const s = stats.get(endpoint);
    if (!s) continue;
    all.push(...s.latencies);
    errors += s.errors;
    const other = Object.entries(s.statuses)
      .filter(([code]) => Number(code) !== expected(endpoint))
      .map(([code, k]) => `${k}× ${code === "0" ? "no answer" : code}`);
    rows.push(
      `| ${endpoint} | ${s.latencies.length} | ${(s.latencies.length / seconds).toFixed(1)} | ${ms(percentile(s.latencies, 50))} | ${ms(percentile(s.latencies, 99))} | ${ms(Math.max(...s.latencies))} | ${s.errors}${other.length ? ` (${other.join(", ")})` : ""} | ${ms(cpu.get(endpoint) ?? NaN)} |`,
    );
  }
  const p99 = percentile(all, 99);
  const weights = mix();
  const total = Object.values(weights).reduce((a, b) => a + b, 0);
  const mixCpu = [...cpu].reduce((sum, [e, v]) => sum + (v * weights[e]) / total, 0);
  rows.push(
    `| **all** | ${all.length} | ${(all.length / seconds).toFixed(1)} | ${ms(percentile(all, 50))} | ${ms(p99)} | ${ms(Math.max(...all))} | ${errors} | ${ms(mixCpu)} (mix) |`,
  );
  return {
    text: [
      "| endpoint | requests | answered req/s | p50 ms | p99 ms | max ms | errors | server CPU ms/req (alone) |",
      "|---|---|---|---|---|---|---|---|",
      ...rows,
    ].join("\n"),
    p99,
    errors,
  };
}

async function main() {
  ensureBuild({ fresh: true });
  console.log(
    `Writing ${LISTINGS.toLocaleString("en")} listings, ${CONVERSATIONS} conversations and ${SIGNIN_ACCOUNTS} sign-in accounts into ${path.relative(ROOT, STATE)} …`,
  );
  const world = await populate();
  process.on("SIGINT", () => process.exit(130));
  server.start();
  await server.waitUntilReady();
  await openAnalyticsSessions(world);
  console.log(`Server up on ${server.base}; warm-up ${WARMUP_SECONDS} s at ${RATE} req/s (not counted)`);
  await drive(world, WARMUP_SECONDS, false);
  await sleep(2_000);

  console.log(`Sending ${RATE} req/s for ${SECONDS} s …`);
  const load = new LoadSampler();
  load.start();
  const cpuByNameBefore = new Map<string, number>();
  const cpuBefore = server.cpuSeconds(cpuByNameBefore);
  const { stats, wallSeconds } = await drive(world, SECONDS, true);
  const cpuByName = new Map<string, number>();
  const serverCpu = server.cpuSeconds(cpuByName) - cpuBefore;
  const loadAvg = load.stop();
  await sleep(6_000); // the analytics consumer takes its last batch (5 s window) before the CPU is measured
  console.log("Server CPU per request of each endpoint alone …");
  const cpu = await cpuPerRequest(world);
  console.log("What production pays, with the edge cache: D1 per request and per 1,000, the Worker process's CPU …");
  const withCache = await whatProductionPays(world);
  await server.stop();
  console.log("… and without it (EDGE_CACHE=off, the same data) …");
  server.env.EDGE_CACHE = "off";
  server.start();
  await server.waitUntilReady();
  await drive(world, WARMUP_SECONDS, false);
  const without = await whatProductionPays(world);
  await server.stop();
  const pays = paysReport(withCache, without);

  const { text, p99, errors } = table(stats, wallSeconds, cpu);
  const requests = [...stats.values()].reduce((n, s) => n + s.latencies.length, 0);
  const cpuParts = [...cpuByName]
    .map(([name, v]) => [name === "MainThread" ? "wrangler (node)" : name, v - (cpuByNameBefore.get(name) ?? 0)] as const)
    .filter(([, v]) => v >= 0.05)
    .map(([name, v]) => `${name} ${v.toFixed(1)} s`)
    .join(", ");
  const weights = mix();
  const mixText = (Object.entries(weights) as [Endpoint, number][])
    .filter(([, w]) => w > 0)
    .map(([e, w]) => `${e} ${w}`)
    .join(", ");
  const when = `${new Date().toISOString().slice(0, 16)}Z`;
  const header =
    `${RATE} req/s for ${SECONDS} s (open loop, ${VISITORS} visitor addresses), ${LISTINGS.toLocaleString("en")} listings, ${when}, command: \`${[
      "BENCH_RATE",
      "BENCH_SECONDS",
      "BENCH_LISTINGS",
      "BENCH_MIX",
    ]
      .filter((k) => process.env[k])
      .map((k) => `${k}=${process.env[k]} `)
      .join("")}npm run bench:load\`\n\n` +
    `Mix per ${Object.values(weights).reduce((a, b) => a + b, 0)} requests: ${mixText}.\n\n` +
    `Machine: ${cores()} cores, 1-minute load average during the run ${loadAvg.min.toFixed(1)}–${loadAvg.max.toFixed(1)} (mean ${loadAvg.mean.toFixed(1)}); ` +
    `server CPU ${serverCpu.toFixed(1)} s in ${wallSeconds.toFixed(1)} s (${cpuParts}), ` +
    `${((serverCpu * 1000) / requests).toFixed(1)} ms per request: ${RATE} req/s need ${((serverCpu / requests) * RATE).toFixed(2)} cores, ` +
    `and the server got ${(serverCpu / wallSeconds).toFixed(2)} cores on average.`;
  const verdict = `Target 0 errors and p99 ≤ 100 ms: errors ${errors}, p99 ${p99.toFixed(1)} ms — ${errors === 0 && p99 <= 100 ? "met" : "NOT met"}.`;
  console.log(`\n${header}\n\n${text}\n\n${verdict}\n\n${pays.text}\n\n${pays.headline}`);
  const out = process.env.BENCH_OUT ?? path.join(ROOT, "tests/bench/results/load.md");
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(
    out,
    `# Load benchmark\n\n${header}\n\n${text}\n\n${verdict}\n\n` +
      `## What production pays\n\n${pays.headline}\n\n${pays.text}\n\n${PAYS_NOTE}\n\n## How the figures are taken\n\n` +
      "Latency: from the moment a request leaves (on its schedule) to the last byte of the answer, over loopback. " +
      "An error is any answer other than the endpoint's success status (200; 201 for a message; 202 for analytics), or no answer (30 s idle socket). " +
      "`answered req/s`: answers over the time from the first request to the last answer. " +
      "`server CPU ms/req (alone)`: CPU of the server's processes (start script, wrangler, workerd) per request when 40 requests of that endpoint " +
      "run on their own after the run, two at a time; `(mix)` weights them by the mix.\n",
  );
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  server.signal("SIGTERM");
  process.exit(1);
});
