// Listings API: favourites, and the rate limits on changes, favourites and photo uploads.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createListing, jpegPhoto } from "../../factories";
import { parsePhotoVariantKey } from "../../../domain/photos";
import { RATE_RULES } from "../../../domain/rate-limits";
import { Client, errorOf } from "../support/http";
import { countAttempts, rateLimitRows, withinOneWindow } from "../support/rate-limits";
import { countingD1 } from "../support/round-trips";
import { favouriteListings } from "../../../worker/features/favourites/favourites";
import { listingsByIds } from "../../../worker/features/listings/listings";
import { form, signedIn, upload } from "../support/listings";

describe("favourites", () => {
  it("persists per user and lists only public listings", async () => {
    const { client } = await signedIn();
    const a = await createListing({ title: "Favoritt A" });
    const hidden = await createListing({ isHidden: true });
    expect((await client.request(`/api/favourites/${a.id}`, { method: "PUT" })).status).toBe(204);
    expect((await client.request(`/api/favourites/${a.id}`, { method: "PUT" })).status).toBe(204);
    expect((await client.request(`/api/favourites/${hidden.id}`, { method: "PUT" })).status).toBe(404);
    expect(await (await client.get("/api/favourites/ids")).json()).toEqual([a.id]);
    expect(((await (await client.get("/api/favourites")).json()) as { title: string }[]).map((l) => l.title)).toEqual(["Favoritt A"]);
    await env.DB.prepare("UPDATE listings SET is_hidden = 1 WHERE id = ?1").bind(a.id).run();
    expect(await (await client.get("/api/favourites")).json()).toEqual([]);
    expect((await client.delete(`/api/favourites/${a.id}`)).status).toBe(204);
    expect(await (await client.get("/api/favourites/ids")).json()).toEqual([]);
    expect((await new Client().get("/api/favourites")).status).toBe(401);
  });

  it("lists more favourites than D1 binds parameters (100), most recently favourited first, in one statement", async () => {
    const { client, user } = await signedIn();
    const listings = [];
    for (let i = 0; i < 130; i++) listings.push(await createListing({ title: `Favoritt ${i}` }));
    const gone = await createListing({ title: "Skjult favoritt", isHidden: true });
    // Favourited one after another, a millisecond apart (what 131 hearts over time leave behind).
    const base = Date.parse("2026-11-01T12:00:00.000Z");
    await env.DB.batch(
      [...listings, gone].map((l, i) =>
        env.DB.prepare("INSERT INTO favourites (user_id, listing_id, created_at) VALUES (?1, ?2, ?3)").bind(
          user.id,
          l.id,
          new Date(base + i).toISOString(),
        ),
      ),
    );
    const counted = countingD1(env.DB);
    const cards = await favouriteListings(counted.d1, user.id);
    expect(cards.map((c) => c.id)).toEqual(listings.map((l) => l.id).reverse());
    expect([counted.roundTrips(), counted.statements()]).toEqual([1, 1]);
    const res = await client.get("/api/favourites");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }[]).map((c) => c.id)).toEqual(listings.map((l) => l.id).reverse());
    expect(await (await client.get("/api/favourites/ids")).json()).toHaveLength(131);
  });

  it("reads cards by any number of ids in one statement", async () => {
    const listings = [];
    for (let i = 0; i < 120; i++) listings.push(await createListing({ title: `Kort ${i}` }));
    const ids = [...listings.map((l) => l.id), crypto.randomUUID()];
    const counted = countingD1(env.DB);
    const cards = await listingsByIds(counted.d1, ids);
    expect(cards.map((c) => c.id).sort()).toEqual(listings.map((l) => l.id).sort());
    expect([counted.roundTrips(), counted.statements()]).toEqual([1, 1]);
  });
});

describe("rate limits on changes", () => {
  /** The user's allowance for `rule` used up, as earlier requests would have left it. */
  it.each([
    [
      "editing",
      RATE_RULES.listingEdit,
      (c: Client, id: string) => c.request(`/api/listings/${id}`, { method: "PUT", json: form([], { title: "Endret" }) }),
    ],
    ["a status change", RATE_RULES.listingStatus, (c: Client, id: string) => c.post(`/api/listings/${id}/status`, { status: "reserved" })],
    ["deleting", RATE_RULES.listingStatus, (c: Client, id: string) => c.delete(`/api/listings/${id}`)],
  ] as const)("%s over the limit answers 429 with Retry-After and changes nothing", async (_name, rule, call) => {
    const { client, user } = await signedIn();
    const listing = await createListing({ userId: user.id, title: "Uendret" });
    await countAttempts(rule, user.id);
    const res = await call(client, listing.id);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await errorOf(res)).message).toBe("For mange forsøk. Vent litt og prøv igjen.");
    expect(await env.DB.prepare("SELECT title, status FROM listings WHERE id = ?1").bind(listing.id).first()).toEqual({
      title: "Uendret",
      status: "active",
    });
  });

  it("favourites on the Rate Limiting binding: the request over the limit is 429 with Retry-After, changes nothing, and no request writes a rate-limit row", async () => {
    const { client } = await signedIn();
    const [kept, refused] = [await createListing({ title: "Beholdt" }), await createListing({ title: "Avvist" })];
    const rule = RATE_RULES.favourite;
    const rows = await rateLimitRows();
    await withinOneWindow(rule, 5_000);
    // The whole allowance: adding and removing alike count.
    for (let i = 0; i < rule.limit; i++) {
      const res = await client.request(`/api/favourites/${kept.id}`, { method: i % 2 === 0 ? "PUT" : "DELETE" });
      expect(res.status, `request ${i + 1}`).toBe(204);
    }
    const res = await client.request(`/api/favourites/${refused.id}`, { method: "PUT" });
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe(String(rule.periodSeconds));
    expect((await errorOf(res)).message).toBe("For mange forsøk. Vent litt og prøv igjen.");
    expect(await (await client.get("/api/favourites/ids")).json()).toEqual(rule.limit % 2 === 0 ? [] : [kept.id]);
    expect(await rateLimitRows()).toBe(rows);
    // Another user's allowance is their own.
    const other = await signedIn();
    expect((await other.client.request(`/api/favourites/${refused.id}`, { method: "PUT" })).status).toBe(204);
  });

  it("photo uploads on the Rate Limiting binding: the upload over the limit is 429 with Retry-After, stores nothing, and no upload writes a rate-limit row", async () => {
    const { client, user } = await signedIn();
    const rule = RATE_RULES.upload;
    const photo = jpegPhoto();
    const rows = await rateLimitRows();
    await withinOneWindow(rule, 5_000);
    for (let i = 0; i < rule.limit; i++) expect((await upload(client, photo)).status, `upload ${i + 1}`).toBe(201);
    // Each photo is stored with its smaller copies beside it (decision 123): count the photos.
    const photos = async () => (await env.IMAGES.list({ prefix: `${user.id}/` })).objects.filter((o) => !parsePhotoVariantKey(o.key));
    expect(await photos()).toHaveLength(rule.limit);

    const res = await upload(client, photo);
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe(String(rule.periodSeconds));
    expect((await errorOf(res)).message).toBe("For mange forsøk. Vent litt og prøv igjen.");
    expect(await photos()).toHaveLength(rule.limit);
    expect(await rateLimitRows()).toBe(rows);
  }, 60_000);
});
