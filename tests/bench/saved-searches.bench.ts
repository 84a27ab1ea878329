// Saved-search matching benchmark: 10,000 saved searches × 1,000 new listings on top of
// 20,000 older listings, in the local D1 file, matched by the Worker (wrangler dev, local mode)
// through the local-only endpoint /api/dev/saved-searches/match, which runs the same matcher as the
// queue consumer and the cron. Reports, for one batch of 1,000 (the cron's catch-up), ten batches of
// 100 (queue batches) and single listings (a quiet queue), the matching time inside the Worker and
// over HTTP, the D1 statements issued and the matches found; then checks every match against a
// brute-force reference: each saved search's own /search query (worker/features/search/search.ts
// `buildSearchPlan`, the statements /api/search runs) on the same SQLite file, one per saved search.
//
// Run: npm run bench:saved-searches   (BENCH_SAVED_SEARCHES, BENCH_NEW_LISTINGS, BENCH_BASE_LISTINGS,
// BENCH_SINGLE, BENCH_PORT, BENCH_SANDBOX_PORT). Writes tests/bench/results/saved-searches.md. The server is
// `npm start`'s (scripts/start.mjs, via tests/bench/support.ts) on .bench/saved-searches-state.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { SavedSearchAlert } from "../../domain/saved-searches";
import { serializeFilters, type SearchFilters } from "../../domain/searchUrl";
import { AGE_RANGES, CATEGORY_KEYS, type CategoryKey } from "../../domain/taxonomy";
import { searchParamsSchema } from "../../domain/schemas/search";
import { indexKeys, matchSpec } from "../../worker/features/saved-searches/match-index";
import { buildSearchPlan } from "../../worker/features/search/plan";
import { generateListings, type BenchListing } from "./listing-generator";
import { rng } from "../../scripts/seed/raster";
import { AppServer, BenchDb, ROOT, d1File, ensureBuild, freshState, percentile } from "./support";
import { attributeFilters } from "../../domain/listing-field-rules";

const server = AppServer.forBench("saved-searches", 8842);
const STATE = server.stateDir;
const BASE_URL = server.base;
const SEARCHES = Number(process.env.BENCH_SAVED_SEARCHES ?? 10_000);
const NEW = Number(process.env.BENCH_NEW_LISTINGS ?? 1_000);
const BASE = Number(process.env.BENCH_BASE_LISTINGS ?? 20_000);
const SINGLE = Number(process.env.BENCH_SINGLE ?? 100);
const USERS = Math.max(200, Math.ceil(SEARCHES / 10));

const userId = (i: number) => `00000000-0000-4000-b000-${String(i + 1).padStart(12, "0")}`;

// What parents search for: words from the listings' titles and descriptions (common and rare, with
// and without æ/ø/å, compound parts, a two-letter word), and words no listing has.
const WORDS = [
  "lego",
  "duplo",
  "technic",
  "ninjago",
  "klosser",
  "bil",
  "brannbil",
  "traktor",
  "racerbane",
  "dukkevogn",
  "dukkehus",
  "bamse",
  "puslespill",
  "brikker",
  "ludo",
  "sjakk",
  "babygym",
  "bæresele",
  "rangle",
  "sykkelhjelm",
  "ski",
  "skøyter",
  "sykkel",
  "nettbrett",
  "kamera",
  "perlebrett",
  "malesett",
  "sparkesykkel",
  "trampoline",
  "akebrett",
  "huske",
  "balansesykkel",
  "boker",
  "bøker",
  "dinosaurer",
  "ny",
  "rosa",
  "komplett",
  "esken",
  "tog",
  "hus",
  "kikkert",
  "mikroskop",
  "robotstøvsuger",
  "xylofon",
];
const POSTAL_PREFIXES = ["0", "01", "015", "0150", "0250", "5", "50", "5003", "70", "7010", "4", "40", "4006", "9008", "1606"];

/**
 * A realistic saved search: text in a bit over half, categories in a third, and some of each other
 * filter. One without text or categories is mostly given a category (a search for "anything under
 * 500 kr" would alert on nearly every listing); one in 20 of those stays that broad.
 */
function makeFilters(r: () => number): SearchFilters {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const f: SearchFilters = {
    ...attributeFilters(() => undefined),
    q: r() < 0.55 ? (r() < 0.8 ? pick(WORDS) : `${pick(WORDS)} ${pick(WORDS)}`) : "",
    categories: r() < 0.35 ? [...new Set(Array.from({ length: r() < 0.8 ? 1 : 2 }, () => pick(CATEGORY_KEYS) as CategoryKey))] : [],
    conditions: r() < 0.1 ? [4, 5] : [],
    ages: r() < 0.15 ? [pick(AGE_RANGES)] : [],
    min: r() < 0.1 ? pick([100, 300, 500]) : null,
    max: r() < 0.25 ? pick([200, 500, 1000, 2000]) : null,
    free: r() < 0.1,
    trade: r() < 0.1,
    postal: r() < 0.15 ? pick(POSTAL_PREFIXES) : "",
    sort: null,
  };
  if (!f.q && f.categories.length === 0 && r() < 0.95) f.categories = [pick(CATEGORY_KEYS) as CategoryKey];
  if (f.min !== null && f.max !== null && f.min > f.max) f.min = null;
  if (!serializeFilters(f)) f.categories = [pick(CATEGORY_KEYS) as CategoryKey];
  return f;
}

interface SavedRow {
  id: string;
  userId: string;
  query: string;
}

function populate(): { newIds: string[]; saved: SavedRow[]; sinceRid: number } {
  freshState(STATE, { demoData: false });
  const bench = new BenchDb(STATE, { bulk: true });
  const { db } = bench;
  const started = performance.now();
  const users = Array.from({ length: USERS }, (_, i) => userId(i));
  for (const id of users) bench.user("bench", { id, session: false });
  const put = (l: BenchListing) => bench.listing(l);
  // Older listings in creation order, as production inserts them (the search rowid follows it).
  for (const l of [...generateListings(BASE, users, 7)].sort((a, b) => a.created_at.localeCompare(b.created_at))) put(l);
  const sinceRid = (db.prepare("SELECT MAX(rid) AS rid FROM listing_search_map").get() as { rid: number }).rid;

  // The saved searches, as the API stores them (canonical query, its filters key, its index keys).
  const r = rng(16);
  const insertSearch = db.prepare(
    `INSERT INTO saved_searches (id, user_id, name, query, filters_key, alert, since_rid, seen_rid, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, '2026-11-22T00:00:00Z', '2026-11-22T00:00:00Z') ON CONFLICT DO NOTHING`,
  );
  const insertKey = db.prepare("INSERT INTO saved_search_keys (key, saved_search_id) VALUES (?, ?)");
  const saved: SavedRow[] = [];
  const alerts: SavedSearchAlert[] = [
    "immediate",
    "immediate",
    "immediate",
    "immediate",
    "immediate",
    "immediate",
    "immediate",
    "daily",
    "daily",
    "off",
  ];
  for (let i = 0; saved.length < SEARCHES; i++) {
    const filters = makeFilters(r);
    const query = serializeFilters(filters);
    const id = `${String(i).padStart(8, "0")}-5555-4555-8555-${String(i).padStart(12, "0")}`;
    const owner = users[saved.length % users.length];
    const inserted = insertSearch.run(id, owner, `Søk ${i}`, query, query, alerts[i % alerts.length], sinceRid, sinceRid);
    if (!inserted.changes) continue; // the same filters again for that user
    for (const key of indexKeys(matchSpec(filters))) insertKey.run(key, id);
    saved.push({ id, userId: owner, query });
  }

  // The new listings: later than every older one, from all users (some from searchers themselves).
  const fresh = [...generateListings(NEW, users, 99)].map((l, i) => {
    const at = new Date(Date.parse("2026-11-23T00:00:00Z") + i * 1000).toISOString();
    return { ...l, created_at: at, updated_at: at };
  });
  for (const l of fresh) put(l);
  bench.close();
  console.log(
    `Inserted ${USERS} users, ${BASE.toLocaleString("en")} older listings, ${saved.length.toLocaleString("en")} saved searches and ${NEW.toLocaleString("en")} new listings in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { newIds: fresh.map((l) => l.id), saved, sinceRid };
}

interface MatchAnswer {
  ms: number;
  statements: number;
  listings: number;
  candidates: number;
  textChecks: number;
  matches: number;
  inserted: number;
  pairs: [string, string][];
}

async function match(listingIds: string[]): Promise<MatchAnswer & { http: number }> {
  const t0 = performance.now();
  const res = await fetch(`${BASE_URL}/api/dev/saved-searches/match`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ listingIds, fresh: true }),
    signal: AbortSignal.timeout(600_000),
  });
  const body = (await res.json()) as MatchAnswer;
  const http = performance.now() - t0;
  if (!res.ok) throw new Error(`match answered ${res.status}: ${JSON.stringify(body)}`);
  return { ...body, http };
}

/** The reference: each saved search's own /search statements on the SQLite file, one search at a time. */
function reference(saved: SavedRow[], newIds: string[]): { pairs: Set<string>; ms: number; queries: number } {
  const db = new DatabaseSync(d1File(STATE), { readOnly: true });
  const fresh = new Set(newIds);
  const owners = new Map(
    (db.prepare("SELECT id, user_id FROM listings").all() as { id: string; user_id: string }[]).map((r) => [r.id, r.user_id]),
  );
  const pairs = new Set<string>();
  let queries = 0;
  const t0 = performance.now();
  for (const s of saved) {
    const params = searchParamsSchema.parse(Object.fromEntries(new URLSearchParams(s.query)));
    // Every match among the newest listings: the search page's "Nyeste" order, one pass over all
    // matches newest first, as deep as there are new listings (they are the newest of all).
    const { rows } = buildSearchPlan({ ...params, sort: "newest", limit: newIds.length, offset: 0 });
    queries++;
    for (const row of db.prepare(rows.sql).all(...(rows.params as (string | number)[])) as { id: string }[]) {
      if (fresh.has(row.id) && owners.get(row.id) !== s.userId) pairs.add(`${s.id} ${row.id}`);
    }
  }
  const ms = performance.now() - t0;
  db.close();
  return { pairs, ms, queries };
}

function compare(name: string, found: Set<string>, expected: Set<string>): string {
  const missing = [...expected].filter((p) => !found.has(p));
  const extra = [...found].filter((p) => !expected.has(p));
  if (missing.length || extra.length) {
    console.error(
      `${name}: ${missing.length} missing, ${extra.length} extra, e.g. ${JSON.stringify([...missing.slice(0, 3), ...extra.slice(0, 3)])}`,
    );
    return `**differs** (${missing.length} missing, ${extra.length} extra)`;
  }
  return "identical";
}

async function main() {
  ensureBuild();
  const { newIds, saved } = populate();

  server.start();
  try {
    await server.waitUntilReady();
    await match(newIds.slice(0, 10)); // warm-up (isolate, statement caches)

    const batch = await match(newIds);
    const hundreds: Awaited<ReturnType<typeof match>>[] = [];
    for (let i = 0; i < newIds.length; i += 100) hundreds.push(await match(newIds.slice(i, i + 100)));
    const singles: Awaited<ReturnType<typeof match>>[] = [];
    const step = Math.max(1, Math.floor(newIds.length / SINGLE));
    for (let i = 0; i < newIds.length && singles.length < SINGLE; i += step) singles.push(await match([newIds[i]]));

    const ref = reference(saved, newIds);
    const pairSet = (answers: MatchAnswer[]) => new Set(answers.flatMap((a) => a.pairs.map(([s, l]) => `${s} ${l}`)));
    // The single runs cover every step-th new listing: compare with the reference's pairs of those.
    const sampled = new Set(newIds.filter((_, i) => i % step === 0).slice(0, SINGLE));
    const singleExpected = new Set([...ref.pairs].filter((p) => sampled.has(p.split(" ")[1])));

    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const rows = [
      {
        name: `one batch of ${newIds.length.toLocaleString("en")} (cron catch-up)`,
        worker: `${batch.ms} ms`,
        http: `${batch.http.toFixed(0)} ms`,
        statements: String(batch.statements),
        candidates: batch.candidates.toLocaleString("en"),
        texts: batch.textChecks.toLocaleString("en"),
        matches: batch.matches.toLocaleString("en"),
        check: compare("one batch", pairSet([batch]), ref.pairs),
      },
      {
        name: `${hundreds.length} batches of 100 (queue batches)`,
        worker: `${sum(hundreds.map((h) => h.ms))} ms total, ${percentile(
          hundreds.map((h) => h.ms),
          50,
        )} ms p50`,
        http: `${sum(hundreds.map((h) => h.http)).toFixed(0)} ms total`,
        statements: `${sum(hundreds.map((h) => h.statements))} (${Math.max(...hundreds.map((h) => h.statements))} per batch)`,
        candidates: `${percentile(
          hundreds.map((h) => h.candidates),
          50,
        ).toLocaleString("en")} p50`,
        texts: `${percentile(
          hundreds.map((h) => h.textChecks),
          50,
        ).toLocaleString("en")} p50`,
        matches: sum(hundreds.map((h) => h.matches)).toLocaleString("en"),
        check: compare("batches of 100", pairSet(hundreds), ref.pairs),
      },
      {
        name: `${singles.length} single listings (a quiet queue)`,
        worker: `${percentile(
          singles.map((s) => s.ms),
          50,
        )} ms p50, ${percentile(
          singles.map((s) => s.ms),
          95,
        )} ms p95`,
        http: `${percentile(
          singles.map((s) => s.http),
          50,
        ).toFixed(0)} ms p50`,
        statements: `${Math.max(...singles.map((s) => s.statements))} per listing at most`,
        candidates: `${percentile(
          singles.map((s) => s.candidates),
          50,
        ).toLocaleString("en")} p50`,
        texts: `${percentile(
          singles.map((s) => s.textChecks),
          50,
        ).toLocaleString("en")} p50`,
        matches: sum(singles.map((s) => s.matches)).toLocaleString("en"),
        check: compare("single listings", pairSet(singles), singleExpected),
      },
    ];
    const keyKinds = Object.entries(
      saved.reduce<Record<string, number>>((acc, s) => {
        const params = searchParamsSchema.parse(Object.fromEntries(new URLSearchParams(s.query)));
        const kind = indexKeys(matchSpec({ ...params, sort: null }))[0]?.split(":")[0] ?? "?";
        acc[kind] = (acc[kind] ?? 0) + 1;
        return acc;
      }, {}),
    )
      .sort((a, b) => b[1] - a[1])
      .map(
        ([k, n]) =>
          `${{ t: "text", c: "category", p: "postal prefix", $: "price bucket", a: "age", k: "condition", f: "free", b: "trade" }[k] ?? k} ${n.toLocaleString("en")}`,
      )
      .join(", ");

    const lines = [
      `# Saved-search matching benchmark`,
      ``,
      `${saved.length.toLocaleString("en")} saved searches × ${newIds.length.toLocaleString("en")} new listings (over ${BASE.toLocaleString("en")} older listings), ${new Date().toISOString().slice(0, 16)}Z, command: \`npm run bench:saved-searches\`.`,
      `The matcher runs inside the Worker (wrangler dev, local D1) through /api/dev/saved-searches/match; "Worker" is the time the Worker measured around the match (including inserting the matches), "HTTP" the round trip from the script.`,
      ``,
      `| run | Worker | HTTP | D1 statements | candidate searches | texts checked by FTS5 | matches | vs. brute force |`,
      `|---|---|---|---|---|---|---|---|`,
      ...rows.map(
        (r) => `| ${r.name} | ${r.worker} | ${r.http} | ${r.statements} | ${r.candidates} | ${r.texts} | ${r.matches} | ${r.check} |`,
      ),
      ``,
      `Brute-force reference: each saved search's own /search statements (\`buildSearchPlan\`, ${ref.queries.toLocaleString("en")} statements for ${saved.length.toLocaleString("en")} searches) directly on the SQLite file: ${(ref.ms / 1000).toFixed(1)} s, ${ref.pairs.size.toLocaleString("en")} matches.`,
      `Saved searches by index key: ${keyKinds}.`,
      ``,
    ];
    const text = lines.join("\n");
    console.log(`\n${text}`);
    mkdirSync(path.join(ROOT, "tests/bench/results"), { recursive: true });
    writeFileSync(path.join(ROOT, "tests/bench/results/saved-searches.md"), text);
    if (rows.some((r) => r.check !== "identical")) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
