// Serving a listing photo's smaller copies at /images/{key}/{variant} (docs/decisions/123-photo-variants.md):
// the photo's own access rule, a year in browsers (immutable) and an hour at the edge and in shared
// caches, a redirect to the photo itself for a photo without copies, and the pages' preloads naming
// the copy their <img> chooses.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createListing, createUser, jpegPhoto, signedInClient } from "../../factories";
import { Client } from "../support/http";

const YEAR_IN_BROWSERS = "public, max-age=31536000, s-maxage=3600, immutable";

async function ownerWithUpload(): Promise<{ owner: Client; ownerId: string; key: string }> {
  const user = await createUser();
  const owner = await signedInClient(user.id);
  const res = await owner.request("/api/images", { method: "POST", body: jpegPhoto(64, 48), headers: { "Content-Type": "image/jpeg" } });
  expect(res.status).toBe(201);
  return { owner, ownerId: user.id, key: ((await res.json()) as { key: string }).key };
}

async function look(path: string, client = new Client(), init: RequestInit = {}) {
  const res = await client.get(path, init);
  const body = new Uint8Array(await res.arrayBuffer());
  const h = (name: string) => res.headers.get(name);
  return { status: res.status, body, h };
}

describe("a public listing's copy", () => {
  it("is WebP, kept a year by browsers and an hour by shared caches and the edge, which answers it the second time and a 304 for its ETag", async () => {
    const { ownerId, key } = await ownerWithUpload();
    await createListing({ userId: ownerId, images: [key] });
    const path = `/images/${key}/360.webp`;
    const first = await look(path);
    expect([first.status, first.h("Content-Type"), first.h("Cache-Control"), first.h("X-Edge-Cache")]).toEqual([
      200,
      "image/webp",
      YEAR_IN_BROWSERS,
      "MISS",
    ]);
    expect([first.h("CDN-Cache-Control"), first.h("X-Content-Type-Options")]).toEqual([
      "public, s-maxage=3600, stale-while-revalidate=60",
      "nosniff",
    ]);
    // Gone from R2: only the stored copy can answer now, signed in or not.
    await env.IMAGES.delete(`${key}/360.webp`);
    for (const client of [new Client(), await signedInClient((await createUser()).id)]) {
      const again = await look(path, client);
      expect([again.status, again.h("Cache-Control"), again.h("X-Edge-Cache")]).toEqual([200, YEAR_IN_BROWSERS, "HIT"]);
      expect(again.body).toEqual(first.body);
    }
    const revalidated = await look(path, new Client(), { headers: { "If-None-Match": first.h("ETag") ?? "" } });
    expect([revalidated.status, revalidated.body.length]).toEqual([304, 0]);
    // The photo itself keeps the hour it always had (decision 007).
    expect((await look(`/images/${key}`)).h("Cache-Control")).toBe("public, max-age=3600");
  });
});

describe("who sees a copy is who sees the photo", () => {
  it("a fresh upload: its owner, privately; nobody else", async () => {
    const { owner, key } = await ownerWithUpload();
    const mine = await look(`/images/${key}/800.webp`, owner);
    expect([mine.status, mine.h("Cache-Control"), mine.h("Vary"), mine.h("X-Edge-Cache")]).toEqual([
      200,
      "private, max-age=3600",
      "Cookie",
      "BYPASS",
    ]);
    expect((await look(`/images/${key}/800.webp`)).status).toBe(404);
    expect((await look(`/images/${key}/800.webp`, await signedInClient((await createUser()).id))).status).toBe(404);
  });

  it("a hidden listing's: the owner and moderators, privately; visitors get 404, also after the owner looked", async () => {
    const { owner, ownerId, key } = await ownerWithUpload();
    await createListing({ userId: ownerId, images: [key], isHidden: true });
    const moderator = await signedInClient((await createUser({ role: "moderator" })).id);
    for (const client of [owner, moderator]) {
      const seen = await look(`/images/${key}/1200.webp`, client);
      expect([seen.status, seen.h("Cache-Control")]).toEqual([200, "private, max-age=3600"]);
    }
    expect((await look(`/images/${key}/1200.webp`)).status).toBe(404);
  });

  it("a copy of a photo that does not exist, or a name that is no copy, is 404", async () => {
    const { owner, ownerId, key } = await ownerWithUpload();
    const missing = `${ownerId}/1700000000000-finnes-ikke.jpg`;
    await createListing({ userId: ownerId, images: [key, missing] });
    for (const path of [`${missing}/360.webp`, `${key}/500.webp`, `${key}/400.png`, `${key}/360.webp/360.webp`, `${key}/`]) {
      // Not followed: a redirect to a photo that then answers 404 would hide an answer that should be 404 itself.
      expect((await look(`/images/${path}`, owner, { redirect: "manual" })).status, path).toBe(404);
      expect((await look(`/images/${path}`, new Client(), { redirect: "manual" })).status, path).toBe(404);
    }
  });
});

describe("a photo without copies (uploaded before them)", () => {
  it("is answered with a redirect to the photo itself, stored nowhere, and the photo loads", async () => {
    const owner = await createUser();
    const key = `${owner.id}/1700000000000-gammel.jpg`;
    await env.IMAGES.put(key, jpegPhoto(), { httpMetadata: { contentType: "image/jpeg" } });
    await createListing({ userId: owner.id, images: [key] });
    for (let i = 0; i < 2; i++) {
      const res = await new Client().get(`/images/${key}/360.webp`, { redirect: "manual" });
      expect([res.status, res.headers.get("Location"), res.headers.get("Cache-Control"), res.headers.get("X-Edge-Cache")]).toEqual([
        302,
        `/images/${key}`,
        "public, max-age=3600",
        "BYPASS",
      ]);
    }
    const photo = await look(`/images/${key}`);
    expect([photo.status, photo.h("Content-Type")]).toEqual([200, "image/jpeg"]);
  });
});

describe("a page's preload names the copy its <img> chooses", () => {
  it("the slug page: the screen's copies with the carousel's sizes, and its first-screen <img> has the same", async () => {
    const { ownerId, key } = await ownerWithUpload();
    const row = await createListing({ userId: ownerId, images: [key] });
    const html = await (await new Client().get(`/annonse/${row.seoSlug}`, { headers: { Accept: "text/html" } })).text();
    const photo = `/images/${key}`;
    const srcset = `${photo}/360.webp 360w, ${photo}/800.webp 800w, ${photo}/1200.webp 1200w`;
    const sizes = "(min-width: 1024px) 560px, (min-width: 768px) 54vw, 100vw";
    expect(html).toContain(`<link rel="preload" as="image" imagesrcset="${srcset}" imagesizes="${sizes}" fetchpriority="high">`);
    // (HTML attribute names are case-insensitive; the renderer writes React's spelling, srcSet.)
    const img = html.match(/<img [^>]*fetchpriority="high"[^>]*>/i)?.[0] ?? "";
    expect(img.toLowerCase()).toContain(`srcset="${srcset}"`.toLowerCase());
    expect(img).toContain(`sizes="${sizes}"`);
    // No request for the uploaded photo itself: nothing on the page names it but the meta tags for sharing.
    expect(html.replace(/<meta [^>]*>/g, "").replace(/<script[^>]*>[\s\S]*?<\/script>/g, "")).not.toContain(`${photo}"`);
  });
});
