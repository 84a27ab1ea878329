// Listings API (listings issue): uploads checked by content, create/edit/delete with ownership,
// mass assignment ignored, lifecycle, slug resolution, favourites and image visibility.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createListing, createUser, jpegPhoto, pngPhoto } from "../../factories";
import { parsePhotoVariantKey } from "../../../domain/photos";
import { RATE_RULES } from "../../../domain/rate-limits";
import { PRICE_MESSAGE } from "../../../domain/schemas/listing";
import { app } from "../../../worker/app";
import { Client, errorOf, ORIGIN } from "../support/http";
import { countAttempts, rateLimitRows, withinOneWindow } from "../support/rate-limits";
import { staleReads } from "../support/race";
import { countingD1 } from "../support/round-trips";
import { favouriteListings } from "../../../worker/features/favourites/favourites";
import { listingsByIds } from "../../../worker/features/listings/listings";

const PASSWORD = "hemmelig123";
const JPEG = jpegPhoto();
let PNG: Uint8Array;
beforeAll(async () => {
  PNG = await pngPhoto();
});

async function signedIn() {
  const user = await createUser({ password: PASSWORD });
  const client = new Client();
  expect((await client.post("/api/auth/signin", { email: user.email, password: PASSWORD })).status).toBe(200);
  return { client, user };
}

async function upload(client: Client, bytes: Uint8Array, type = "image/jpeg") {
  return client.request("/api/images", { method: "POST", body: bytes, headers: { "Content-Type": type } });
}

async function uploadKey(client: Client, bytes: Uint8Array = JPEG): Promise<string> {
  const res = await upload(client, bytes);
  expect(res.status).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

const form = (images: string[], extra: Record<string, unknown> = {}) => ({
  title: "Lego Duplo togbane",
  description: "Komplett sett med skinner.",
  category: "lego",
  age_range: "3-5 år",
  condition_rating: 4,
  price: "350",
  is_free: false,
  is_trade_offer: true,
  postal_code: "0150",
  images,
  ...extra,
});

describe("image uploads", () => {
  it("stores JPEG and PNG by content under the owner's id, with the sniffed type", async () => {
    const { client, user } = await signedIn();
    const res = await upload(client, PNG, "image/jpeg");
    expect(res.status).toBe(201);
    const { key, type } = (await res.json()) as { key: string; type: string };
    expect(key.startsWith(`${user.id}/`)).toBe(true);
    expect(key.endsWith(".png")).toBe(true);
    expect(type).toBe("image/png");
    expect((await env.IMAGES.head(key))?.httpMetadata?.contentType).toBe("image/png");
  });

  it("refuses a text file named photo.jpg with 415 and stores nothing", async () => {
    const { client, user } = await signedIn();
    const res = await upload(client, new TextEncoder().encode("this is not an image, just text"));
    expect(res.status).toBe(415);
    expect((await errorOf(res)).message).toBe("Kun JPEG, PNG og WebP er tillatt");
    expect((await env.IMAGES.list({ prefix: `${user.id}/` })).objects).toHaveLength(0);
  });

  it("refuses a 6 MB image with 413 and the spec's message", async () => {
    const { client } = await signedIn();
    const big = new Uint8Array(6 * 1024 * 1024);
    big.set(JPEG);
    const res = await upload(client, big);
    expect(res.status).toBe(413);
    expect((await errorOf(res)).message).toBe("Filen er for stor (maks 5MB)");
  });

  it("requires a session", async () => {
    expect((await upload(new Client(), JPEG)).status).toBe(401);
  });

  it("lets only the owner remove an unused upload; someone else gets 404 and the object stays", async () => {
    const { client } = await signedIn();
    const key = await uploadKey(client);
    const other = await signedIn();
    expect((await other.client.delete(`/api/images/${key}`)).status).toBe(404);
    expect(await env.IMAGES.head(key)).not.toBeNull();
    expect((await client.delete(`/api/images/${key}`)).status).toBe(204);
    expect(await env.IMAGES.head(key)).toBeNull();
  });
});

describe("creating listings", () => {
  it("publishes with uploaded photos and ignores server-owned fields", async () => {
    const { client, user } = await signedIn();
    const keys = [await uploadKey(client), await uploadKey(client)];
    const victim = await createUser();
    const res = await client.post(
      "/api/listings",
      form(keys, {
        user_id: victim.id,
        status: "sold",
        is_hidden: true,
        seo_slug: "hacked",
        payment_enabled: true,
        pricing_mode: "stripe",
      }),
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      user_id: user.id,
      status: "active",
      price: 350,
      is_trade_offer: true,
      payment_enabled: false,
      pricing_mode: "standard",
    });
    expect(body.seo_slug).toMatch(/^lego-duplo-togbane-[0-9a-f]{6}$/);
    const row = await env.DB.prepare("SELECT is_hidden, images FROM listings WHERE id = ?1")
      .bind(body.id)
      .first<{ is_hidden: number; images: string }>();
    expect(row?.is_hidden).toBe(0);
    expect(JSON.parse(row!.images)).toEqual(keys);
  });

  it("stores free as price null and an empty price as 0; maps old category keys", async () => {
    const { client } = await signedIn();
    const key = await uploadKey(client);
    const free = (await (
      await client.post("/api/listings", form([key], { is_free: true, price: "999", category: "cars" }))
    ).json()) as Record<string, unknown>;
    expect(free).toMatchObject({ is_free: true, price: null, category: "biler" });
    const empty = (await (await client.post("/api/listings", form([key], { price: "" }))).json()) as Record<string, unknown>;
    expect(empty.price).toBe(0);
  });

  it.each([
    [{ title: "ab" }, "Tittel må være minst 3 tegn"],
    [{ category: "" }, "Velg en kategori"],
    [{ age_range: "" }, "Velg aldersgruppe"],
    [{ postal_code: "12" }, "Postnummer må være minst 4 siffer"],
    [{ price: "0x10" }, PRICE_MESSAGE],
    [{ price: "1e3" }, PRICE_MESSAGE],
    [{ title: "\u0000\u0000a\u0000" }, "Tittel må være minst 3 tegn"],
  ])("rejects %j with %s and stores nothing", async (patch, message) => {
    const { client, user } = await signedIn();
    const key = await uploadKey(client);
    const res = await client.post("/api/listings", form([key], patch));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(message);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM listings WHERE user_id = ?1").bind(user.id).first()).toEqual({ n: 0 });
  });

  it("stores titles and descriptions without control characters", async () => {
    const { client } = await signedIn();
    const key = await uploadKey(client);
    const res = await client.post(
      "/api/listings",
      form([key], { title: "Lego\u0000 Duplo\u001b", description: "Linje 1\r\nLinje 2\u0000" }),
    );
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(await env.DB.prepare("SELECT title, description FROM listings WHERE id = ?1").bind(id).first()).toEqual({
      title: "Lego Duplo",
      description: "Linje 1\nLinje 2",
    });
  });

  it("needs at least one photo, at most five, and only the user's own uploads", async () => {
    const { client } = await signedIn();
    expect((await errorOf(await client.post("/api/listings", form([])))).message).toBe("Du må laste opp minst ett bilde");
    const six = await Promise.all(Array.from({ length: 6 }, () => uploadKey(client)));
    expect((await errorOf(await client.post("/api/listings", form(six)))).message).toBe("For mange bilder");
    const other = await signedIn();
    const foreign = await uploadKey(other.client);
    expect((await client.post("/api/listings", form([foreign]))).status).toBe(400);
    expect((await client.post("/api/listings", form([`${other.user.id}/../x.jpg`]))).status).toBe(400);
  });

  it("requires a session", async () => {
    expect((await new Client().post("/api/listings", form(["x/y.jpg"]))).status).toBe(401);
  });
});

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
