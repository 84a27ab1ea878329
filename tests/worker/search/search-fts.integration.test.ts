// FTS5 through D1 (foundation issue): the folded-copy triggers of migrations/0001 and the search
// service (worker/features/search/search.ts) as production runs it, on the real local D1.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { isListedListing } from "../../../domain/listing-lifecycle";
import { searchParamsSchema } from "../../../domain/schemas/search";
import { LISTING_STATUSES } from "../../../domain/taxonomy";
import { searchListings } from "../../../worker/features/search/search";
import { createListing, createUser } from "../../factories";

/** Listing ids the search service returns for `q`, in its order (relevance tiers, newest first). */
async function search(q: string) {
  return (await searchListings(env.DB, searchParamsSchema.parse({ q }))).rows;
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("FTS5 search index", () => {
  it("finds ø-words with or without the ø (boker / bøker)", async () => {
    const books = await createListing({ title: "Bøker om dinosaurer", description: "Tre faktabøker" });
    const other = await createListing({ title: "Dukkevogn", description: "Rosa" });
    for (const q of ["boker", "bøker", "Bøker", "BOKER"]) {
      const found = ids(await search(q));
      expect(found, q).toContain(books.id);
      expect(found, q).not.toContain(other.id);
    }
  });

  it("finds å-words without the ring (bat → båt)", async () => {
    const boat = await createListing({ title: "Rød båt til badekaret" });
    expect(ids(await search("bat"))).toContain(boat.id);
    expect(ids(await search("båt"))).toContain(boat.id);
  });

  it("finds æ-words as ae (aerlig / ærlig)", async () => {
    const honest = await createListing({ title: "Ærlig talt et flott brettspill" });
    expect(ids(await search("aerlig"))).toContain(honest.id);
    expect(ids(await search("ærlig"))).toContain(honest.id);
    expect(ids(await search("Ærlig"))).toContain(honest.id);
  });

  it("keyboard spellings meet the letters both ways: boeker ↔ bøker, haakon ↔ håkon, in titles, descriptions and edits", async () => {
    const typed = await createListing({ title: "Gamle BOEKER fra Haakon", description: "Moebler til dukkehuset" });
    const written = await createListing({ title: "Bøker om hester", description: "Fra Håkon" });
    for (const q of ["bøker", "boeker", "boker", "Bøker", "BOEKER", "bø", "boe"]) {
      const found = ids(await search(q));
      expect(found, q).toContain(typed.id);
      expect(found, q).toContain(written.id);
    }
    for (const q of ["håkon", "haakon", "hakon", "HÅKON"]) {
      const found = ids(await search(q));
      expect(found, q).toContain(typed.id);
      expect(found, q).toContain(written.id);
    }
    expect(ids(await search("møbler"))).toContain(typed.id);
    // The title tiers (title-only index) fold the same way: a title hit ranks above a description hit.
    expect((await search("håkon")).find((r) => r.id === typed.id)?.search_rank).toBeGreaterThan(0);
    // An edit is indexed with the same fold.
    await env.DB.prepare("UPDATE listings SET title = ?1 WHERE id = ?2").bind("Blaabaerplukker", typed.id).run();
    expect(ids(await search("blåbærplukker"))).toContain(typed.id);
  });

  it("a real oe/aa/ae in a word still finds that word (Saab, Joel, Michael)", async () => {
    const car = await createListing({ title: "Saab lekebil fra Joel", description: "Michael sin gamle bil" });
    for (const q of ["saab", "SAAB", "joel", "michael", "saab joel"]) expect(ids(await search(q)), q).toContain(car.id);
  });

  it("matches word prefixes of one or two letters (le → Legoklosser)", async () => {
    const bricks = await createListing({ title: "Legoklosser i boks" });
    expect(ids(await search("le"))).toContain(bricks.id);
    expect(ids(await search("lego"))).toContain(bricks.id);
    // Short terms are word prefixes only: "go" starts no word of the title.
    expect(ids(await search("go"))).not.toContain(bricks.id);
  });

  it("matches substrings inside compound words with the trigram index (klosser → Legoklosser)", async () => {
    const bricks = await createListing({ title: "Legoklosser, 2 kg" });
    expect(ids(await search("klosser"))).toContain(bricks.id);
    // Folded text is indexed in the trigram table too.
    const boat = await createListing({ title: "Seilbåtmodell" });
    expect(ids(await search("batmod"))).toContain(boat.id);
  });

  it("re-indexes a listing when its title changes", async () => {
    const listing = await createListing({ title: "Gammel sparkesykkel" });
    expect(ids(await search("sparkesykkel"))).toContain(listing.id);

    await env.DB.prepare("UPDATE listings SET title = ?1 WHERE id = ?2").bind("Ny trehest", listing.id).run();

    expect(ids(await search("sparkesykkel"))).not.toContain(listing.id);
    expect(ids(await search("trehest"))).toContain(listing.id);
    expect(ids(await search("tre"))).toContain(listing.id);
    expect(ids(await search("kesykk"))).not.toContain(listing.id);
  });

  it("re-indexes a listing when its description changes", async () => {
    const listing = await createListing({ title: "Puslespill", description: "Motiv: sjiraff" });
    await env.DB.prepare("UPDATE listings SET description = NULL WHERE id = ?1").bind(listing.id).run();
    expect(ids(await search("sjiraff"))).not.toContain(listing.id);
    expect(ids(await search("puslespill"))).toContain(listing.id);
  });

  it("removes a deleted listing from both FTS tables and the rowid map", async () => {
    const listing = await createListing({ title: "Krokodillespill", description: "Komplett" });
    const mapped = await env.DB.prepare("SELECT rid AS rowid FROM listing_search_map WHERE listing_id = ?1")
      .bind(listing.id)
      .first<{ rowid: number }>();
    expect(mapped).not.toBeNull();

    await env.DB.prepare("DELETE FROM listings WHERE id = ?1").bind(listing.id).run();

    const count = (sql: string) => env.DB.prepare(sql).bind(mapped!.rowid).first<number>("n");
    expect(await count("SELECT count(*) AS n FROM listings_fts WHERE rowid = ?1")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM listings_fts_trigram WHERE rowid = ?1")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM listing_search_map WHERE rowid = ?1")).toBe(0);
    expect(await search("krokodillespill")).toEqual([]);
  });

  it("ranks a title hit above a description hit (relevance tiers)", async () => {
    const owner = await createUser();
    // The description hit is created last (newest), so only the tiers can put the title hit first.
    const titleHit = await createListing({ userId: owner.id, title: "Togbane i tre", description: "Komplett sett" });
    const descriptionHit = await createListing({
      userId: owner.id,
      title: "Stor kasse med leker",
      description: "Blant annet en togbane, biler og klosser",
    });
    const found = await search("togbane");
    expect(ids(found)).toEqual([titleHit.id, descriptionHit.id]);
    expect(found.map((r) => r.search_rank)).toEqual([8, 0]);
  });

  it("ranks a word that ends a title word (the thing a compound names) above one that starts it", async () => {
    const owner = await createUser();
    // Oldest to newest: the helmet and the scooter's bell are newer, so only the tiers put the bike first.
    const bike = await createListing({ userId: owner.id, title: "Barnesykkel 16 tommer", description: "Med støttehjul" });
    const helmet = await createListing({ userId: owner.id, title: "Sykkelhjelm (barn)", description: "Passer til sykkel og sparkesykkel" });
    const inside = await createListing({ userId: owner.id, title: "Sparkesykkelbjelle", description: "Ny" });
    const found = await search("sykkel");
    expect(ids(found)).toEqual([bike.id, helmet.id, inside.id]);
    expect(found.map((r) => r.search_rank)).toEqual([7, 6, 5]);
  });

  it("indexes as public exactly what domain/listing-lifecycle.ts calls listed", async () => {
    // The search map's trigger (migration 0001) writes is_public itself; it must agree with the rule.
    const owner = await createUser();
    for (const status of LISTING_STATUSES) {
      for (const isHidden of [false, true]) {
        const listing = await createListing({ userId: owner.id, status, isHidden, title: `Synlighet ${status} ${isHidden}` });
        const row = await env.DB.prepare("SELECT is_public FROM listing_search_map WHERE listing_id = ?1")
          .bind(listing.id)
          .first<{ is_public: number }>();
        expect(row!.is_public === 1, `${status} hidden=${isHidden}`).toBe(isListedListing({ status, is_hidden: isHidden }));
      }
    }
  });

  it("treats operators and column filters in the query as text", async () => {
    const listing = await createListing({ title: "Not a trap", description: "title near or and" });
    // Unquoted, `NOT`, `NEAR`, `title:` and `-` would be FTS5 syntax; quoted they are words.
    for (const q of ['not "a" trap', "title: near", "NEAR(or and)", "-trap*"]) {
      expect(ids(await search(q)), q).toContain(listing.id);
    }
  });
});
