// Listings API: uploads checked by content, and creating listings: mass assignment ignored, prices,
// text cleaning, the photos a listing may have.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, pngPhoto } from "../../factories";
import { PRICE_MESSAGE } from "../../../domain/schemas/listing";
import { Client, errorOf } from "../support/http";
import { form, JPEG, signedIn, upload, uploadKey } from "../support/listings";

let PNG: Uint8Array;
beforeAll(async () => {
  PNG = await pngPhoto();
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
