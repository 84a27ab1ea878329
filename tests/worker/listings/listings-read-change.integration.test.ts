// Listings API: reading listings (visibility, slug resolution) and changing them: edit and delete with
// ownership, the lifecycle, competing status changes, the owner's own list.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createListing, createUser } from "../../factories";
import { app } from "../../../worker/app";
import { Client, errorOf, ORIGIN } from "../support/http";
import { staleReads } from "../support/race";
import { form, signedIn, uploadKey } from "../support/listings";

describe("reading listings", () => {
  it("serves public listings with seller, place name and up to four more from the seller", async () => {
    const seller = await createUser({ displayName: "Kari" });
    const listing = await createListing({ userId: seller.id, postalCode: "0150" });
    for (let i = 0; i < 5; i++) await createListing({ userId: seller.id });
    await createListing({ userId: seller.id, status: "sold" });
    const res = await new Client().get(`/api/listings/${listing.id}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      seller: { display_name: string };
      more_from_seller: { id: string; status: string }[];
      place_name: string;
    };
    expect(body.seller.display_name).toBe("Kari");
    expect(body.place_name).toBe("OSLO");
    expect(body.more_from_seller).toHaveLength(4);
    expect(body.more_from_seller.every((l) => l.status === "active" && l.id !== listing.id)).toBe(true);
  });

  it("hides hidden and deleted listings from visitors but not hidden ones from the owner; reserved and sold ones are open", async () => {
    const { client, user } = await signedIn();
    for (const state of [{ isHidden: true }, { status: "deleted" as const }]) {
      const listing = await createListing({ userId: user.id, ...state });
      expect((await new Client().get(`/api/listings/${listing.id}`)).status).toBe(404);
      if (state.status !== "deleted") expect((await client.get(`/api/listings/${listing.id}`)).status).toBe(200);
    }
    // A sold listing stays open, read only (decision 117).
    for (const status of ["reserved", "sold"] as const)
      expect((await new Client().get(`/api/listings/${(await createListing({ status })).id}`)).status, status).toBe(200);
  });

  it("resolves a slug exactly, then by the id prefix", async () => {
    const listing = await createListing({ title: "Rosa sykkel med støttehjul" });
    const exact = await new Client().get(`/api/listings/by-slug/${listing.seoSlug}`);
    expect(((await exact.json()) as { id: string }).id).toBe(listing.id);
    const renamed = await new Client().get(`/api/listings/by-slug/gammel-tittel-${listing.id.replace(/-/g, "").slice(0, 6)}`);
    expect(((await renamed.json()) as { id: string }).id).toBe(listing.id);
    expect((await new Client().get("/api/listings/by-slug/finnes-ikke-zzzzzz")).status).toBe(404);
  });
});

describe("changing listings", () => {
  it("lets the owner edit; removed photos leave R2; others get 403 and nothing changes", async () => {
    const { client } = await signedIn();
    const [a, b] = [await uploadKey(client), await uploadKey(client)];
    const created = (await (await client.post("/api/listings", form([a, b]))).json()) as { id: string };

    const other = await signedIn();
    const denied = await other.client.request(`/api/listings/${created.id}`, { method: "PUT", json: form([a], { title: "Stjålet" }) });
    expect(denied.status).toBe(403);
    expect(await env.IMAGES.head(b)).not.toBeNull();

    const ok = await client.request(`/api/listings/${created.id}`, {
      method: "PUT",
      json: form([a], { title: "Lego Duplo stor togbane" }),
    });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { title: string; images: string[]; seo_slug: string };
    expect(body.title).toBe("Lego Duplo stor togbane");
    expect(body.images).toEqual([a]);
    expect(body.seo_slug).toMatch(/^lego-duplo-stor-togbane-/);
    expect(await env.IMAGES.head(b)).toBeNull();
  });

  it("walks the lifecycle and refuses impossible moves and other users", async () => {
    const { client, user } = await signedIn();
    const listing = await createListing({ userId: user.id });
    const other = await signedIn();
    expect((await other.client.post(`/api/listings/${listing.id}/status`, { status: "sold" })).status).toBe(403);
    for (const [to, code] of [
      ["reserved", 200],
      ["sold", 200],
      ["given_away", 409],
      ["active", 200],
      ["given_away", 200],
    ] as const) {
      expect((await client.post(`/api/listings/${listing.id}/status`, { status: to })).status, to).toBe(code);
    }
    expect((await client.post(`/api/listings/${listing.id}/status`, { status: "deleted" })).status).toBe(400);
    const home = (await (await new Client().get("/api/home")).json()) as { newest: { id: string }[] };
    expect(home.newest.map((l) => l.id)).not.toContain(listing.id);
  });

  it("settles two competing status changes that both read the listing first: one wins, the other gets 409", async () => {
    const { client, user } = await signedIn();
    const listing = await createListing({ userId: user.id });
    // Both requests read the listing as "active" before either writes (the read a race goes stale on).
    const race = staleReads(/^SELECT \* FROM listings WHERE id = \?1$/);
    const change = (status: string) =>
      app.fetch(
        new Request(`${ORIGIN}/api/listings/${listing.id}/status`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Origin: ORIGIN,
            Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
          },
          body: JSON.stringify({ status }),
        }),
        race.env,
      );
    const results = await Promise.all([change("sold"), change("given_away")]);
    expect(race.arrived).toBe(2);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect((await errorOf(loser)).message).toBe("Annonsen ble endret samtidig. Last siden på nytt.");
    const winner = ((await results.find((r) => r.status === 200)!.json()) as { status: string }).status;
    expect(await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(listing.id).first()).toEqual({ status: winner });
  });

  it("soft-deletes for the owner only; the photos of a deleted listing are no longer served", async () => {
    const { client } = await signedIn();
    const key = await uploadKey(client);
    const created = (await (await client.post("/api/listings", form([key]))).json()) as { id: string };
    expect((await new Client().get(`/images/${key}`)).status).toBe(200);
    const other = await signedIn();
    expect((await other.client.delete(`/api/listings/${created.id}`)).status).toBe(403);
    expect((await client.delete(`/api/listings/${created.id}`)).status).toBe(204);
    expect(await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(created.id).first()).toEqual({ status: "deleted" });
    expect((await new Client().get(`/images/${key}`)).status).toBe(404);
    expect((await client.delete(`/api/listings/${created.id}`)).status).toBe(404);
  });

  it("lists the owner's own listings including sold ones, excluding deleted", async () => {
    const { client, user } = await signedIn();
    await createListing({ userId: user.id, title: "Aktiv" });
    await createListing({ userId: user.id, title: "Solgt", status: "sold" });
    await createListing({ userId: user.id, title: "Slettet", status: "deleted" });
    const mine = (await (await client.get("/api/me/listings")).json()) as { title: string }[];
    expect(mine.map((l) => l.title).sort()).toEqual(["Aktiv", "Solgt"]);
  });
});
