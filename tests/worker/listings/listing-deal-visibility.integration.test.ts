// The parties of a finished deal can open what they bought, traded or were given (issue 21,
// decision 088): the buyer of a paid order, both sides of a completed trade, giver and taker of a
// give-away read the sold/traded/given-away listing through the API and the /annonse page, read
// only; anyone else still gets the 404 "Kunne ikke hente annonse", and so does a party once
// moderation hides the listing or when the deal never completed.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  createCompletedTrade,
  createGiveaway,
  createListing,
  createReview,
  createSale,
  createTrade,
  createUser,
  signedInClient,
  type DealFixture,
  type TestUser,
} from "../../factories";
import { Client, errorOf } from "../support/http";
import { countingD1 } from "../support/round-trips";
import { listingDetailByKey } from "../../../worker/features/listings/listings";
import { getDb } from "../../../worker/db/client";
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

async function expectPartiesSee(deal: DealFixture) {
  const stranger = await signedInClient((await createUser({ displayName: "Ukjent" })).id);
  for (const { id } of deal.listings) {
    for (const party of [deal.a, deal.b]) {
      const res = await (await signedInClient(party.id)).get(`/api/listings/${id}`);
      expect(res.status, `party ${party.id} reads ${id}`).toBe(200);
      expect(["sold", "traded", "given_away"]).toContain(((await res.json()) as { status: string }).status);
    }
    const refused = await stranger.get(`/api/listings/${id}`);
    expect(refused.status).toBe(404);
    expect((await errorOf(refused)).message).toBe("Kunne ikke hente annonse");
    expect(await status(new Client(), `/api/listings/${id}`)).toBe(404);
  }
}

describe("a finished deal's listing", () => {
  it("a paid order: the buyer reads the sold listing, others get 404", async () => {
    await expectPartiesSee(await createSale());
  });

  it("a completed trade: both parties read both traded listings, others get 404", async () => {
    await expectPartiesSee(await createCompletedTrade());
  });

  it("a give-away: giver and taker read it, others get 404", async () => {
    await expectPartiesSee(await createGiveaway());
  });

  it("a payment that did not complete makes no deal", async () => {
    const sale = await createSale({ paymentStatus: "failed" });
    expect(await status(await signedInClient(sale.b.id), `/api/listings/${sale.listings[0].id}`)).toBe(404);
  });

  it("a trade that was called off makes no deal, though the listing is sold later", async () => {
    const trade = await createTrade({ status: "cancelled" });
    const owner = await signedInClient(trade.recipient.id);
    expect((await owner.post(`/api/listings/${trade.requested.id}/status`, { status: "sold" })).status).toBe(200);
    expect(await status(await signedInClient(trade.sender.id), `/api/listings/${trade.requested.id}`)).toBe(404);
  });

  it("a listing that moderation hides is gone for the parties too", async () => {
    const sale = await createSale({ listing: { isHidden: true, hiddenReason: "Regelbrudd", hiddenAt: new Date().toISOString() } });
    expect(await status(await signedInClient(sale.b.id), `/api/listings/${sale.listings[0].id}`)).toBe(404);
  });

  it("a party reads it by slug and gets the /annonse page; a visitor gets the 404 page", async () => {
    const trade = await createCompletedTrade();
    const buyer = await signedInClient(trade.a.id);
    const slug = trade.listings[0].seoSlug;
    expect(await status(buyer, `/api/listings/by-slug/${slug}`)).toBe(200);
    const page = await buyer.get(`/annonse/${slug}`, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect((await new Client().get(`/annonse/${slug}`, { headers: { Accept: "text/html" } })).status).toBe(404);
  });

  it("reading is all a party may do: changing the other's listing is refused (403) and changes nothing", async () => {
    const sale = await createSale();
    const buyer = await signedInClient(sale.b.id);
    const res = await buyer.post(`/api/listings/${sale.listings[0].id}/status`, { status: "active" });
    expect(res.status).toBe(403);
    expect(((await (await buyer.get(`/api/listings/${sale.listings[0].id}`)).json()) as { status: string }).status).toBe("sold");
  });

  it("a sold listing without a deal with the viewer stays the owner's", async () => {
    const listing = await createListing({ status: "sold" });
    const user = await createUser();
    expect(await status(await signedInClient(user.id), `/api/listings/${listing.id}`)).toBe(404);
  });
});

describe("the listing page's data (issue 24: fewer round trips)", () => {
  it("is one D1 statement by id, by slug and by a slug's id prefix, for a visitor and for a party of the deal", async () => {
    const seller = await createUser({ displayName: "Selger" });
    const listing = await createListing({ userId: seller.id, title: "Dukkevogn" });
    const other = await createListing({ userId: seller.id, title: "Gyngehest" });
    const renamed = listingSlug("Nytt navn", listing.id);
    for (const key of [{ id: listing.id }, { slug: listing.seoSlug! }, { slug: renamed }]) {
      const counted = countingD1(env.DB);
      const found = await listingDetailByKey(getDb(counted.d1), key, null);
      expect(found.id).toBe(listing.id);
      expect(found.detail?.seller.display_name).toBe("Selger");
      expect(found.detail?.more_from_seller.map((card) => card.id)).toEqual([other.id]);
      expect([counted.roundTrips(), counted.statements()], JSON.stringify(key)).toEqual([1, 1]);
    }

    const deal = await createSale();
    const sold = deal.listings[0];
    const stranger = await createUser();
    for (const [viewer, sees] of [
      [deal.b, true],
      [stranger, false],
    ] as const) {
      const counted = countingD1(env.DB);
      const found = await listingDetailByKey(getDb(counted.d1), { id: sold.id }, actorOf(viewer));
      expect(found.id).toBe(sold.id);
      expect(!!found.detail).toBe(sees);
      expect([counted.roundTrips(), counted.statements()]).toEqual([1, 1]);
    }

    const counted = countingD1(env.DB);
    expect(await listingDetailByKey(getDb(counted.d1), { slug: "finnes-ikke" }, null)).toEqual({ id: null, detail: null });
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

    const found = await listingDetailByKey(getDb(env.DB), { id: listing.id }, null);
    expect(found.detail?.more_from_seller.map((card) => card.id)).toEqual(kept.reverse().map((row) => row.id));
    expect(found.detail?.more_from_seller.map((card) => card.id)).not.toContain(oldest.id);
    expect(found.detail?.seller.rating).toEqual({ count: 2, average: 4.5 });
    // Every key and every viewer gets the same page.
    for (const [key, actor] of [
      [{ slug: listing.seoSlug! }, null],
      [{ slug: listingSlug("Nytt navn", listing.id) }, null],
      [{ id: listing.id }, actorOf(deals[0].b)],
    ] as const)
      expect(await listingDetailByKey(getDb(env.DB), key, actor), JSON.stringify(key)).toEqual(found);
  });
});
