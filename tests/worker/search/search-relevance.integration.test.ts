// Graded relevance: 271 queries a parent would type, each with graded judgements
// (fixtures/search-judgements.ts and, for plurals, definite forms, compounds, typos and everyday
// words, fixtures/search-judgements-language.ts) over the fixed corpus in fixtures/search-corpus.ts, scored with
// nDCG@10 for our search (GET /api/search, the production service) and for the prototype's approach
// (title or description ILIKE '%q%', newest first), on the same data. A failing threshold is a
// ranking problem to fix in the search service, not a judgement to loosen.
//
// The test prints the report; `npm run bench:relevance` writes it to tests/bench/results/relevance.md.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createListing, createUser, deleteAllListings } from "../../factories";
import { CORPUS } from "../fixtures/search-corpus";
import { asVisitor, Client } from "../support/http";
import { type Grades, type Group, JUDGED as FIRST_PART } from "../fixtures/search-judgements";
import { LANGUAGE_GROUPS, LANGUAGE_JUDGED, REPORT_ONLY_GROUPS } from "../fixtures/search-judgements-language";

const K = 10;
const JUDGED = [...FIRST_PART, ...LANGUAGE_JUDGED];
/**
 * Mean nDCG@10 our search must reach on the asserted groups (all but REPORT_ONLY_GROUPS: every group
 * since decision 151), and by how much it must beat the LIKE approach's mean there (measured 0.901
 * against 0.523 on all 271 queries; the first part's 195: 0.914 against 0.674:
 * tests/bench/results/relevance.md). The corpus and its order are fixed, so the figures are exact.
 * Built one rule at a time (decision 151): 0.650 before, 0.752 with inflection, 0.781 with
 * compounds, 0.845 with typos, 0.901 with everyday words; without the stemmer (everything else on)
 * 0.824. Dropping the query's æ/ø/å folding or the title tiers costs more still (decision 044).
 */
const MIN_NDCG = 0.9;
const MIN_LEAD = 0.37;

/** DCG@k with the usual gain 2^grade − 1 and discount log2(position + 1). */
function dcg(grades: number[]): number {
  return grades.slice(0, K).reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
}

function ndcg(ranked: string[], grades: Grades): number {
  const ideal = dcg(Object.values(grades).sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(ranked.map((key) => grades[key] ?? 0)) / ideal;
}

const idToKey = new Map<string, string>();

/** Our search: the production endpoint, first page. */
async function ours(q: string): Promise<string[]> {
  const res = await new Client().get(`/api/search?q=${encodeURIComponent(q)}`, asVisitor());
  expect(res.status, q).toBe(200);
  const { rows } = (await res.json()) as { rows: { id: string }[] };
  return rows.map((r) => idToKey.get(r.id) ?? r.id);
}

/**
 * The prototype's approach: title or description ILIKE '%q%', active and public, newest first. SQLite's
 * LIKE folds ASCII case only, so the Norwegian capitals are lowered before comparing (as ILIKE would).
 */
async function likeApproach(q: string): Promise<string[]> {
  const lower = (col: string) => `replace(replace(replace(${col}, 'Æ', 'æ'), 'Ø', 'ø'), 'Å', 'å')`;
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { results } = await env.DB.prepare(
    `SELECT id FROM listings WHERE status = 'active' AND is_hidden = 0
       AND (${lower("title")} LIKE ?1 ESCAPE '\\' OR ${lower("coalesce(description, '')")} LIKE ?1 ESCAPE '\\')
     ORDER BY created_at DESC LIMIT 50`,
  )
    .bind(pattern)
    .all<{ id: string }>();
  return results.map((r) => idToKey.get(r.id) ?? r.id);
}

/** A fixed shuffle (FNV-1a of the key), so creation order — and with it "newest first" — favours no topic. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

beforeAll(async () => {
  await deleteAllListings();
  const seller = await createUser({ displayName: "Korpus" });
  const ordered = [...CORPUS].sort((a, b) => hash(a.key) - hash(b.key));
  const start = Date.parse("2026-09-01T08:00:00Z");
  for (const [i, item] of ordered.entries()) {
    const row = await createListing({
      userId: seller.id,
      title: item.title,
      description: item.description,
      category: item.category,
      ageRange: item.age,
      conditionRating: 1 + (hash(item.key) % 5),
      price: 50 + (hash(item.key) % 40) * 25,
      createdAt: new Date(start + i * 37 * 60_000).toISOString(),
    });
    idToKey.set(row.id, item.key);
  }
});

interface Scored {
  q: string;
  group: Group;
  ours: number;
  like: number;
  top: string[];
}

describe("graded relevance: nDCG@10 on a fixed Norwegian corpus", () => {
  it("has at least 150 distinct queries, each judging listings of the corpus with at least one grade ≥ 2", () => {
    expect(FIRST_PART.length).toBeGreaterThanOrEqual(150);
    expect(LANGUAGE_JUDGED.length).toBeGreaterThanOrEqual(60);
    for (const j of LANGUAGE_JUDGED) expect(LANGUAGE_GROUPS, j.q).toContain(j.group);
    expect(new Set(JUDGED.map((j) => j.q)).size).toBe(JUDGED.length);
    const keys = new Set(CORPUS.map((l) => l.key));
    expect(keys.size).toBe(CORPUS.length);
    for (const j of JUDGED) {
      for (const key of Object.keys(j.grades)) expect(keys, `${j.q}: ${key}`).toContain(key);
      expect(Math.max(...Object.values(j.grades)), j.q).toBeGreaterThanOrEqual(2);
    }
  });

  it(`scores our search at nDCG@10 ≥ ${MIN_NDCG} and at least ${MIN_LEAD} above the LIKE approach (asserted groups)`, async () => {
    const scored: Scored[] = [];
    for (const j of JUDGED) {
      const top = await ours(j.q);
      scored.push({
        q: j.q,
        group: j.group,
        ours: ndcg(top, j.grades),
        like: ndcg(await likeApproach(j.q), j.grades),
        top: top.slice(0, 3),
      });
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const asserted = scored.filter((s) => !REPORT_ONLY_GROUPS.has(s.group));
    const oursMean = mean(asserted.map((s) => s.ours));
    const likeMean = mean(asserted.map((s) => s.like));
    const groups = [...new Set(scored.map((s) => s.group))].map((group) => {
      const g = scored.filter((s) => s.group === group);
      const reportOnly = REPORT_ONLY_GROUPS.has(group);
      return { group, queries: g.length, ours: mean(g.map((s) => s.ours)), like: mean(g.map((s) => s.like)), reportOnly };
    });
    const report = {
      // The whole set, report-only groups included (the figure search is to raise).
      queries: scored.length,
      listings: CORPUS.length,
      ours: mean(scored.map((s) => s.ours)),
      like: mean(scored.map((s) => s.like)),
      // What the thresholds hold.
      asserted: { queries: asserted.length, ours: oursMean, like: likeMean },
      better: scored.filter((s) => s.ours > s.like + 1e-9).length,
      worse: scored.filter((s) => s.ours < s.like - 1e-9).length,
      groups,
      perQuery: scored,
    };
    // The marker line is what `npm run bench:relevance` reads.
    console.log(`RELEVANCE_REPORT ${JSON.stringify(report)}`);
    const f = (x: number) => x.toFixed(3);
    const worst = [...asserted].sort((a, b) => a.ours - b.ours).slice(0, 12);
    const detail = worst.map((s) => `${s.q}: ${f(s.ours)} (LIKE ${f(s.like)}) top: ${s.top.join(", ")}`).join("\n");
    expect(oursMean, `nDCG@10 ours ${f(oursMean)} vs LIKE ${f(likeMean)}; lowest:\n${detail}`).toBeGreaterThanOrEqual(MIN_NDCG);
    expect(oursMean - likeMean, `nDCG@10 ours ${f(oursMean)} vs LIKE ${f(likeMean)}`).toBeGreaterThanOrEqual(MIN_LEAD);
    // Our search must not lose to a substring scan on any asserted group.
    for (const g of groups.filter((x) => !x.reportOnly))
      expect(g.ours, `${g.group}: ours ${f(g.ours)} vs LIKE ${f(g.like)}`).toBeGreaterThanOrEqual(g.like);
    // 542 searches one after another (ours and the LIKE approach per query): room for a busy machine.
  }, 180_000);
});
