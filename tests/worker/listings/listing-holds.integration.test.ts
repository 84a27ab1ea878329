// Editing a held listing over HTTP (decision 086): a listing promised in an agreed trade
// cannot be edited at all, a toy reserved or given through the give-away queue only gets its text
// fixed, the refusal is a Norwegian 409 that changes nothing, the queue still works afterwards, and
// the edit racing an accept or a reserve (fired together, the edit acting on what it read before).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LISTING_HOLD_EDIT_TEXTS as T } from "../../../domain/listing-holds";
import { createListing, createTrade, createUser, signedInClient, type ListingRow } from "../../factories";
import { type Client, errorOf } from "../support/http";
import { editFormOf } from "../support/listing-form";
import { postWith, readsHeldUntil } from "../support/race";

const stored = async (id: string) =>
  (await env.DB.prepare(
    "SELECT title, description, price, is_free, condition_rating, images, status, updated_at FROM listings WHERE id = ?1",
  )
    .bind(id)
    .first())!;

const edit = (client: Client, row: ListingRow, change: Record<string, unknown>) =>
  client.request(`/api/listings/${row.id}`, { method: "PUT", json: editFormOf(row, change) });

/** A listing with one (already stored) photo, so an edit can keep it without uploading. */
async function withPhoto(overrides: Parameters<typeof createListing>[0] & { userId: string }) {
  return createListing({ images: [`${overrides.userId}/1700000000000-hold.jpg`], ...overrides });
}

/** The read of one listing row by id (the edit's ownership check). */
const LISTING_READ = /^SELECT \* FROM listings WHERE id = \?1$/;

describe("a listing promised in an agreed trade", () => {
  async function promised() {
    const sender = await createUser({ displayName: "Siri Sender" });
    const offered = await withPhoto({ userId: sender.id, title: "Tilbudt brannbil", price: 200 });
    const trade = await createTrade({ status: "accepted", sender, offered });
    return { trade, offered, senderClient: await signedInClient(sender.id) };
  }

  it.each([
    ["price and condition", { price: 5000, condition_rating: 1 }],
    ["only the description", { description: "Mangler to hjul." }],
    ["only the title", { title: "Tilbudt brannbil, rød" }],
  ])("refuses %s with 409 and the Norwegian reason; nothing changes", async (_, change) => {
    const { offered, senderClient } = await promised();
    const before = await stored(offered.id);
    const res = await edit(senderClient, offered, change);
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(T.trade);
    expect(await stored(offered.id)).toEqual(before);
  });

  it("the other party's listing in the trade is held the same way", async () => {
    const recipient = await createUser();
    const requested = await withPhoto({ userId: recipient.id, isTradeOffer: true, title: "Ønsket dukkehus" });
    await createTrade({ status: "accepted", recipient, requested });
    const res = await edit(await signedInClient(recipient.id), requested, { price: 1 });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(T.trade);
  });

  it("saving the form unchanged is not a change and is allowed", async () => {
    const { offered, senderClient } = await promised();
    expect((await edit(senderClient, offered, {})).status).toBe(200);
  });

  it("a pending offer does not hold the listing, and a cancelled trade frees it again", async () => {
    const sender = await createUser();
    const offered = await withPhoto({ userId: sender.id, title: "Tilbudt togbane" });
    const pending = await createTrade({ sender, offered });
    const client = await signedInClient(sender.id);
    expect((await edit(client, offered, { price: 300 })).status).toBe(200);

    const other = await withPhoto({ userId: sender.id, title: "Tilbudt garasje" });
    const accepted = await createTrade({ status: "accepted", sender, offered: other });
    expect((await edit(client, other, { price: 300 })).status).toBe(409);
    expect((await client.post(`/api/trade-offers/${accepted.offerId}/cancel`, {})).status).toBe(200);
    expect((await edit(client, other, { price: 300 })).status).toBe(200);
    expect((await stored(other.id)).price).toBe(300);
    expect(pending.offerId).toBeTruthy();
  });

  it("race: the owner's edit against the other party's accept, fired together; the edit read the listing before the accept landed", async () => {
    const sender = await createUser();
    const offered = await withPhoto({ userId: sender.id, title: "Tilbudt lekekjøkken", price: 200, conditionRating: 5 });
    const trade = await createTrade({ sender, offered });
    const senderClient = await signedInClient(sender.id);
    const recipientClient = await signedInClient(trade.recipient.id);
    const before = await stored(offered.id);

    let acceptDone!: () => void;
    const accepted = new Promise<void>((resolve) => (acceptDone = resolve));
    const held = readsHeldUntil(LISTING_READ, accepted);
    const [editRes, acceptRes] = await Promise.all([
      postWith(held, senderClient, `/api/listings/${offered.id}`, editFormOf(offered, { price: 5000, condition_rating: 1 }), "PUT"),
      recipientClient.post(`/api/trade-offers/${trade.offerId}/accept`, {}).finally(acceptDone),
    ]);
    expect(acceptRes.status).toBe(200);
    expect(editRes.status).toBe(409);
    expect((await errorOf(editRes)).message).toBe(T.trade);
    const after = await stored(offered.id);
    expect({ price: after.price, condition_rating: after.condition_rating }).toEqual({
      price: before.price,
      condition_rating: before.condition_rating,
    });
    expect(after.status).toBe("reserved");
  });
});

describe("a give-away reserved or given through the queue", () => {
  async function reserved() {
    const giver = await createUser({ displayName: "Gro Giver" });
    const listing = await withPhoto({ userId: giver.id, isFree: true, title: "Duplo brannstasjon" });
    const taker = await createUser({ displayName: "Tore Taker" });
    const takerClient = await signedInClient(taker.id);
    const giverClient = await signedInClient(giver.id);
    expect((await takerClient.post(`/api/giveaways/listings/${listing.id}/queue`, { message: "Kan hente i kveld" })).status).toBe(201);
    expect((await giverClient.post(`/api/giveaways/listings/${listing.id}/reserve`, {})).status).toBe(200);
    return { listing, giverClient, takerClient };
  }

  it("refuses turning it into a 900 kr listing (409, Norwegian), and give still works afterwards", async () => {
    const { listing, giverClient } = await reserved();
    const before = await stored(listing.id);
    const res = await edit(giverClient, listing, { is_free: false, price: 900 });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(T.giveaway);
    expect(await stored(listing.id)).toEqual(before);
    expect((await giverClient.post(`/api/giveaways/listings/${listing.id}/give`, {})).status).toBe(200);
    expect((await stored(listing.id)).status).toBe("given_away");
  });

  it.each([
    ["the condition", { condition_rating: 1 }],
    ["the postal code", { postal_code: "9000" }],
    ["the trade flag", { is_trade_offer: true }],
  ])("refuses changing %s", async (_, change) => {
    const { listing, giverClient } = await reserved();
    const res = await edit(giverClient, listing, change);
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(T.giveaway);
  });

  it("allows fixing the title and description; release still works afterwards", async () => {
    const { listing, giverClient } = await reserved();
    const res = await edit(giverClient, listing, { title: "Duplo brannstasjon med bil", description: "Komplett, med stige." });
    expect(res.status).toBe(200);
    expect(await stored(listing.id)).toMatchObject({
      title: "Duplo brannstasjon med bil",
      description: "Komplett, med stige.",
      is_free: 1,
      status: "reserved",
    });
    expect((await giverClient.post(`/api/giveaways/listings/${listing.id}/release`, {})).status).toBe(200);
    expect((await stored(listing.id)).status).toBe("active");
  });

  it("a given-away toy stays free too", async () => {
    const { listing, giverClient } = await reserved();
    expect((await giverClient.post(`/api/giveaways/listings/${listing.id}/give`, {})).status).toBe(200);
    const res = await edit(giverClient, listing, { is_free: false, price: 900 });
    expect(res.status).toBe(409);
    expect((await stored(listing.id)).is_free).toBe(1);
  });

  it("with people only waiting, a price may be set; the queue is closed and they are passed", async () => {
    const giver = await createUser();
    const listing = await withPhoto({ userId: giver.id, isFree: true });
    const taker = await createUser();
    expect(
      (await (await signedInClient(taker.id)).post(`/api/giveaways/listings/${listing.id}/queue`, { message: "Gjerne!" })).status,
    ).toBe(201);
    expect((await edit(await signedInClient(giver.id), listing, { is_free: false, price: 900 })).status).toBe(200);
    const entry = await env.DB.prepare("SELECT status FROM giveaway_queue WHERE listing_id = ?1")
      .bind(listing.id)
      .first<{ status: string }>();
    expect(entry?.status).toBe("passed");
  });

  it("race: the giver's price edit against the giver's reserve, fired together; the edit read the listing before the reserve landed", async () => {
    const giver = await createUser();
    const listing = await withPhoto({ userId: giver.id, isFree: true, title: "Sparkesykkel" });
    const taker = await createUser();
    expect(
      (await (await signedInClient(taker.id)).post(`/api/giveaways/listings/${listing.id}/queue`, { message: "Gjerne!" })).status,
    ).toBe(201);
    const giverClient = await signedInClient(giver.id);

    let reserveDone!: () => void;
    const reservedNow = new Promise<void>((resolve) => (reserveDone = resolve));
    const held = readsHeldUntil(LISTING_READ, reservedNow);
    const [editRes, reserveRes] = await Promise.all([
      postWith(held, giverClient, `/api/listings/${listing.id}`, editFormOf(listing, { is_free: false, price: 900 }), "PUT"),
      giverClient.post(`/api/giveaways/listings/${listing.id}/reserve`, {}).finally(reserveDone),
    ]);
    expect(reserveRes.status).toBe(200);
    expect(editRes.status).toBe(409);
    expect((await errorOf(editRes)).message).toBe(T.giveaway);
    expect(await stored(listing.id)).toMatchObject({ is_free: 1, price: null, status: "reserved" });
    expect((await giverClient.post(`/api/giveaways/listings/${listing.id}/give`, {})).status).toBe(200);
  });
});
