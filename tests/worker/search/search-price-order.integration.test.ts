// GET /api/search ordered by price with text: a common word walks the price index, a rarer one (or
// one with a filter besides price) sorts its matches (worker/features/search/price-order.ts); both
// give the order a full sort would.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../factories";
import { PRICE_WALK_FROM } from "../../../worker/features/search/price-order";
import { asVisitor, Client } from "../support/http";

interface Result {
  rows: { title: string; price: number | null }[];
}

async function search(query: string): Promise<string[]> {
  const res = await new Client().get(`/api/search?${query}`, asVisitor());
  expect(res.status, query).toBe(200);
  return ((await res.json()) as Result).rows.map((r) => r.title);
}

/** 2,100 rocking horses: prices with many ties, one in 97 free, some red, some in Tromsø, some toys of another category. */
const HORSES = Array.from({ length: 2100 }, (_, i) => ({
  i,
  title: i % 20 === 0 ? `Gyngehest rød nr ${i}` : `Gyngehest nr ${i}`,
  price: i % 97 === 0 ? null : ((i * 37) % 400) * 5,
  postal: i % 10 === 0 ? "9008" : "0150",
  category: i % 3 === 0 ? "baby" : "annet",
}));

/** The full sort: price (free as 0) one way, newest (the higher number) first among equal prices. */
function expected(filter: (h: (typeof HORSES)[number]) => boolean, direction: 1 | -1, offset = 0): string[] {
  return HORSES.filter(filter)
    .sort((a, b) => direction * ((a.price ?? 0) - (b.price ?? 0)) || b.i - a.i)
    .slice(offset, offset + 50)
    .map((h) => h.title);
}

describe("a text search ordered by price", () => {
  beforeAll(async () => {
    const seller = await createUser();
    const insert = env.DB.prepare(
      `INSERT INTO listings (id, user_id, title, category, age_range, condition_rating, price, is_free, postal_code, seo_slug, created_at)
       VALUES (?1, ?2, ?3, ?4, '0-2 år', 3, ?5, ?6, ?7, ?8, ?9)`,
    );
    const start = Date.parse("2026-01-01T00:00:00Z");
    await env.DB.batch(
      HORSES.map((h) => {
        const id = crypto.randomUUID();
        const at = new Date(start + h.i * 60_000).toISOString();
        return insert.bind(
          id,
          seller.id,
          h.title,
          h.category,
          h.price,
          h.price === null ? 1 : 0,
          h.postal,
          `gyngehest-${h.i}-${id.slice(0, 8)}`,
          at,
        );
      }),
    );
    // Not public: the cheapest of all, never shown.
    await env.DB.prepare(
      `INSERT INTO listings (id, user_id, title, category, age_range, condition_rating, price, postal_code, seo_slug, status)
       VALUES (?1, ?2, 'Gyngehest solgt', 'annet', '0-2 år', 3, 0, '0150', 'gyngehest-solgt', 'sold')`,
    )
      .bind(crypto.randomUUID(), seller.id)
      .run();
  }, 120_000);

  it("walks the price index for a common word (alone or in a price range), sorts it with another filter: the same pages as a full sort", async () => {
    expect(HORSES.length).toBeGreaterThan(PRICE_WALK_FROM);
    const all = () => true;
    expect(await search("q=gyngehest&sort=price_asc")).toEqual(expected(all, 1));
    expect(await search("q=gyngehest&sort=price_asc&offset=50")).toEqual(expected(all, 1, 50));
    expect(await search("q=gyngehest&sort=price_desc")).toEqual(expected(all, -1));
    expect(await search("q=gyngehest&sort=price_desc&min=100&max=600")).toEqual(
      expected((h) => h.price !== null && h.price >= 100 && h.price <= 600, -1),
    );
    expect(await search("q=gyngehest&sort=price_asc&postal=9008&min=100&max=600")).toEqual(
      expected((h) => h.postal === "9008" && h.price !== null && h.price >= 100 && h.price <= 600, 1),
    );
    expect(await search("q=gyngehest&sort=price_desc&categories=baby")).toEqual(expected((h) => h.category === "baby", -1));
  });

  it("sorts the matches of a rarer word: the same order", async () => {
    const red = (h: (typeof HORSES)[number]) => h.title.includes("rød");
    expect(HORSES.filter(red).length).toBeLessThan(PRICE_WALK_FROM);
    expect(await search("q=gyngehest+rød&sort=price_asc")).toEqual(expected(red, 1));
    expect(await search("q=gyngehest+rød&sort=price_desc&offset=50")).toEqual(expected(red, -1, 50));
  });
});
