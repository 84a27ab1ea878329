// GET /api/search: filters, paging, sort, Norwegian matching and hostile input.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createListing, createUser, deleteAllListings } from "../../factories";
import { RATE_RULES } from "../../../domain/rate-limits";
import { asVisitor, Client, errorOf } from "../support/http";
import { rateLimitRows, withinOneWindow } from "../support/rate-limits";

interface Result {
  rows: { id: string; title: string; price: number | null; search_rank: number; category: string }[];
  total: number;
  total_capped: boolean;
}

async function search(query: string): Promise<Result> {
  const res = await new Client().get(`/api/search?${query}`, asVisitor());
  expect(res.status, query).toBe(200);
  return (await res.json()) as Result;
}

const titles = (r: Result) => r.rows.map((row) => row.title);

beforeAll(async () => {
  await deleteAllListings();
  const seller = await createUser();
  const rows = [
    { title: "Lego Duplo båt", category: "lego", price: 150, ageRange: "0-2 år", conditionRating: 5, postalCode: "0150" },
    {
      title: "Bøker om dinosaurer",
      category: "annet",
      price: 80,
      ageRange: "6-8 år",
      conditionRating: 3,
      postalCode: "5003",
      description: "Fem bøker i god stand",
    },
    {
      title: "Ærlig talt ny sparkesykkel",
      category: "ute-lek",
      price: 400,
      ageRange: "9-12 år",
      conditionRating: 5,
      postalCode: "7010",
      isTradeOffer: true,
    },
    {
      title: "Legoklosser i stor boks",
      category: "lego",
      price: 600,
      ageRange: "6-8 år",
      conditionRating: 4,
      postalCode: "0150",
      isTradeOffer: true,
    },
    {
      title: "Dukkevogn",
      category: "dukker",
      price: null,
      isFree: true,
      ageRange: "3-5 år",
      conditionRating: 2,
      postalCode: "4006",
      description: "Passer til lego-figurer også",
    },
    { title: "Puslespill 1000 brikker", category: "puslespill", price: 120, ageRange: "12+ år", conditionRating: 4, postalCode: "9008" },
    { title: "Brettspill Ludo", category: "spill", price: 60, ageRange: "6-8 år", conditionRating: 3, postalCode: "0150" },
    { title: "Babygym med leker", category: "baby", price: null, isFree: true, ageRange: "0-2 år", conditionRating: 4, postalCode: "0151" },
    { title: "Skjult lego", category: "lego", price: 10, isHidden: true },
    { title: "Solgt lego", category: "lego", price: 10, status: "sold" as const },
  ];
  for (const r of rows) await createListing({ userId: seller.id, description: null, ...r });
  for (let i = 0; i < 60; i++) await createListing({ userId: seller.id, title: `Bil nummer ${i}`, category: "biler", price: i * 10 });
});

describe("search", () => {
  it.each([
    ["boker", "Bøker om dinosaurer"],
    ["bøker", "Bøker om dinosaurer"],
    ["bat", "Lego Duplo båt"],
    ["båt", "Lego Duplo båt"],
    ["aerlig", "Ærlig talt ny sparkesykkel"],
    ["ærlig", "Ærlig talt ny sparkesykkel"],
    ["ÆRLIG", "Ærlig talt ny sparkesykkel"],
    ["klosser", "Legoklosser i stor boks"],
    ["legokl", "Legoklosser i stor boks"],
    ["dino", "Bøker om dinosaurer"],
    ["lu", "Brettspill Ludo"],
  ])("%s finds %s", async (q, title) => {
    expect(titles(await search(`q=${encodeURIComponent(q)}`))).toContain(title);
  });

  it("requires every term and ranks a title hit over a description hit", async () => {
    const r = await search("q=lego");
    expect(titles(r)).toEqual(expect.arrayContaining(["Lego Duplo båt", "Legoklosser i stor boks", "Dukkevogn"]));
    expect(titles(r).indexOf("Dukkevogn")).toBe(r.rows.length - 1);
    expect(titles(r)).not.toContain("Skjult lego");
    expect(titles(r)).not.toContain("Solgt lego");
    // Tiers: 8 a whole title word, 7 the end of one, 6 the start of one, 5 inside a title word, 4–1
    // the stemmed title (decision 151), 0 description only.
    expect(r.rows.find((row) => row.title === "Lego Duplo båt")?.search_rank).toBe(8);
    expect(r.rows.find((row) => row.title === "Legoklosser i stor boks")?.search_rank).toBe(6);
    expect(r.rows.find((row) => row.title === "Dukkevogn")?.search_rank).toBe(0);
    expect((await search("q=klosser")).rows[0]).toMatchObject({ title: "Legoklosser i stor boks", search_rank: 7 });
    expect((await search("q=klos")).rows[0]).toMatchObject({ title: "Legoklosser i stor boks", search_rank: 5 });
    expect(titles(await search("q=lego+båt"))).toEqual(["Lego Duplo båt"]);
  });

  it("filters by category (old keys too), condition, age, trade and postal code", async () => {
    expect(titles(await search("categories=lego")).sort()).toEqual(["Lego Duplo båt", "Legoklosser i stor boks"]);
    expect(titles(await search("categories=dolls,puzzles")).sort()).toEqual(["Dukkevogn", "Puslespill 1000 brikker"]);
    expect(titles(await search("conditions=5")).sort()).toEqual(["Lego Duplo båt", "Ærlig talt ny sparkesykkel"]);
    expect(titles(await search(`ages=${encodeURIComponent("0-2 år")}`)).sort()).toEqual(["Babygym med leker", "Lego Duplo båt"]);
    expect(titles(await search("trade=true")).sort()).toEqual(["Legoklosser i stor boks", "Ærlig talt ny sparkesykkel"]);
    expect(titles(await search("postal=015&categories=lego,spill,baby")).sort()).toEqual([
      "Babygym med leker",
      "Brettspill Ludo",
      "Lego Duplo båt",
      "Legoklosser i stor boks",
    ]);
    // A prefix of any length, its last digit 9 too (the range's upper end), and a whole code.
    expect(titles(await search("postal=9"))).toEqual(["Puslespill 1000 brikker"]);
    expect(titles(await search("postal=5"))).toEqual(["Bøker om dinosaurer"]);
    expect(titles(await search("postal=0151"))).toEqual(["Babygym med leker"]);
    expect(titles(await search("q=lego&postal=0150")).sort()).toEqual(["Lego Duplo båt", "Legoklosser i stor boks"]);
    expect(titles(await search("postal=0159"))).toEqual([]);
  });

  it("reads the names every object has (valueOf, constructor, __proto__) as unknown filters, not as filters of their own", async () => {
    const all = titles(await search("")).sort();
    for (const name of ["valueOf", "toString", "constructor", "__proto__"])
      expect(titles(await search(`ages=${name}&categories=${name}`)).sort(), name).toEqual(all);
  });

  it("treats 0 and 10000 as no bound, and free-only ignores the price bounds", async () => {
    const all = await search("min=0&max=10000");
    expect(all.total).toBe(68);
    const range = await search("min=100&max=400&categories=lego,annet,ute-lek,puslespill");
    expect(titles(range).sort()).toEqual(["Lego Duplo båt", "Puslespill 1000 brikker", "Ærlig talt ny sparkesykkel"]);
    const free = await search("free=true&min=500&max=600");
    expect(titles(free).sort()).toEqual(["Babygym med leker", "Dukkevogn"]);
  });

  it("pages beyond the first 50 with a total count", async () => {
    const first = await search("categories=biler");
    expect(first.total).toBe(60);
    expect(first.rows).toHaveLength(50);
    const second = await search("categories=biler&offset=50");
    expect(second.rows).toHaveLength(10);
    expect(new Set([...first.rows, ...second.rows].map((r) => r.id)).size).toBe(60);
    const beyond = await search("categories=biler&offset=100");
    expect(beyond).toEqual({ rows: [], total: 60, total_capped: false, suggestion: null });
  });

  it("pages through text results across relevance tiers without repeats", async () => {
    const first = await search("q=bil&limit=7");
    const second = await search("q=bil&limit=7&offset=7");
    const ids = [...first.rows, ...second.rows].map((r) => r.id);
    expect(new Set(ids).size).toBe(14);
    expect(first.total).toBe(60);
    expect(first.total_capped).toBe(false);
  });

  it("counts free-text matches exactly up to 1000, then says there are more", async () => {
    const seller = await createUser();
    const insert = env.DB.prepare(
      `INSERT INTO listings (id, user_id, title, category, age_range, condition_rating, price, postal_code, seo_slug)
       VALUES (?1, ?2, ?3, 'annet', '6-8 år', 3, 10, '0150', ?4)`,
    );
    await env.DB.batch(
      Array.from({ length: 1001 }, (_, i) => {
        const id = crypto.randomUUID();
        return insert.bind(id, seller.id, `Kosebamse ${i}`, `kosebamse-${i}-${id.slice(0, 8)}`);
      }),
    );
    const capped = await search("q=kosebamse");
    expect(capped).toMatchObject({ total: 1000, total_capped: true });
    expect(capped.rows).toHaveLength(50);
    const exact = await search("q=kosebamse+999");
    expect(exact).toMatchObject({ total: 1, total_capped: false });
    await env.DB.prepare("DELETE FROM listings WHERE title LIKE 'Kosebamse %'").run();
  });

  it("estimates the total when the filters pass few of many text matches, and counts exactly otherwise", async () => {
    const seller = await createUser();
    const insert = env.DB.prepare(
      `INSERT INTO listings (id, user_id, title, category, age_range, condition_rating, price, postal_code, seo_slug, created_at)
       VALUES (?1, ?2, ?3, 'ute-lek', '6-8 år', 3, 10, ?4, ?5, ?6)`,
    );
    // 2,500 scooters, one in ten in Tromsø (9008): more text matches than a count checks (1,000).
    const start = Date.parse("2026-01-01T00:00:00Z");
    await env.DB.batch(
      Array.from({ length: 2500 }, (_, i) => {
        const id = crypto.randomUUID();
        const postal = i % 10 === 0 ? "9008" : "0150";
        return insert.bind(
          id,
          seller.id,
          `Sparkesykkel ${i}`,
          postal,
          `sparkesykkel-${i}-${id.slice(0, 8)}`,
          new Date(start + i * 60_000).toISOString(),
        );
      }),
    );
    const estimated = await search("q=sparkesykkel&postal=9008");
    expect(estimated.rows).toHaveLength(50);
    expect(estimated.total_capped).toBe(true);
    // 250 in truth; 100 among the newest 1,000 scooters, which span about two fifths of the rids.
    expect(estimated.total).toBeGreaterThanOrEqual(220);
    expect(estimated.total).toBeLessThanOrEqual(280);
    expect(estimated.total % 10).toBe(0);
    // Exact: all matches found by the page (fewer than it holds), or no text match beyond the counted ones.
    expect(await search("q=sparkesykkel+2499&postal=9008")).toMatchObject({ total: 0, total_capped: false });
    expect(await search("q=sparkesykkel+249")).toMatchObject({ total: 13, total_capped: false });
    // 611 text matches (numbers starting with 2), all checked: 61 of them in Tromsø, exactly.
    expect(await search("q=sparkesykkel+2&postal=9008")).toMatchObject({ total: 61, total_capped: false });
    expect(await search("q=sparkesykkel&postal=0150")).toMatchObject({ total: 1000, total_capped: true });
    await env.DB.prepare("DELETE FROM listings WHERE title LIKE 'Sparkesykkel %'").run();
  });

  it("sorts by price both ways and by newest", async () => {
    const up = await search("categories=biler&sort=price_asc&limit=3");
    expect(up.rows.map((r) => r.price)).toEqual([0, 10, 20]);
    const down = await search("categories=biler&sort=price_desc&limit=3");
    expect(down.rows.map((r) => r.price)).toEqual([590, 580, 570]);
    const newest = await search("categories=biler&sort=newest&limit=1");
    expect(newest.rows[0].title).toBe("Bil nummer 59");
  });

  it("answers 200 hostile query strings without a 5xx", async () => {
    const fixed = [
      '"',
      '""',
      "'",
      "*",
      "**",
      "lego*",
      "NEAR",
      "NEAR(lego båt)",
      "lego AND",
      "OR",
      "NOT lego",
      "lego NOT båt",
      "title:lego",
      "description:x",
      "{title}:lego",
      "(",
      ")",
      "((lego)",
      "^lego",
      "-",
      "+",
      ":",
      ";",
      "\\",
      "%",
      "_",
      "%_%",
      "' OR 1=1 --",
      "'; DROP TABLE listings; --",
      "\u0000",
      "😀",
      "🧸 lego",
      "a".repeat(500),
      "ø",
      "æøå",
      "ÆØÅ",
      '"lego" "båt"',
      'lego"båt',
      "l",
      "le",
      "NEAR/2",
      "lego NEAR/2 båt",
      "*lego",
      "lego^",
      "\t\n",
      "🙂🙃",
      "<script>",
      "%00",
      "..",
      "$",
      "@",
      "#",
    ];
    const generated = fc.sample(fc.string({ unit: "binary", maxLength: 40 }), { numRuns: 200 - fixed.length, seed: 42 });
    const queries = [...fixed, ...generated];
    expect(queries.length).toBe(200);
    for (const q of queries) {
      const res = await new Client().get(
        `/api/search?q=${encodeURIComponent(q)}&categories=${encodeURIComponent(q)}&min=${encodeURIComponent(q)}`,
        asVisitor(),
      );
      expect(res.status, JSON.stringify(q)).toBeLessThan(500);
    }
    // 200 requests one after another: seconds of work, with room for the other test files beside it.
  }, 60_000);
});

describe("the per-address limit (Rate Limiting binding, decision 010)", () => {
  it("answers 120 searches a minute from one address, refuses the next with 429 and Retry-After, writes no rate-limit row; answers from the edge cache are not counted", async () => {
    const rule = RATE_RULES.searchAddress;
    const from = asVisitor();
    const cached = "/api/search?q=lego&sort=price_desc";
    // An answer the edge cache holds (stored by another visitor's search).
    expect((await new Client().get(cached, asVisitor())).headers.get("X-Edge-Cache")).toBe("MISS");
    const rows = await rateLimitRows();
    await withinOneWindow(rule, 15_000);
    // A scraper's walk: every query a new one, so none comes from the edge cache.
    for (let i = 0; i < rule.limit; i++) {
      const res = await new Client().get(`/api/search?q=lego&min=${i + 1}`, from);
      expect([res.status, res.headers.get("X-Edge-Cache")], `search ${i + 1}`).toEqual([200, "MISS"]);
    }
    const refused = await new Client().get("/api/search?q=dukkevogn", from);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe(String(rule.periodSeconds));
    expect((await errorOf(refused)).message).toBe("For mange forsøk. Vent litt og prøv igjen.");
    // A 429 is never stored: the next visitor with that query gets the results.
    const next = await new Client().get("/api/search?q=dukkevogn", asVisitor());
    expect([next.status, next.headers.get("X-Edge-Cache")]).toEqual([200, "MISS"]);
    // What the edge cache answers costs D1 nothing, so the limited address still gets it.
    const hit = await new Client().get(cached, from);
    expect([hit.status, hit.headers.get("X-Edge-Cache")]).toEqual([200, "HIT"]);
    expect(await rateLimitRows()).toBe(rows);
  }, 60_000);

  it("counts the search page's own search: over the limit the page comes without results, private, and nothing is stored for others", async () => {
    const rule = RATE_RULES.searchAddress;
    const from = asVisitor();
    await withinOneWindow(rule, 15_000);
    // Pages and API calls share the address's allowance.
    for (let i = 0; i < rule.limit; i++) {
      const path = i % 2 === 0 ? `/search?q=lego&min=${i + 1}` : `/api/search?q=lego&min=${i + 1}`;
      const res = await new Client().get(path, from);
      expect([res.status, res.headers.get("X-Edge-Cache")], path).toEqual([200, "MISS"]);
      await res.body?.cancel();
    }
    expect((await new Client().get("/api/search?q=bamse", from)).status).toBe(429);
    const page = await new Client().get("/search?q=bamse", from);
    const html = await page.text();
    expect([page.status, page.headers.get("Cache-Control"), page.headers.get("X-Edge-Cache")]).toEqual([
      200,
      "private, no-store",
      "BYPASS",
    ]);
    const preloaded = JSON.parse(html.match(/<script id="preloaded-api" type="application\/json">([\s\S]*?)<\/script>/)![1]) as Record<
      string,
      unknown
    >;
    expect(Object.keys(preloaded).filter((k) => k.startsWith("/api/search"))).toEqual([]);
    // Another visitor gets the page with its results, from D1, and it is stored.
    const other = await new Client().get("/search?q=bamse", asVisitor());
    const otherHtml = await other.text();
    expect([other.status, other.headers.get("X-Edge-Cache")]).toEqual([200, "MISS"]);
    expect(otherHtml).toMatch(/"\/api\/search\?[^"]*q=bamse/);
  }, 60_000);
});
