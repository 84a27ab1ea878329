// Every change of a listing's state purges the pages and API answers that show it, whatever started
// it (decision 116): the services that write a listing call listingsChanged, so a route needs no
// list of what its writes change. Each change here is made through the API that makes it in the app
// (or the cron), after a visitor's reads have stored the listing's pages; the next visitor must be
// asked again and see the new state.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createListing, createTrade, createUser, ago, DAY, signedInClient, type ListingRow } from "../factories";
import { Client } from "./support/http";
import { paidOrder } from "./support/orders";
import { connectedSeller, onboardedStripeAccount } from "./support/payments";

/** Where a visitor sees one listing: its API by id and slug, its two pages, and the seller's profile. */
const addresses = (row: ListingRow) => [
  `/api/listings/${row.id}`,
  `/api/listings/by-slug/${row.seoSlug}`,
  `/annonse/${row.seoSlug}`,
  `/listing/${row.id}`,
  `/api/users/${row.userId}`,
];

/** A visitor reads every address twice: stored (by now), served from the store the second time. */
async function stored(row: ListingRow): Promise<void> {
  for (const path of addresses(row)) {
    for (let i = 0; i < 2; i++) {
      const res = await new Client().get(path);
      expect([res.status, i === 0 || res.headers.get("X-Edge-Cache") === "HIT"], path).toEqual([200, true]);
      await res.body?.cancel();
    }
  }
}

/** What the next visitor gets: each address asked again, and the listing's status (or 404). */
async function afterwards(row: ListingRow): Promise<string[]> {
  const out: string[] = [];
  for (const path of addresses(row).slice(0, 4)) {
    const res = await new Client().get(path);
    const text = await res.text();
    const status = res.status === 200 ? (text.match(/"status":"([a-z_]+)"/)?.[1] ?? "?") : String(res.status);
    // Asked again: a miss (stored anew) or a bypass (a 404 is never stored); never the old copy.
    out.push(`${path} ${res.headers.get("X-Edge-Cache") === "HIT" ? "HIT" : "asked"} ${status}`);
  }
  const profile = await new Client().get(addresses(row)[4]);
  await profile.body?.cancel();
  out.push(`profile ${profile.headers.get("X-Edge-Cache") === "HIT" ? "HIT" : "asked"}`);
  return out;
}

const expectAll = (row: ListingRow, status: string) => [
  ...addresses(row)
    .slice(0, 4)
    .map((p) => `${p} asked ${status}`),
  "profile asked",
];

describe("a listing's change purges its pages, whatever made it", () => {
  it("a trade accepted reserves both listings; called off, both are active again", async () => {
    const trade = await createTrade();
    await Promise.all([stored(trade.offered), stored(trade.requested)]);
    const recipient = await signedInClient(trade.recipient.id);
    expect((await recipient.post(`/api/trade-offers/${trade.offerId}/accept`)).status).toBe(200);
    expect(await afterwards(trade.offered)).toEqual(expectAll(trade.offered, "reserved"));
    expect(await afterwards(trade.requested)).toEqual(expectAll(trade.requested, "reserved"));
    await stored(trade.requested);
    expect((await recipient.post(`/api/trade-offers/${trade.offerId}/cancel`)).status).toBe(200);
    expect(await afterwards(trade.requested)).toEqual(expectAll(trade.requested, "active"));
  });

  it("a give-away reserved, then given", async () => {
    const giver = await createUser();
    const row = await createListing({ userId: giver.id, isFree: true, price: null, title: "Gis bort dukkehus" });
    const taker = await signedInClient((await createUser()).id);
    expect((await taker.post(`/api/giveaways/listings/${row.id}/queue`, { message: "Vi vil gjerne ha den" })).status).toBe(201);
    await stored(row);
    const owner = await signedInClient(giver.id);
    expect((await owner.post(`/api/giveaways/listings/${row.id}/reserve`, {})).status).toBe(200);
    expect(await afterwards(row)).toEqual(expectAll(row, "reserved"));
    await stored(row);
    expect((await owner.post(`/api/giveaways/listings/${row.id}/give`)).status).toBe(200);
    expect(await afterwards(row)).toEqual(expectAll(row, "given_away"));
  });

  it("a paid order called off by its buyer (no handover within a week): the listing is for sale again", async () => {
    const order = await paidOrder("card");
    const row = (await env.DB.prepare("SELECT id, user_id, seo_slug, title FROM listings WHERE id = ?1")
      .bind(order.listingId)
      .first<{ id: string; user_id: string; seo_slug: string; title: string }>())!;
    const listing = { ...row, userId: row.user_id, seoSlug: row.seo_slug } as unknown as ListingRow;
    await stored(listing);
    await env.DB.prepare("UPDATE orders SET paid_at = ?2 WHERE id = ?1")
      .bind(order.orderId, ago(8 * DAY))
      .run();
    expect((await order.buyerClient.post(`/api/payments/orders/${order.orderId}/cancel`)).status).toBe(200);
    expect(await afterwards(listing)).toEqual(expectAll(listing, "active"));
  });

  it("reports that hide the listing by themselves (auto-hide)", async () => {
    const row = await createListing({ images: [] });
    await stored(row);
    for (let i = 0; i < 3; i++) {
      const reporter = await signedInClient((await createUser({ createdAt: ago(30 * DAY) })).id);
      const res = await reporter.post(
        "/api/reports",
        { target_type: "listing", target_id: row.id, reason: "Falsk annonse" },
        { headers: { "CF-Connecting-IP": `10.77.${i}.7` } },
      );
      expect(res.status).toBe(201);
    }
    expect((await env.DB.prepare("SELECT is_hidden FROM listings WHERE id = ?1").bind(row.id).first())?.is_hidden).toBe(1);
    // Gone: 404 from the APIs and the slug page; /listing/{id} is the app's shell without the listing.
    expect(await afterwards(row)).toEqual([...expectAll(row, "404").slice(0, 3), `/listing/${row.id} asked ?`, "profile asked"]);
  });

  it("a seller's payment account starts taking charges, seen on a GET of its state: every listing of theirs offers the buy button", async () => {
    const seller = await createUser({ stripeAccountId: await onboardedStripeAccount() });
    const row = await createListing({ userId: seller.id, price: 300 });
    await stored(row);
    const before = (await (await new Client().get(`/api/listings/${row.id}`)).json()) as { payment_enabled: boolean };
    expect(before.payment_enabled).toBe(false);
    const status = await (await signedInClient(seller.id)).get("/api/payments/stripe/account");
    expect(status.status).toBe(200);
    await status.body?.cancel();
    const after = await new Client().get(`/api/listings/${row.id}`);
    expect(after.headers.get("X-Edge-Cache")).toBe("MISS");
    expect(((await after.json()) as { payment_enabled: boolean }).payment_enabled).toBe(true);
  });

  it("another seller's account changing leaves this listing's pages stored", async () => {
    const row = await createListing();
    await stored(row);
    const other = await connectedSeller();
    await (await (await signedInClient(other.id)).get("/api/payments/stripe/account")).body?.cancel();
    const res = await new Client().get(`/api/listings/${row.id}`);
    expect(res.headers.get("X-Edge-Cache")).toBe("HIT");
    await res.body?.cancel();
  });
});
