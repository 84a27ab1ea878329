// Search benchmark: generated listings in the local D1 file at one
// or more sizes; 20 queries with and without filters; p50/p95 of (1) the search endpoint in the
// Worker (the time inside the Worker from Server-Timing, and the HTTP round trip on localhost),
// (2) the same SQL run directly on the same SQLite file (the floor: its wall time, and the CPU time it
// took, which waiting for a core on a loaded machine does not inflate) and (3) the prototype's
// approach, a LIKE '%q%' scan, on the same file. Prints the curve over the sizes.
//
// Run: npm run bench:search                                        (10,000 and 100,000 listings)
//      npm run bench:search -- --sizes 10000,100000,1000000        (adds 1,000,000: ~10 min to build)
//      options: --runs N (25), --fresh (rebuild the data even if a cached copy matches)
//      env: BENCH_PORT (8797), BENCH_SANDBOX_PORT (PORT + 30), BENCH_SIZES and BENCH_RUNS as defaults
//      for the options
// The server is `npm start`'s (scripts/start.mjs, via tests/bench/support.ts) on the size's state.
// Each size's data is built once into .bench/search-<size>/ and reused while the migrations and the
// generator are unchanged. Each size's figures go to tests/bench/results/search-<size>.json, and
// tests/bench/results/search.md is rebuilt from every size measured so far (each row says when it was
// run and what the machine's load was).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DatabaseSync } from "node:sqlite";
import { searchParamsSchema, type SearchParams } from "../../domain/schemas/search";
import { buildSearchPlan, type SearchStatement } from "../../worker/features/search/plan";
import { asksVocabulary, widenedTerms } from "../../worker/features/search/search";
import { vocabularyQuery } from "../../worker/features/search/vocabulary";
import { searchTerms } from "../../domain/search";
import { generateListings } from "./listing-generator";
import { AppServer, BenchDb, ROOT, d1File, ensureBuild, freshState, percentile, skipDemoData } from "./support";

const RESULTS = path.join(ROOT, "tests/bench/results");
const PORT = Number(process.env.BENCH_PORT ?? 8797);
const SANDBOX_PORT = process.env.BENCH_SANDBOX_PORT ? Number(process.env.BENCH_SANDBOX_PORT) : undefined;

const { values: opts } = parseArgs({
  options: {
    sizes: { type: "string", default: process.env.BENCH_SIZES ?? "10000,100000" },
    runs: { type: "string", default: process.env.BENCH_RUNS ?? "25" },
    fresh: { type: "boolean", default: false },
  },
});
const SIZES = opts.sizes
  .split(",")
  .map((s) => Number(s.replace(/[_\s]/g, "")))
  .filter((n) => Number.isInteger(n) && n > 0);
const RUNS = Number(opts.runs);
if (!SIZES.length || !(RUNS > 0)) throw new Error("usage: npm run bench:search -- [--sizes 10000,100000,1000000] [--runs 25] [--fresh]");

const QUERIES = [
  "q=lego",
  "q=bøker",
  "q=boker",
  "q=klosser",
  "q=sparkesykkel",
  "q=lego&categories=lego",
  "q=bil&max=500",
  "q=dukke&free=true",
  "q=puslespill&conditions=4,5",
  `q=ski&ages=${encodeURIComponent("9-12 år")}`,
  "categories=biler",
  "free=true",
  "trade=true&categories=lego,biler",
  "min=100&max=1000&sort=price_asc",
  "q=nesten+ny",
  "q=ærlig",
  "q=traktor&postal=0150",
  "q=fra+røykfritt+hjem",
  "q=babygym&sort=newest",
  "q=lego+duplo+båt&trade=true",
];

interface Stat {
  p50: number;
  p95: number;
}

/** One size's run, as stored in tests/bench/results/search-<size>.json. */
interface SizeResult {
  size: number;
  date: string;
  /** The commit measured (with "+changes" when the work tree differed from it). */
  commit: string;
  runs: number;
  queries: number;
  /** os.loadavg() (1, 5, 15 min) when the measuring started and when it ended. */
  load: { start: number[]; end: number[] };
  cores: number;
  db_mb: number;
  build_s: number | null;
  in_worker: Stat;
  http: Stat;
  floor: Stat;
  /** CPU time (user + system) of this process while it ran the floor's statements: the SQL's own work. */
  floor_cpu?: Stat;
  like: Stat;
  per_query: { q: string; total: number; in_worker: Stat; http: Stat; floor: Stat; floor_cpu?: Stat; like: Stat }[];
  /** Requests whose connection the local proxy closed (asked again; the retry is what was timed). */
  dropped_connections: number;
}

function stats(samples: number[]): Stat {
  return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) };
}

const round = (n: number) => Math.round(n * 10) / 10;

/** What the data depends on: the migrations and the generator. A change rebuilds the cached copy. */
function dataStamp(size: number): string {
  const h = createHash("sha256");
  const dir = path.join(ROOT, "migrations");
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort())
    h.update(f).update(readFileSync(path.join(dir, f)));
  h.update(readFileSync(path.join(import.meta.dirname, "listing-generator.ts")));
  h.update(String(size));
  return h.digest("hex");
}

/** The data for one size: reused from .bench/search-<size>/ when its stamp matches, else built. */
function ensureData(size: number): { state: string; buildSeconds: number | null } {
  const state = path.join(ROOT, `.bench/search-${size}`);
  const stampFile = path.join(state, "stamp");
  const stamp = dataStamp(size);
  if (!opts.fresh && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) {
    console.log(`${size.toLocaleString("en")} listings: reusing ${path.relative(ROOT, state)}`);
    return { state, buildSeconds: null };
  }
  freshState(state, { demoData: false });
  // Loading only (bulk): no fsync, and a page cache large enough for the FTS segments and the indexes.
  const db = new BenchDb(state, { bulk: true });
  const users = Array.from(
    { length: Math.max(200, Math.round(size / 500)) },
    (_, i) => `00000000-0000-4000-a000-${String(i + 1).padStart(12, "0")}`,
  );
  const started = performance.now();
  for (const id of users) db.user("bench", { id, session: false });
  // One row at a time through the FTS triggers, in creation order, as production inserts them (the
  // search rowid follows it). The generator yields rows oldest first.
  let i = 0;
  for (const l of generateListings(size, users)) {
    db.listing(l);
    if (++i % 100_000 === 0) console.log(`  ${i.toLocaleString("en")} listings, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  db.close();
  const buildSeconds = (performance.now() - started) / 1000;
  writeFileSync(stampFile, stamp);
  console.log(`Inserted ${size.toLocaleString("en")} listings (FTS triggers included) in ${buildSeconds.toFixed(1)} s`);
  return { state, buildSeconds };
}

async function measure(size: number): Promise<SizeResult> {
  const { state, buildSeconds } = ensureData(size);
  const file = d1File(state);
  // A copy cached before the seed marker existed must not get the demo data on top.
  skipDemoData(state);
  const server = new AppServer(PORT, state, path.join(state, "server.log"), SANDBOX_PORT);
  // The search's own cost, every time: without the edge cache (decision 101) the 25 runs of a query
  // would all but the first be answered from it, with no D1 time to read.
  server.env.EDGE_CACHE = "off";
  server.start();
  const all = { http: [] as number[], inWorker: [] as number[], floor: [] as number[], floorCpu: [] as number[], like: [] as number[] };
  const perQuery: SizeResult["per_query"] = [];
  const loadStart = os.loadavg();
  let dropped = 0;
  let asked = 0;
  try {
    await server.waitUntilReady();
    for (const q of QUERIES) {
      const qs = { http: [] as number[], inWorker: [] as number[] };
      let total = 0;
      for (let i = 0; i < RUNS + 3; i++) {
        // A crowd of visitors, as in production: the per-address search limit (decision 010) stays.
        const visitor = { headers: { "CF-Connecting-IP": `198.18.${Math.floor(asked / 250) % 250}.${(asked++ % 250) + 1}` } };
        let t0 = performance.now();
        let res: Response;
        try {
          res = await fetch(`${server.base}/api/search?${q}`, visitor);
        } catch (err) {
          // wrangler dev's proxy now and then closes a kept-alive connection: count it, ask again.
          dropped++;
          console.warn(`${q}: ${String((err as Error).cause ?? err)}, asking again`);
          t0 = performance.now();
          res = await fetch(`${server.base}/api/search?${q}`, visitor);
        }
        const body = (await res.json()) as { total: number };
        const t1 = performance.now();
        if (!res.ok) throw new Error(`${q}: HTTP ${res.status}`);
        total = body.total;
        if (i < 3) continue; // warm-up
        qs.http.push(t1 - t0);
        qs.inWorker.push(Number(res.headers.get("Server-Timing")?.match(/dur=([\d.]+)/)?.[1] ?? NaN));
      }
      all.http.push(...qs.http);
      all.inWorker.push(...qs.inWorker);
      perQuery.push({
        q: decodeURIComponent(q),
        total,
        in_worker: stats(qs.inWorker),
        http: stats(qs.http),
        floor: stats([]),
        like: stats([]),
      });
    }
  } finally {
    await server.stop();
  }

  // The D1-side time: the same statements the Worker sends in its D1 batches, run one after another
  // on the same file with the server stopped, so nothing else reads or writes it meanwhile; then
  // the prototype's LIKE scan.
  const db = new DatabaseSync(file, { readOnly: true });
  for (const [k, q] of QUERIES.entries()) {
    const params = searchParamsSchema.parse(Object.fromEntries(new URLSearchParams(q)));
    const statements = workerStatements(db, params).map((st) => ({
      stmt: db.prepare(st.sql),
      params: st.params as (string | number | null)[],
    }));
    const likeSql = likeQuery(params);
    const likeStmt = db.prepare(likeSql.sql);
    const qs = { floor: [] as number[], floorCpu: [] as number[], like: [] as number[] };
    for (let i = 0; i < RUNS + 3; i++) {
      const cpu0 = process.cpuUsage();
      const t2 = performance.now();
      for (const st of statements) st.stmt.all(...st.params);
      const t3 = performance.now();
      const cpu = process.cpuUsage(cpu0);
      if (i < 3) continue; // warm-up
      qs.floor.push(t3 - t2);
      qs.floorCpu.push((cpu.user + cpu.system) / 1000);
    }
    for (let i = 0; i < RUNS + 3; i++) {
      const t3 = performance.now();
      likeStmt.all(...likeSql.params);
      if (i >= 3) qs.like.push(performance.now() - t3);
    }
    all.floor.push(...qs.floor);
    all.floorCpu.push(...qs.floorCpu);
    all.like.push(...qs.like);
    perQuery[k] = { ...perQuery[k], floor: stats(qs.floor), floor_cpu: stats(qs.floorCpu), like: stats(qs.like) };
  }
  db.close();
  return {
    size,
    date: `${new Date().toISOString().slice(0, 16)}Z`,
    commit: commit(),
    runs: RUNS,
    queries: QUERIES.length,
    load: { start: loadStart.map(round2), end: os.loadavg().map(round2) },
    cores: os.availableParallelism(),
    db_mb: Math.round(statSync(file).size / 1e6),
    build_s: buildSeconds === null ? null : Math.round(buildSeconds),
    in_worker: stats(all.inWorker),
    http: stats(all.http),
    floor: stats(all.floor),
    floor_cpu: stats(all.floorCpu),
    like: stats(all.like),
    per_query: perQuery,
    dropped_connections: dropped,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function commit(): string {
  const git = (...args: string[]) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" }).stdout.trim();
  return (
    git("rev-parse", "--short", "HEAD") +
    (git("status", "--porcelain", "--", "worker", "domain", "migrations", "tests/bench", ":!tests/bench/results") ? "+changes" : "")
  );
}

/** The report over every size measured so far (tests/bench/results/search-<size>.json). */
function report(): string {
  const results = readdirSync(RESULTS)
    .filter((f) => /^search-\d+\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(path.join(RESULTS, f), "utf8")) as SizeResult)
    .sort((a, b) => a.size - b.size);
  const n = (x: number) => x.toLocaleString("en");
  const pair = (s: Stat | undefined) => (s ? `${s.p50.toFixed(1)} / ${s.p95.toFixed(1)}` : "–");
  const largest = results[results.length - 1];
  const smallest = results[0];
  const lines = [
    `# Search benchmark`,
    ``,
    `${QUERIES.length} queries × ${RUNS} runs per size (after 3 warm-up runs). Commands: \`npm run bench:search\` (10,000 and 100,000 listings),`,
    `\`npm run bench:search -- --sizes 1000000\` (or \`--sizes 10000,100000,1000000\`) for the largest size. Each row is the latest run of that`,
    `size; the load average is the machine's (shared by several engineers, ${largest.cores} cores) at the start → end of the row's measuring.`,
    ``,
    `p50 / p95 in ms:`,
    ``,
    `| listings | in the Worker (Server-Timing) | HTTP round trip | D1-side: the SQL alone | its CPU | LIKE scan | D1 file | run | commit | load avg |`,
    `|---|---|---|---|---|---|---|---|---|---|`,
    ...results.map(
      (r) =>
        `| ${n(r.size)} | ${pair(r.in_worker)} | ${pair(r.http)} | ${pair(r.floor)} | ${pair(r.floor_cpu)} | ${pair(r.like)} | ${n(r.db_mb)} MB | ${r.date} | ${r.commit} | ${r.load.start[0]} → ${r.load.end[0]} |`,
    ),
    ``,
    `- in the Worker: the search endpoint's D1 batch as the Worker times it (\`Server-Timing: d1;dur=…\`, whole ms; workerd's`,
    `  clock only advances across I/O, so this is the time the Worker waits for D1);`,
    `- HTTP round trip: the same request from the benchmark on localhost (adds wrangler dev's proxy and local D1 simulator);`,
    `- D1-side, the SQL alone (the floor): the statements of the Worker's batches (rows, count and the vocabulary's question;`,
    `  the second plan's when the answer widens the match) run one after another on the same file with`,
    `  node:sqlite (the SQLite engine D1 runs), after the server has stopped so nothing else uses the file: what D1's`,
    `  \`meta.duration\` reports for them, without the network and without the local simulator;`,
    `- its CPU: the CPU time that took (user + system), which waiting for a core on a loaded machine does not add to;`,
    `- LIKE scan: the prototype's approach (\`title LIKE '%q%' OR description LIKE '%q%'\`, the same filters, newest 50).`,
    ``,
  ];
  if (results.length > 1) {
    const growth = (pick: (r: SizeResult) => Stat) => (pick(largest).p95 / Math.max(0.1, pick(smallest).p95)).toFixed(1);
    lines.push(
      `Growth of p95 from ${n(smallest.size)} to ${n(largest.size)} listings (×${n(largest.size / smallest.size)} data): in the Worker ×${growth((r) => r.in_worker)},`,
      `floor ×${growth((r) => r.floor)}, LIKE scan ×${growth((r) => r.like)}.`,
      ``,
    );
  }
  const m = results.find((r) => r.size === 1_000_000);
  if (m) {
    lines.push(
      `Target at 1,000,000 listings, p95 inside the Worker ≤ 20 ms: ${m.in_worker.p95} ms ${m.in_worker.p95 <= 20 ? "(met)" : "(NOT met)"};`,
      `D1-side time (the SQL alone) p95 there: ${m.floor.p95} ms, CPU ${m.floor_cpu?.p95 ?? "–"} ms — target ≤ 10 ms ${m.floor.p95 <= 10 ? "(met)" : "(NOT met)"}; LIKE scan p95: ${m.like.p95} ms (${(m.like.p95 / Math.max(1, m.in_worker.p95)).toFixed(1)}× the Worker's).`,
      ``,
    );
  }
  for (const r of [...results].reverse()) {
    lines.push(
      `## ${n(r.size)} listings (${r.date}, load ${r.load.start.join(" ")} → ${r.load.end.join(" ")}${r.build_s !== null ? `, data built in ${r.build_s} s` : ""}${r.dropped_connections ? `, ${r.dropped_connections} dropped connections asked again` : ""})`,
      ``,
      `| query | total | in Worker p50 / p95 | HTTP p50 / p95 | floor p50 / p95 | floor CPU p50 / p95 | LIKE p50 / p95 |`,
      `|---|---|---|---|---|---|---|`,
      ...r.per_query.map(
        (p) =>
          `| \`${p.q}\` | ${p.total} | ${pair(p.in_worker)} | ${pair(p.http)} | ${pair(p.floor)} | ${pair(p.floor_cpu)} | ${pair(p.like)} |`,
      ),
      ``,
    );
  }
  return lines.join("\n");
}

async function main() {
  ensureBuild();
  mkdirSync(RESULTS, { recursive: true });
  for (const size of SIZES) {
    const r = await measure(size);
    writeFileSync(path.join(RESULTS, `search-${size}.json`), `${JSON.stringify(r, null, 2)}\n`);
    console.log(
      `${size.toLocaleString("en")} listings: in the Worker p95 ${r.in_worker.p95} ms, HTTP p95 ${r.http.p95} ms, floor p95 ${r.floor.p95} ms (CPU ${r.floor_cpu?.p95} ms), LIKE p95 ${r.like.p95} ms`,
    );
  }
  const text = report();
  console.log(`\n${text}`);
  writeFileSync(path.join(RESULTS, "search.md"), text);
}

/** The prototype's fallback search: ILIKE on title or description, the same filters, newest first, 50 rows. */
function likeQuery(p: SearchParams): { sql: string; params: (string | number)[] } {
  const where = ["status = 'active'", "is_hidden = 0"];
  const params: (string | number)[] = [];
  if (p.q) {
    where.push("(title LIKE ? OR description LIKE ?)");
    params.push(`%${p.q}%`, `%${p.q}%`);
  }
  if (p.categories.length) where.push(`category IN (${p.categories.map(() => "?").join(",")})`), params.push(...p.categories);
  if (p.conditions.length) where.push(`condition_rating IN (${p.conditions.map(() => "?").join(",")})`), params.push(...p.conditions);
  if (p.ages.length) where.push(`age_range IN (${p.ages.map(() => "?").join(",")})`), params.push(...p.ages);
  if (p.free) where.push("is_free = 1");
  if (p.trade) where.push("is_trade_offer = 1");
  if (!p.free && p.min) where.push("price >= ?"), params.push(p.min);
  if (!p.free && p.max && p.max < 10000) where.push("price <= ?"), params.push(p.max);
  if (p.postal) where.push("postal_code LIKE ?"), params.push(`%${p.postal}%`);
  return { sql: `SELECT * FROM listings WHERE ${where.join(" AND ")} ORDER BY created_at DESC LIMIT 50`, params };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * The statements the Worker sends D1 for one search (worker/features/search/search.ts
 * `searchListings`): the plan's rows and count with the vocabulary's question in one batch, and the
 * second plan's when the vocabulary's answer widens the match (a compound to split, a typo).
 */
function workerStatements(db: DatabaseSync, params: SearchParams): SearchStatement[] {
  const plan = buildSearchPlan(params);
  const first = [plan.rows, plan.count, ...(plan.typed ? [plan.typed] : [])];
  const terms = searchTerms(params.q);
  const ask = asksVocabulary(terms) ? vocabularyQuery(terms) : null;
  if (!ask) return first;
  const understood = widenedTerms(terms, db.prepare(ask.sql).all(...ask.params));
  if (!understood) return [...first, ask];
  const second = buildSearchPlan(params, understood);
  return [...first, ask, second.rows, second.count, ...(second.typed ? [second.typed] : [])];
}
