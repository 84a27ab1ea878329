// A finished deal's listing stays open to everyone, read only (decision 117; decision 088 gave it to
// the deal's parties only): a visitor, a stranger and the parties of a paid order, a completed trade
// or a give-away all read the sold, traded or given-away listing through the API, the /annonse page
// and /listing/{id}, with its state, its seller's other listings and no way to change it. Only a
// listing moderation hid and a deleted one answer the 404 "Kunne ikke hente annonse".
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  createCompletedTrade,
  createGiveaway,
  createListing,
  createReview,
  createSale,
  createUser,
  signedInClient,
  type DealFixture,
  type TestUser,
} from "../../factories";
import { Client, errorOf } from "../support/http";
import { countingD1 } from "../support/round-trips";
import { listingDetailByKey } from "../../../worker/features/listings/listings";
import { listingSlug } from "../../../domain/slug";
import type { Actor } from "../../../worker/env";

const actorOf = (user: TestUser): Actor => ({
  id: user.id,
  email: user.email,
  displayName: null,
  role: "user",
  suspended: false,
  sessionFamily: "f",
  accessExpiresAt: 0,
});

async function status(client: Client, path: string): Promise<number> {
  return (await client.get(path)).status;
}

const BADGE = { sold: "Solgt", traded: "Byttet", given_away: "Gitt bort" } as const;

/** Everyone reads each listing of the deal, by id, by slug and on both pages, with its state. */
async function expectEveryoneSees(deal: DealFixture) {
  const stranger = await signedInClient((await createUser({ displayName: "Ukjent" })).id);
  const readers = [new Client(), stranger, await signedInClient(deal.a.id), await signedInClient(deal.b.id)];
  for (const row of deal.listings) {
    for (const [i, reader] of readers.entries()) {
      for (const path of [`/api/listings/${row.id}`, `/api/listings/by-slug/${row.seoSlug}`]) {
        const res = await reader.get(path);
        expect(res.status, `reader ${i} ${path}`).toBe(200);
        expect(Object.keys(BADGE), `reader ${i} ${path}`).toContain(((await res.json()) as { status: string }).status);
      }
    }
    // The visitors' edge pages: the listing, marked with its state, the same for everyone.
    const stored = (await env.DB.prepare("SELECT status FROM listings WHERE id = ?1")
      .bind(row.id)
      .first<{ status: keyof typeof BADGE }>())!;
    for (const path of [`/annonse/${row.seoSlug}`, `/listing/${row.id}`]) {
      const page = await new Client().get(path, { headers: { Accept: "text/html" } });
      expect([page.status, page.headers.get("Cache-Control")], path).toEqual([200, "public, no-cache"]);
      const html = await page.text();
      expect(html, path).toContain(row.title);
      expect(html, path).toContain(`>${BADGE[stored.status]}<`);
      expect(html, path).not.toMatch(/Kjøp nå|>Send melding<|>Foreslå bytte<|Jeg vil ha den/);
    }
  }
}

describe("a finished deal's listing is open to everyone, read only", () => {
  it("a paid order: the sold listing", async () => {
    await expectEveryoneSees(await createSale());
  });

  it("a completed trade: both traded listings", async () => {
    await expectEveryoneSees(await createCompletedTrade());
  });

  it("a give-away: the given-away listing", async () => {
    await expectEveryoneSees(await createGiveaway());
  });

  it("someone else's sold listing shows the seller's other listings, and its slug page says it is sold out", async () => {
    const seller = await createUser({ displayName: "Selma" });
    const sold = await createListing({ userId: seller.id, status: "sold", title: "Solgt dukkehus" });
    const other = await createListing({ userId: seller.id, title: "Ledig gyngehest" });
    const res = await new Client().get(`/api/listings/${sold.id}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; more_from_seller: { id: string }[] };
    expect([body.status, body.more_from_seller.map((card) => card.id)]).toEqual(["sold", [other.id]]);
    const page = await (await new Client().get(`/annonse/${sold.seoSlug}`)).text();
    expect(page).toContain("Ledig gyngehest");
    expect(page).toContain('"availability":"https://schema.org/SoldOut"');
  });

  it("its photos are public, as its page is", async () => {
    const owner = await createUser();
    const key = `${owner.id}/1700000000000-solgt.jpg`;
    await createListing({ userId: owner.id, status: "sold", images: [key] });
    await env.IMAGES.put(key, new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2]), { httpMetadata: { contentType: "image/jpeg" } });
    const res = await new Client().get(`/images/${key}`);
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });

  it("a listing that moderation hid, and a deleted one, answer 404 to everyone but the owner", async () => {
    const hiddenSale = await createSale({ listing: { isHidden: true, hiddenReason: "Regelbrudd", hiddenAt: new Date().toISOString() } });
    const deleted = await createListing({ status: "deleted" });
    for (const [row, owner] of [
      [hiddenSale.listings[0], hiddenSale.a.id],
      [deleted, deleted.userId],
    ] as const) {
      for (const reader of [new Client(), await signedInClient(hiddenSale.b.id)]) {
        const refused = await reader.get(`/api/listings/${row.id}`);
        expect(refused.status).toBe(404);
        expect((await errorOf(refused)).message).toBe("Kunne ikke hente annonse");
        expect(await status(reader, `/annonse/${row.seoSlug}`)).toBe(404);
      }
      if (row === hiddenSale.listings[0]) expect(await status(await signedInClient(owner), `/api/listings/${row.id}`)).toBe(200);
    }
  });

  it("reading is all: changing someone else's finished listing is refused (403) and changes nothing", async () => {
    const sale = await createSale();
    for (const reader of [await signedInClient(sale.b.id), await signedInClient((await createUser()).id)]) {
      const res = await reader.post(`/api/listings/${sale.listings[0].id}/status`, { status: "active" });
      expect(res.status).toBe(403);
    }
    expect(((await (await new Client().get(`/api/listings/${sale.listings[0].id}`)).json()) as { status: string }).status).toBe("sold");
  });
});

describe("the listing page's data (fewer round trips)", () => {
  it("is one D1 statement by id, by slug and by a slug's id prefix, for a visitor and for signed-in readers", async () => {
    const seller = await createUser({ displayName: "Selger" });
    const listing = await createListing({ userId: seller.id, title: "Dukkevogn" });
    const other = await createListing({ userId: seller.id, title: "Gyngehest" });
    const renamed = listingSlug("Nytt navn", listing.id);
    for (const key of [{ id: listing.id }, { slug: listing.seoSlug! }, { slug: renamed }]) {
      const counted = countingD1(env.DB);
      const found = await listingDetailByKey(counted.d1, key, null);
      expect(found.id).toBe(listing.id);
      expect(found.detail?.seller.display_name).toBe("Selger");
      expect(found.detail?.more_from_seller.map((card) => card.id)).toEqual([other.id]);
      expect([counted.roundTrips(), counted.statements()], JSON.stringify(key)).toEqual([1, 1]);
    }

    const deal = await createSale();
    const hidden = await createSale({ listing: { isHidden: true, hiddenReason: "Regelbrudd", hiddenAt: new Date().toISOString() } });
    const stranger = await createUser();
    for (const [viewer, listing, sees] of [
      [deal.b, deal.listings[0], true],
      [stranger, deal.listings[0], true],
      [stranger, hidden.listings[0], false],
      [hidden.a, hidden.listings[0], true],
    ] as const) {
      const counted = countingD1(env.DB);
      const found = await listingDetailByKey(counted.d1, { id: listing.id }, actorOf(viewer));
      expect(found.id).toBe(listing.id);
      expect(!!found.detail).toBe(sees);
      expect([counted.roundTrips(), counted.statements()]).toEqual([1, 1]);
    }

    const counted = countingD1(env.DB);
    expect(await listingDetailByKey(counted.d1, { slug: "finnes-ikke" }, null)).toEqual({ id: null, detail: null });
    expect([counted.roundTrips(), counted.statements()]).toEqual([1, 1]);
  });

  it("keeps what the page showed: the seller's other listed listings newest first, at most four; the rating of shown reviews", async () => {
    const seller = await createUser({ displayName: "Selger" });
    const mine = (overrides: Parameters<typeof createListing>[0] = {}) => createListing({ userId: seller.id, ...overrides });
    const oldest = await mine();
    const kept = [await mine()];
    const listing = await mine({ title: "Dukkevogn" });
    kept.push(await mine(), await mine(), await mine());
    for (const state of [{ isHidden: true }, { status: "reserved" as const }, { status: "sold" as const }, { status: "deleted" as const }])
      await mine(state);
    await createListing({ title: "Noen andres" });

    // Shown: two reviews of the seller whose deals both sides reviewed. Not shown: one a moderator
    // hid, and one whose other side has not written theirs while the window is open (decision 070).
    const deals: DealFixture[] = [];
    for (const rating of [5, 4, 1, 2]) {
      const deal = await createSale({ seller });
      deals.push(deal);
      await createReview(deal, deal.b, seller, { rating, hidden: rating === 1 });
      if (rating !== 2) await createReview(deal, seller, deal.b);
    }

    const found = await listingDetailByKey(env.DB, { id: listing.id }, null);
    expect(found.detail?.more_from_seller.map((card) => card.id)).toEqual(kept.reverse().map((row) => row.id));
    expect(found.detail?.more_from_seller.map((card) => card.id)).not.toContain(oldest.id);
    expect(found.detail?.seller.rating).toEqual({ count: 2, average: 4.5 });
    // Every key and every viewer gets the same page.
    for (const [key, actor] of [
      [{ slug: listing.seoSlug! }, null],
      [{ slug: listingSlug("Nytt navn", listing.id) }, null],
      [{ id: listing.id }, actorOf(deals[0].b)],
    ] as const)
      expect(await listingDetailByKey(env.DB, key, actor), JSON.stringify(key)).toEqual(found);
  });
});
