// Search benchmark (search issue): 100,000 generated listings in the local D1 file; 20 queries with
// and without filters; p50/p95 of (1) the search endpoint in the Worker (HTTP on localhost, and the
// D1 time the Worker reports in Server-Timing), (2) the same SQL run directly on the same SQLite
// file (the floor) and (3) the prototype's approach, a LIKE '%q%' scan, on the same file.
// Run: npm run bench:search  (BENCH_LISTINGS=… to change the size). Prints a table and writes
// tests/bench/results/search.md.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { searchParamsSchema } from "../../domain/schemas/search";
import { buildSearchPlan } from "../../worker/services/search";
import { generateListings } from "./listing-generator";

const ROOT = path.resolve(import.meta.dirname, "../..");
const STATE = path.join(ROOT, ".bench/search-state");
const PORT = Number(process.env.BENCH_PORT ?? 8797);
const COUNT = Number(process.env.BENCH_LISTINGS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const env = { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", NO_D1_WARNING: "true" };

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

function run(cmd: string, args: string[]) {
  const res = spawnSync(cmd, args, { cwd: ROOT, env, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${res.stderr}\n${res.stdout}`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), n: s.length };
}

function d1File(): string {
  const dir = path.join(STATE, "v3/d1/miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (!file) throw new Error(`no D1 file in ${dir}`);
  return path.join(dir, file);
}

function populate(): void {
  rmSync(STATE, { recursive: true, force: true });
  mkdirSync(STATE, { recursive: true });
  run("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", STATE]);
  const db = new DatabaseSync(d1File());
  const users = Array.from({ length: 200 }, (_, i) => `00000000-0000-4000-a000-${String(i + 1).padStart(12, "0")}`);
  const started = performance.now();
  db.exec("BEGIN");
  const insertUser = db.prepare("INSERT INTO users (id, email, password_hash, email_confirmed_at) VALUES (?, ?, '!', '2025-01-01T00:00:00Z')");
  const insertProfile = db.prepare("INSERT INTO profiles (user_id, display_name) VALUES (?, ?)");
  users.forEach((id, i) => {
    insertUser.run(id, `bench${i}@lekebytte.test`);
    insertProfile.run(id, `Bruker ${i}`);
  });
  const insert = db.prepare(
    `INSERT INTO listings (id, user_id, title, description, category, age_range, condition_rating, price, is_free, is_trade_offer,
       postal_code, images, status, is_hidden, seo_slug, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Inserted in creation order, as production inserts them (the search rowid follows it).
  const rows = [...generateListings(COUNT, users)].sort((a, b) => a.created_at.localeCompare(b.created_at));
  for (const l of rows) {
    insert.run(l.id, l.user_id, l.title, l.description, l.category, l.age_range, l.condition_rating, l.price, l.is_free, l.is_trade_offer,
      l.postal_code, l.images, l.status, l.is_hidden, l.seo_slug, l.created_at, l.updated_at);
  }
  db.exec("COMMIT");
  db.exec("ANALYZE");
  db.close();
  console.log(`Inserted ${COUNT.toLocaleString("en")} listings (FTS triggers included) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function waitFor(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer`);
}

async function main() {
  if (!existsSync(path.join(ROOT, "dist/client/index.html"))) run("vite", ["build"]);
  populate();

  const server = spawn("wrangler", ["dev", "--port", String(PORT), "--ip", "127.0.0.1", "--persist-to", STATE, "--log-level", "warn", "--var", "APP_ENV:local"], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: "ignore",
  });
  const stop = () => {
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  process.on("exit", stop);
  try {
    await waitFor(`http://127.0.0.1:${PORT}/api/home`, 120_000);
    const db = new DatabaseSync(d1File(), { readOnly: true });
    const http: number[] = [];
    const inWorker: number[] = [];
    const raw: number[] = [];
    const like: number[] = [];
    const perQuery: string[] = [];

    for (const q of QUERIES) {
      const params = searchParamsSchema.parse(Object.fromEntries(new URLSearchParams(q)));
      const plan = buildSearchPlan(params);
      // The floor: the same statements the Worker sends in its one D1 batch, run one after another.
      const statements = [...plan.tiers, plan.count].map((st) => ({ stmt: db.prepare(st.sql), params: st.params as (string | number | null)[] }));
      const likeSql = likeQuery(params);
      const likeStmt = db.prepare(likeSql.sql);
      const qHttp: number[] = [];
      const qRaw: number[] = [];
      const qLike: number[] = [];
      let total = 0;
      for (let i = 0; i < RUNS + 3; i++) {
        const t0 = performance.now();
        const res = await fetch(`http://127.0.0.1:${PORT}/api/search?${q}`);
        const body = (await res.json()) as { total: number };
        const t1 = performance.now();
        total = body.total;
        const d1 = Number(res.headers.get("Server-Timing")?.match(/dur=([\d.]+)/)?.[1] ?? NaN);
        const t2 = performance.now();
        for (const st of statements) st.stmt.all(...st.params);
        const t3 = performance.now();
        likeStmt.all(...likeSql.params);
        const t4 = performance.now();
        if (i < 3) continue; // warm-up
        qHttp.push(t1 - t0);
        inWorker.push(d1);
        qRaw.push(t3 - t2);
        qLike.push(t4 - t3);
      }
      http.push(...qHttp);
      raw.push(...qRaw);
      like.push(...qLike);
      const f = (xs: number[]) => stats(xs).p50.toFixed(1);
      perQuery.push(`| \`${decodeURIComponent(q)}\` | ${total} | ${f(qHttp)} | ${f(qRaw)} | ${f(qLike)} |`);
    }
    db.close();

    const h = stats(http);
    const w = stats(inWorker);
    const r = stats(raw);
    const l = stats(like);
    const lines = [
      `# Search benchmark`,
      ``,
      `${COUNT.toLocaleString("en")} listings, ${QUERIES.length} queries × ${RUNS} runs, ${new Date().toISOString().slice(0, 16)}Z, command: \`npm run bench:search\``,
      ``,
      `| measure | p50 ms | p95 ms |`,
      `|---|---|---|`,
      `| search endpoint in the Worker, HTTP round trip on localhost | ${h.p50.toFixed(1)} | ${h.p95.toFixed(1)} |`,
      `| D1 time inside the Worker (Server-Timing) | ${w.p50.toFixed(1)} | ${w.p95.toFixed(1)} |`,
      `| same SQL directly on the SQLite file (floor) | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} |`,
      `| prototype approach: LIKE '%q%' scan on the same file | ${l.p50.toFixed(1)} | ${l.p95.toFixed(1)} |`,
      ``,
      `Targets, judged on the search endpoint's time inside the Worker (its D1 batch, Server-Timing):`,
      `- p95 ≤ 20 ms: ${w.p95} ms ${w.p95 <= 20 ? "(met)" : "(NOT met)"}`,
      `- ≥ 10× faster than the LIKE scan at p95: ${(l.p95 / w.p95).toFixed(1)}× ${l.p95 / w.p95 >= 10 ? "(met)" : "(NOT met)"}`,
      `- within 2× of the raw SQLite floor at p95: ${(w.p95 / r.p95).toFixed(1)}× ${w.p95 <= 2 * r.p95 ? "(met)" : "(NOT met)"}`,
      `The HTTP round trip adds wrangler dev's local proxy and the D1 simulator: p95 ${h.p95.toFixed(1)} ms (${(l.p95 / h.p95).toFixed(1)}× faster than LIKE, ${(h.p95 / r.p95).toFixed(1)}× the floor).`,
      ``,
      `| query | total | endpoint p50 | floor p50 | LIKE p50 |`,
      `|---|---|---|---|---|`,
      ...perQuery,
      ``,
    ];
    const report = lines.join("\n");
    console.log(report);
    mkdirSync(path.join(ROOT, "tests/bench/results"), { recursive: true });
    writeFileSync(path.join(ROOT, "tests/bench/results/search.md"), report);
  } finally {
    stop();
  }
}

/** The prototype's fallback search: ILIKE on title or description, the same filters, newest first, 50 rows. */
function likeQuery(p: ReturnType<typeof searchParamsSchema.parse>): { sql: string; params: (string | number)[] } {
  const where = ["status = 'active'", "is_hidden = 0"];
  const params: (string | number)[] = [];
  if (p.q) {
    where.push("(title LIKE ? OR description LIKE ?)");
    params.push(`%${p.q}%`, `%${p.q}%`);
  }
  if (p.categories.length) (where.push(`category IN (${p.categories.map(() => "?").join(",")})`), params.push(...p.categories));
  if (p.conditions.length) (where.push(`condition_rating IN (${p.conditions.map(() => "?").join(",")})`), params.push(...p.conditions));
  if (p.ages.length) (where.push(`age_range IN (${p.ages.map(() => "?").join(",")})`), params.push(...p.ages));
  if (p.free) where.push("is_free = 1");
  if (p.trade) where.push("is_trade_offer = 1");
  if (!p.free && p.min) (where.push("price >= ?"), params.push(p.min));
  if (!p.free && p.max && p.max < 10000) (where.push("price <= ?"), params.push(p.max));
  if (p.postal) (where.push("postal_code LIKE ?"), params.push(`%${p.postal}%`));
  return { sql: `SELECT * FROM listings WHERE ${where.join(" AND ")} ORDER BY created_at DESC LIMIT 50`, params };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
