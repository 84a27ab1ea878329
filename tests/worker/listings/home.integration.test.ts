// GET /api/home through the Worker's fetch handler.
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { HomeSections } from "../../../domain/schemas/listing";
import { createListing, createUser, deleteAllListings, HOUR } from "../../factories";
import { homeSections } from "../../../worker/features/listings/listings";
import { countingD1 } from "../support/round-trips";

async function getHome(): Promise<{ response: Response; body: HomeSections }> {
  const response = await exports.default.fetch(new Request("http://localhost/api/home"));
  expect(response.status).toBe(200);
  return { response, body: await response.json<HomeSections>() };
}

const ids = (cards: { id: string }[]) => cards.map((c) => c.id);
const hoursAgo = (h: number) => new Date(Date.now() - h * HOUR).toISOString();

describe("GET /api/home", () => {
  // The sections read every listing, so each test starts from an empty table (storage is per file).
  beforeEach(async () => {
    await deleteAllListings();
  });

  it("answers empty sections when there are no listings", async () => {
    const { response, body } = await getHome();
    expect(body).toEqual({ newest: [], free: [], trade: [] });
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    // The same for every visitor: kept at the edge, revalidated by browsers (decision 101).
    expect(response.headers.get("Cache-Control")).toBe("public, no-cache");
    expect(response.headers.get("CDN-Cache-Control")).toMatch(/s-maxage=\d+/);
  });

  it("shows only active listings that are not hidden", async () => {
    const owner = await createUser();
    const visible = await createListing({ userId: owner.id, isFree: true, isTradeOffer: true });
    const excluded = await Promise.all([
      ...(["reserved", "sold", "given_away", "traded", "deleted"] as const).map((status) =>
        createListing({ userId: owner.id, status, isFree: true, isTradeOffer: true }),
      ),
      createListing({ userId: owner.id, isHidden: true, hiddenReason: "Spam", isFree: true, isTradeOffer: true }),
    ]);

    const { body } = await getHome();
    for (const section of ["newest", "free", "trade"] as const) {
      expect(ids(body[section]), section).toEqual([visible.id]);
      for (const row of excluded) expect(ids(body[section]), `${section} ${row.status}`).not.toContain(row.id);
    }
  });

  it("lists the 6 newest first", async () => {
    const owner = await createUser();
    const rows = [];
    // Created out of order on purpose: order must come from created_at, not insertion.
    for (const h of [5, 1, 8, 3, 7, 2, 6, 4])
      rows.push(await createListing({ userId: owner.id, createdAt: hoursAgo(h), title: `Leke ${h}` }));

    const { body } = await getHome();
    expect(body.newest.map((c) => c.title)).toEqual(["Leke 1", "Leke 2", "Leke 3", "Leke 4", "Leke 5", "Leke 6"]);
  });

  it("lists up to 4 free listings, newest first, with a null price", async () => {
    const owner = await createUser();
    for (let h = 1; h <= 6; h++) await createListing({ userId: owner.id, isFree: true, createdAt: hoursAgo(h * 2), title: `Gratis ${h}` });
    // Paid listings interleaved and newer must not enter the free section.
    for (let h = 0; h < 3; h++) await createListing({ userId: owner.id, isFree: false, price: 100, createdAt: hoursAgo(h * 2 + 1) });

    const { body } = await getHome();
    expect(body.free.map((c) => c.title)).toEqual(["Gratis 1", "Gratis 2", "Gratis 3", "Gratis 4"]);
    for (const card of body.free) {
      expect(card.is_free).toBe(true);
      expect(card.price).toBeNull();
    }
  });

  it("lists up to 4 listings open to trade, newest first", async () => {
    const owner = await createUser();
    for (let h = 1; h <= 5; h++)
      await createListing({ userId: owner.id, isTradeOffer: true, createdAt: hoursAgo(h * 2), title: `Bytte ${h}` });
    for (let h = 0; h < 3; h++) await createListing({ userId: owner.id, isTradeOffer: false, createdAt: hoursAgo(h * 2 + 1) });

    const { body } = await getHome();
    expect(body.trade.map((c) => c.title)).toEqual(["Bytte 1", "Bytte 2", "Bytte 3", "Bytte 4"]);
    expect(body.trade.every((c) => c.is_trade_offer)).toBe(true);
  });

  it("is one D1 statement for all three sections", async () => {
    await createListing({ isFree: true });
    await createListing({ isTradeOffer: true });
    const counted = countingD1(env.DB);
    const home = await homeSections(counted.d1);
    expect([home.newest.length, home.free.length, home.trade.length]).toEqual([2, 1, 1]);
    expect([counted.roundTrips(), counted.statements()]).toEqual([1, 1]);
  });

  it("omits no section when a listing qualifies for all three", async () => {
    const listing = await createListing({ isFree: true, isTradeOffer: true });
    const { body } = await getHome();
    expect(ids(body.newest)).toEqual([listing.id]);
    expect(ids(body.free)).toEqual([listing.id]);
    expect(ids(body.trade)).toEqual([listing.id]);
  });

  it("returns cards in the API's snake_case shape with real booleans and image arrays", async () => {
    const listing = await createListing({
      title: "Dukkehus i tre",
      price: 1250,
      images: ["owner/1.jpg", "owner/2.jpg"],
      category: "dukker",
      ageRange: "3-5 år",
      conditionRating: 5,
      postalCode: "7010",
    });
    const { body } = await getHome();
    expect(body.newest[0]).toEqual({
      id: listing.id,
      user_id: listing.userId,
      title: "Dukkehus i tre",
      price: 1250,
      is_free: false,
      is_trade_offer: false,
      condition_rating: 5,
      category: "dukker",
      age_range: "3-5 år",
      postal_code: "7010",
      images: ["owner/1.jpg", "owner/2.jpg"],
      status: "active",
      seo_slug: listing.seoSlug,
      pricing_mode: "standard",
      payment_enabled: false,
      handover: ["in_person"],
      created_at: listing.createdAt,
    });
    // Nothing private leaks onto a public card.
    expect(body.newest[0]).not.toHaveProperty("hidden_reason");
    expect(body.newest[0]).not.toHaveProperty("email");
    expect(listing.seoSlug).toMatch(/^dukkehus-i-tre-[0-9a-f]{6}$/);
    // The database row really has the slug (unique index) the card shows.
    const stored = await env.DB.prepare("SELECT seo_slug FROM listings WHERE id = ?1").bind(listing.id).first<string>("seo_slug");
    expect(stored).toBe(listing.seoSlug);
  });
});
