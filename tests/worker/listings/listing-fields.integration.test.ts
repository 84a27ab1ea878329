// Every declared listing field (domain/listing-fields.ts), end to end through the API: stored as
// written (a suggestion's own spelling), refused with its message when too long, shown on the
// listing, found by the search's text as a title word, filtered on, and kept in step by an edit.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listingAttributes } from "../../../domain/listing-fields";
import { asVisitor, Client, errorOf } from "../support/http";
import { form, signedIn, uploadKey } from "../support/listings";
import { synonymsOf } from "../../../domain/search-language";
import { foldNorwegian } from "../../../domain/search";

interface Found {
  rows: { id: string; search_rank: number }[];
  total: number;
}

const search = async (query: string): Promise<Found> => {
  const res = await new Client().get(`/api/search?${query}`, asVisitor());
  expect(res.status).toBe(200);
  return (await res.json()) as Found;
};

/** A word no other test's listing has, so a search finds only this test's listings. */
const uniqueWord = () => `zq${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;

describe("the declared fields in D1", () => {
  it("each is a column of listings, and of listing_search_map with its filter's index", async () => {
    const columns = async (table: string) =>
      (await env.DB.prepare(`SELECT name FROM pragma_table_info('${table}')`).all<{ name: string }>()).results.map((c) => c.name);
    const indexes = (await env.DB.prepare("SELECT name FROM pragma_index_list('listing_search_map')").all<{ name: string }>()).results.map(
      (i) => i.name,
    );
    const keys = listingAttributes().map((a) => a.key);
    expect(await columns("listings")).toEqual(expect.arrayContaining(keys));
    expect(await columns("listing_search_map")).toEqual(expect.arrayContaining(keys));
    expect(indexes).toEqual(expect.arrayContaining(keys.map((k) => `listing_search_public_${k}_idx`)));
  });
});

describe.each(listingAttributes().map((a) => ({ ...a, name: a.label })))("the declared field $name", (field) => {
  // Two suggestions search does not take for one another (an everyday word: "lego" finds "Duplo", decision 151).
  const [first, second] = field.suggestions.filter((s) => synonymsOf(foldNorwegian(s)).length === 0);

  it("is stored as the suggestion it folds to, returned on the listing, and null when left empty", async () => {
    const { client } = await signedIn();
    const res = await client.post("/api/listings", form([await uploadKey(client)], { [field.key]: `  ${first.toUpperCase()}  ` }));
    expect(res.status).toBe(201);
    const created = (await res.json()) as Record<string, unknown> & { id: string };
    expect(created[field.key]).toBe(first);
    const shown = (await (await new Client().get(`/api/listings/${created.id}`)).json()) as Record<string, unknown>;
    expect(shown[field.key]).toBe(first);
    const own = (await (await client.get(`/api/me/listings/${created.id}`)).json()) as Record<string, unknown>;
    expect(own[field.key]).toBe(first);

    const empty = await client.post("/api/listings", form([await uploadKey(client)], { [field.key]: "   " }));
    expect(((await empty.json()) as Record<string, unknown>)[field.key]).toBeNull();
  });

  it("keeps free text that is no suggestion as written", async () => {
    const { client } = await signedIn();
    const res = await client.post("/api/listings", form([await uploadKey(client)], { [field.key]: "Bestemors  verksted" }));
    expect(((await res.json()) as Record<string, unknown>)[field.key]).toBe("Bestemors verksted");
  });

  it("refuses text over its length and a value that is no text with 400, its Norwegian message, and stores nothing", async () => {
    const { client, user } = await signedIn();
    const key = await uploadKey(client);
    const long = await client.post("/api/listings", form([key], { [field.key]: "x".repeat(field.maxLength + 1) }));
    expect(long.status).toBe(400);
    expect((await errorOf(long)).fields?.[field.key]).toBe(field.tooLong);
    const number = await client.post("/api/listings", form([key], { [field.key]: 42 }));
    expect(number.status).toBe(400);
    expect((await errorOf(number)).fields?.[field.key]).toBe(`${field.label} må være tekst`);
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM listings WHERE user_id = ?1").bind(user.id).first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it("is found by the search's text as a word of the title, and filters, folded", async () => {
    const { client } = await signedIn();
    const word = uniqueWord();
    const make = async (value: string | null) => {
      const res = await client.post("/api/listings", form([await uploadKey(client)], { title: `Togbane ${word}`, [field.key]: value }));
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const withFirst = await make(first);
    const withSecond = await make(second);
    const without = await make(null);

    // The title says neither value: the field's text is what the search finds, ranked as a title word.
    const byText = await search(`q=${encodeURIComponent(`${word} ${first}`)}`);
    expect(byText.rows.map((r) => r.id)).toEqual([withFirst]);
    expect(byText.rows[0].search_rank).toBe(8);

    const filtered = await search(`q=${word}&${field.key}=${encodeURIComponent(first.toLowerCase())}`);
    expect(filtered.rows.map((r) => r.id)).toEqual([withFirst]);
    expect(filtered.total).toBe(1);
    const all = await search(`q=${word}`);
    expect(new Set(all.rows.map((r) => r.id))).toEqual(new Set([withFirst, withSecond, without]));
  });

  it("follows an edit: the filter and the text find the new value, not the old, and nothing once cleared", async () => {
    const { client } = await signedIn();
    const word = uniqueWord();
    const images = [await uploadKey(client)];
    const created = (await (await client.post("/api/listings", form(images, { title: `Bil ${word}`, [field.key]: first }))).json()) as {
      id: string;
    };
    const edit = (value: string) =>
      client.request(`/api/listings/${created.id}`, { method: "PUT", json: form(images, { title: `Bil ${word}`, [field.key]: value }) });
    expect((await edit(second)).status).toBe(200);
    expect((await search(`q=${word}&${field.key}=${encodeURIComponent(second)}`)).rows.map((r) => r.id)).toEqual([created.id]);
    expect((await search(`q=${word}&${field.key}=${encodeURIComponent(first)}`)).rows).toEqual([]);
    expect((await search(`q=${encodeURIComponent(`${word} ${first}`)}`)).rows).toEqual([]);
    expect((await search(`q=${encodeURIComponent(`${word} ${second}`)}`)).rows.map((r) => r.id)).toEqual([created.id]);

    expect((await edit("")).status).toBe(200);
    expect((await search(`q=${word}&${field.key}=${encodeURIComponent(second)}`)).rows).toEqual([]);
  });
});
