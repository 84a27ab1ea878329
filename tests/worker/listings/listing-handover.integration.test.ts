// How a toy changes hands, through the API (decision 148): stored on create and edit, returned on the
// listing, the owner's listing and the cards, refused with the wizard's Norwegian words, a listing
// from before shipping read as pick-up only, held once a buyer has paid, and guarded by D1 itself.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SHIPPING_CHOICE_REFUSALS as R } from "../../../domain/carriers";
import { LISTING_HOLD_EDIT_TEXTS } from "../../../domain/listing-holds";
import { createListing, type ListingRow } from "../../factories";
import { asVisitor, Client, errorOf } from "../support/http";
import { editFormOf } from "../support/listing-form";
import { form, signedIn, uploadKey } from "../support/listings";
import { paidOrder } from "../support/orders";

interface Shown {
  id: string;
  handover: string[];
  parcel_size?: string | null;
}

const stored = async (id: string) =>
  (await env.DB.prepare("SELECT can_pick_up, can_ship, parcel_size, title, updated_at FROM listings WHERE id = ?1").bind(id).first())!;

const rowOf = async (id: string): Promise<ListingRow> => {
  const { listingRow } = await import("../../../worker/features/listings/listings");
  return listingRow((await env.DB.prepare("SELECT * FROM listings WHERE id = ?1").bind(id).first())!);
};

describe("creating a listing", () => {
  it("stores both ways and the size, and returns them on the listing, the owner's listing and the search card", async () => {
    const { client } = await signedIn();
    const word = `zq${crypto.randomUUID().slice(0, 8)}`;
    const res = await client.post(
      "/api/listings",
      form([await uploadKey(client)], { title: `Monopol ${word}`, handover: ["shipping", "in_person"], parcel_size: "medium" }),
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as Shown;
    expect(created).toMatchObject({ handover: ["in_person", "shipping"], parcel_size: "medium" });
    expect(await stored(created.id)).toMatchObject({ can_pick_up: 1, can_ship: 1, parcel_size: "medium" });

    const shown = (await (await new Client().get(`/api/listings/${created.id}`, asVisitor())).json()) as Shown;
    expect(shown).toMatchObject({ handover: ["in_person", "shipping"], parcel_size: "medium" });
    const own = (await (await client.get(`/api/me/listings/${created.id}`)).json()) as Shown;
    expect(own).toMatchObject({ handover: ["in_person", "shipping"], parcel_size: "medium" });
    const found = (await (await new Client().get(`/api/search?q=${word}`, asVisitor())).json()) as { rows: Shown[] };
    expect(found.rows.map((r) => [r.id, r.handover])).toEqual([[created.id, ["in_person", "shipping"]]]);
    // The card says "Kan sendes"; the size is the listing page's.
    expect(found.rows[0]).not.toHaveProperty("parcel_size");
  });

  it("reads a form without the ways as pick-up only, and drops a size without «Kan sendes»", async () => {
    const { client } = await signedIn();
    const plain = (await (await client.post("/api/listings", form([await uploadKey(client)]))).json()) as Shown;
    expect(plain).toMatchObject({ handover: ["in_person"], parcel_size: null });
    const sized = (await (
      await client.post("/api/listings", form([await uploadKey(client)], { handover: ["in_person"], parcel_size: "large" }))
    ).json()) as Shown;
    expect(sized).toMatchObject({ handover: ["in_person"], parcel_size: null });
    expect(await stored(sized.id)).toMatchObject({ can_pick_up: 1, can_ship: 0, parcel_size: null });
  });

  it.each([
    ["no way at all", { handover: [] }, "handover", R.noHandover],
    ["«Kan sendes» without a size", { handover: ["shipping"] }, "parcel_size", R.noSize],
    ["a size that does not exist", { handover: ["shipping"], parcel_size: "xl" }, "parcel_size", R.noSize],
  ])("refuses %s with 400 and the wizard's words, and stores nothing", async (_, change, field, message) => {
    const { client, user } = await signedIn();
    const res = await client.post("/api/listings", form([await uploadKey(client)], change));
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: "VALIDATION", message });
    expect(error.fields?.[field]).toBe(message);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM listings WHERE user_id = ?1").bind(user.id).first<{ n: number }>();
    expect(count?.n).toBe(0);
  });
});

describe("a listing from before shipping", () => {
  it("reads as pick-up only on the listing, the owner's listing and the cards", async () => {
    const { client, user } = await signedIn();
    // Written as the Worker wrote rows before the migration: without the three columns.
    const listing = await createListing({ userId: user.id, title: "Gammel gyngehest" });
    expect(await stored(listing.id)).toMatchObject({ can_pick_up: 1, can_ship: 0, parcel_size: null });
    const shown = (await (await new Client().get(`/api/listings/${listing.id}`, asVisitor())).json()) as Shown;
    expect(shown).toMatchObject({ handover: ["in_person"], parcel_size: null });
    const own = (await (await client.get(`/api/me/listings/${listing.id}`)).json()) as Shown;
    expect(own).toMatchObject({ handover: ["in_person"], parcel_size: null });
    const mine = (await (await client.get("/api/me/listings")).json()) as Shown[];
    expect(mine.find((c) => c.id === listing.id)?.handover).toEqual(["in_person"]);
  });
});

describe("editing", () => {
  it("adds «Kan sendes» with a size, then takes it away again (the size goes with it)", async () => {
    const { client, user } = await signedIn();
    const listing = await createListing({ userId: user.id, images: [`${user.id}/1700000000000-a.jpg`] });
    const put = (change: Record<string, unknown>) =>
      client.request(`/api/listings/${listing.id}`, { method: "PUT", json: editFormOf(listing, change) });

    const sent = await put({ handover: ["in_person", "shipping"], parcel_size: "small" });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({ handover: ["in_person", "shipping"], parcel_size: "small" });
    const shipOnly = await put({ handover: ["shipping"], parcel_size: "large" });
    expect(await shipOnly.json()).toMatchObject({ handover: ["shipping"], parcel_size: "large" });
    expect(await stored(listing.id)).toMatchObject({ can_pick_up: 0, can_ship: 1, parcel_size: "large" });
    const pickedUp = await put({ handover: ["in_person"], parcel_size: "large" });
    expect(await pickedUp.json()).toMatchObject({ handover: ["in_person"], parcel_size: null });
    expect(await stored(listing.id)).toMatchObject({ can_pick_up: 1, can_ship: 0, parcel_size: null });
  });

  it("refuses an edit without a size with 400, and the listing stays as it was", async () => {
    const { client, user } = await signedIn();
    const listing = await createListing({ userId: user.id, images: [`${user.id}/1700000000000-b.jpg`] });
    const before = await stored(listing.id);
    const res = await client.request(`/api/listings/${listing.id}`, {
      method: "PUT",
      json: editFormOf(listing, { handover: ["shipping"], parcel_size: null }),
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(R.noSize);
    expect(await stored(listing.id)).toEqual(before);
  });
});

describe("a listing a buyer has paid for", () => {
  it("keeps its ways: changing them is a 409 in Norwegian that changes nothing, while the title can still be fixed", async () => {
    const order = await paidOrder("card");
    // A photo already stored, so the edit can keep it without uploading.
    await env.DB.prepare("UPDATE listings SET images = ?2 WHERE id = ?1")
      .bind(order.listingId, JSON.stringify([`${order.seller.id}/1700000000000-paid.jpg`]))
      .run();
    const row = await rowOf(order.listingId);
    const before = await stored(row.id);
    const put = (change: Record<string, unknown>) =>
      order.sellerClient.request(`/api/listings/${row.id}`, { method: "PUT", json: editFormOf(row, change) });

    for (const change of [
      { handover: ["in_person", "shipping"], parcel_size: "medium" },
      { handover: ["shipping"], parcel_size: "small" },
    ]) {
      const res = await put(change);
      expect(res.status, await res.clone().text()).toBe(409);
      expect((await errorOf(res)).message).toBe(LISTING_HOLD_EDIT_TEXTS.paid);
      expect(await stored(row.id)).toEqual(before);
    }
    const fixed = await put({ title: "Lekekjøkken i tre, hvitt" });
    expect(fixed.status).toBe(200);
    expect(await stored(row.id)).toMatchObject({ can_pick_up: 1, can_ship: 0, title: "Lekekjøkken i tre, hvitt" });
  });
});

describe("D1's own checks", () => {
  it.each([
    ["no way at all", "can_pick_up = 0, can_ship = 0"],
    ["«Kan sendes» without a size", "can_ship = 1"],
    ["a size on a listing that is not sent", "parcel_size = 'small'"],
    ["a size that does not exist", "can_ship = 1, parcel_size = 'xl'"],
  ])("refuse %s", async (_, set) => {
    const listing = await createListing();
    await expect(env.DB.prepare(`UPDATE listings SET ${set} WHERE id = ?1`).bind(listing.id).run()).rejects.toThrow(
      /CHECK constraint failed/,
    );
    expect(await stored(listing.id)).toMatchObject({ can_pick_up: 1, can_ship: 0, parcel_size: null });
  });
});
