// Relevance report: runs the graded relevance test (tests/worker/search-relevance.integration
// .test.ts: 271 queries over a fixed corpus of 204 listings, nDCG@10 of our search through the Worker
// against the prototype's ILIKE '%q%' approach on the same data), and writes what it measured to
// tests/bench/results/relevance.md. The test itself holds the thresholds; this only reports.
// Run: npm run bench:relevance
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TEST = "tests/worker/search/search-relevance.integration.test.ts";

interface Scored {
  q: string;
  group: string;
  ours: number;
  like: number;
  top: string[];
}
interface Report {
  queries: number;
  listings: number;
  ours: number;
  like: number;
  asserted: { queries: number; ours: number; like: number };
  better: number;
  worse: number;
  groups: { group: string; queries: number; ours: number; like: number; reportOnly: boolean }[];
  perQuery: Scored[];
}

const run = spawnSync("vitest", ["run", "--config", "vitest.worker.config.mts", TEST], {
  cwd: ROOT,
  encoding: "utf8",
  env: { ...process.env, CI: "true", NO_COLOR: "1" },
  maxBuffer: 64 * 1024 * 1024,
});
const line = `${run.stdout}\n${run.stderr}`.split("\n").find((l) => l.startsWith("RELEVANCE_REPORT "));
if (!line) {
  console.error(run.stdout, run.stderr);
  throw new Error("the relevance test printed no report");
}
const r = JSON.parse(line.slice("RELEVANCE_REPORT ".length)) as Report;
const f = (x: number) => x.toFixed(3);
const GROUPS: Record<string, string> = {
  brand: "brands and product lines (Lego Duplo, Brio, Playmobil, …)",
  compound: "compound words (lekebil, dukkevogn, togbane, …)",
  folding: "typed without æ/ø/å or split (boker, tog bane, …)",
  plural: "singular and plural (bamser, sykler, …)",
  typo: "real typos (sparkesykel, playmobill, …)",
  age: "ages (1 år, treåring, baby, …)",
  synonym: "synonyms the search does not know (lekehus, radiostyrt, …)",
  phrase: "several words (fjernstyrt bil, ski 100 cm, …)",
  word: "other single words",
  "plural-forms": "plural forms (dukker, traktorer, gravemaskiner, …)",
  "definite-forms": "definite forms (dukken, sykkelen, togbanen, …)",
  "compound-parts": "compounds both ways (dinosaurbok, bil, leke kjøkken, …)",
  "typo-edits": "typos by one or two edits (lgeo, dulpo, brannbll, …)",
  "everyday-words": "everyday words (tøydyr, klosser, vogn, hotwheels, …)",
};
const lines = [
  `# Search relevance: nDCG@10`,
  ``,
  `${r.queries} Norwegian queries with graded judgements (0–3) over a fixed corpus of ${r.listings} listings,`,
  `${new Date().toISOString().slice(0, 16)}Z, command: \`npm run bench:relevance\` (runs \`${TEST}\`, which also asserts the thresholds).`,
  ``,
  `| approach | mean nDCG@10 |`,
  `|---|---|`,
  `| our search (GET /api/search, the production service) | ${f(r.ours)} |`,
  `| the prototype's approach: title or description ILIKE '%q%', newest first | ${f(r.like)} |`,
  ``,
  `The test's thresholds hold the ${r.asserted.queries} queries of the groups not marked report-only: ours ${f(r.asserted.ours)}, LIKE ${f(r.asserted.like)}.`,
  `The first ${r.queries - 76} queries are the set's first part (search-judgements.ts); the 76 after them, of the groups below "other single words", were written before search learned plurals, definite forms, compounds, typos and everyday words (decision 151).`,
  ``,
  `Our search is better on ${r.better} queries, worse on ${r.worse}, equal on ${r.queries - r.better - r.worse}.`,
  ``,
  `| group | queries | ours | LIKE |`,
  `|---|---|---|---|`,
  ...r.groups.map(
    (g) => `| ${GROUPS[g.group] ?? g.group}${g.reportOnly ? " (report-only)" : ""} | ${g.queries} | ${f(g.ours)} | ${f(g.like)} |`,
  ),
  ``,
  `## Every query`,
  ``,
  `| query | group | ours | LIKE | our top 3 (corpus keys) |`,
  `|---|---|---|---|---|`,
  ...r.perQuery.map((s) => `| \`${s.q}\` | ${s.group} | ${f(s.ours)} | ${f(s.like)} | ${s.top.join(", ")} |`),
  ``,
];
mkdirSync(path.join(ROOT, "tests/bench/results"), { recursive: true });
writeFileSync(path.join(ROOT, "tests/bench/results/relevance.md"), lines.join("\n"));
console.log(lines.slice(0, 30).join("\n"));
if (run.status !== 0) {
  console.error("\nThe relevance test failed (thresholds): see the output of", TEST);
  process.exit(run.status ?? 1);
}
