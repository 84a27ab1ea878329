// A listing photo's smaller copies (docs/decisions/123-photo-variants.md): made at upload by the
// Images binding (Wrangler's offline version here) from the cleaned photo, kept in R2 beside it, and
// removed with it; a refused upload leaves nothing behind.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PHOTO_VARIANTS, photoVariantKeys } from "../../../domain/photos";
import { imageSize } from "../../../worker/lib/image-size";
import { makePhotoVariants, type PhotoTransforms } from "../../../worker/lib/photo-variants";
import { createListing, createUser, jpegPhoto, pngChunk, pngPhoto, signedInClient } from "../../factories";
import { allowConsoleError } from "../support/console-guard";
import { Client } from "../support/http";
import { editFormOf } from "../support/listing-form";

const PASSWORD = "riktig-passord-123";

/** `password`: a real one (slow to hash), for the account's deletion. */
async function uploader({ password }: { password?: string } = {}) {
  const user = await createUser({ password });
  return { user, client: await signedInClient(user.id) };
}

async function upload(client: Client, bytes: Uint8Array): Promise<Response> {
  return client.request("/api/images", { method: "POST", body: bytes, headers: { "Content-Type": "application/octet-stream" } });
}

async function uploaded(client: Client, bytes: Uint8Array): Promise<string> {
  const res = await upload(client, bytes);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

/** Every object under the user's prefix. */
async function objectsOf(userId: string): Promise<string[]> {
  return (await env.IMAGES.list({ prefix: `${userId}/` })).objects.map((o) => o.key).sort();
}

/** Which of the photo and its copies are in R2. */
async function stored(key: string): Promise<string[]> {
  const present = await Promise.all([key, ...photoVariantKeys(key)].map(async (k) => ((await env.IMAGES.head(k)) ? k : null)));
  return present.filter((k): k is string => k !== null);
}

describe("an upload makes the copies", () => {
  it("WebP copies 360 and 800 px wide of a 1000 px photo, and one at its own 1000 px (never enlarged), proportions kept", async () => {
    const { client, user } = await uploader();
    const key = await uploaded(client, jpegPhoto(1000, 100));
    expect(await objectsOf(user.id)).toEqual([key, `${key}/1200.webp`, `${key}/360.webp`, `${key}/800.webp`]);
    const sizes: Record<string, unknown> = {};
    for (const variant of PHOTO_VARIANTS) {
      const object = await env.IMAGES.get(`${key}/${variant.name}`);
      const bytes = new Uint8Array(await object!.arrayBuffer());
      // The type comes from the bytes: RIFF…WEBP, and so it is stored.
      expect(String.fromCharCode(...bytes.slice(8, 12)), variant.name).toBe("WEBP");
      expect(object!.httpMetadata?.contentType).toBe("image/webp");
      sizes[variant.name] = imageSize(bytes, "image/webp");
    }
    expect(sizes).toEqual({
      "360.webp": { width: 360, height: 36 },
      "800.webp": { width: 800, height: 80 },
      "1200.webp": { width: 1000, height: 100 },
    });
  });

  it("copies at least as wide as the photo are the photo at its own width, made once for all of them", async () => {
    const { client } = await uploader();
    const key = await uploaded(client, jpegPhoto(500, 50));
    const bytes = async (name: string) => new Uint8Array(await (await env.IMAGES.get(`${key}/${name}`))!.arrayBuffer());
    const [small, middle, large] = [await bytes("360.webp"), await bytes("800.webp"), await bytes("1200.webp")];
    expect([imageSize(small, "image/webp"), imageSize(middle, "image/webp")]).toEqual([
      { width: 360, height: 36 },
      { width: 500, height: 50 },
    ]);
    expect(large).toEqual(middle);
    // Asked of the platform twice (360, and 500 for both), not three times: each call is billed.
    let calls = 0;
    const counting: PhotoTransforms = {
      input: (stream) => {
        calls++;
        return env.IMAGE_TRANSFORMS.input(stream);
      },
    };
    expect((await makePhotoVariants(counting, jpegPhoto(500, 50), "image/jpeg")).map((v) => v.variant.name)).toEqual([
      "360.webp",
      "800.webp",
      "1200.webp",
    ]);
    expect(calls).toBe(2);
  });

  it("refuses what is not a photo (415) or too large (413) and stores neither it nor any copy", async () => {
    const { client, user } = await uploader();
    const text = new TextEncoder().encode("Dette er ikke et bilde, bare tekst som heter photo.jpg");
    expect((await upload(client, text)).status).toBe(415);
    const huge = new Uint8Array(6 * 1024 * 1024);
    huge.set(jpegPhoto());
    expect((await upload(client, huge)).status).toBe(413);
    expect(await objectsOf(user.id)).toEqual([]);
  });

  it("a photo the platform cannot read is stored without copies: the error is logged, the upload succeeds", async () => {
    const log = allowConsoleError("Photo variant");
    const { client } = await uploader();
    // A PNG whose chunks are whole (the metadata walk accepts it, every CRC holds) but whose picture
    // data does not inflate.
    const png = await pngPhoto(8, 6);
    const signatureAndHeader = png.subarray(0, 8 + 25);
    const photo = new Uint8Array([
      ...signatureAndHeader,
      ...pngChunk("IDAT", new Uint8Array(64).fill(0x5a)),
      ...pngChunk("IEND", new Uint8Array()),
    ]);
    const key = await uploaded(client, photo);
    expect(await stored(key)).toEqual([key]);
    // Its header says 8 px wide: every copy would be the photo at its own width, asked for once.
    expect(log.calls().length).toBe(1);
  });
});

describe("the copies go with the photo", () => {
  it("removing an upload removes its copies; another user's removal of it is refused and leaves them", async () => {
    const { client, user } = await uploader();
    const key = await uploaded(client, jpegPhoto(64, 48));
    const other = await signedInClient((await createUser()).id);
    expect((await other.delete(`/api/images/${key}`)).status).toBe(404);
    expect(await stored(key)).toHaveLength(1 + PHOTO_VARIANTS.length);
    expect((await client.delete(`/api/images/${key}`)).status).toBe(204);
    expect(await objectsOf(user.id)).toEqual([]);
  });

  it("an edit that drops a photo removes it with its copies; the kept photo keeps its own", async () => {
    const { client, user } = await uploader();
    const [kept, dropped] = [await uploaded(client, jpegPhoto(64, 48)), await uploaded(client, jpegPhoto(48, 64))];
    const row = await createListing({ userId: user.id, images: [kept, dropped] });
    const res = await client.request(`/api/listings/${row.id}`, { method: "PUT", json: editFormOf(row, { images: [kept] }) });
    expect(res.status, await res.text()).toBe(200);
    expect(await stored(dropped)).toEqual([]);
    expect(await stored(kept)).toHaveLength(1 + PHOTO_VARIANTS.length);
  });

  it("deleting the account removes every photo and copy", async () => {
    const { client, user } = await uploader({ password: PASSWORD });
    const key = await uploaded(client, jpegPhoto(64, 48));
    await createListing({ userId: user.id, images: [key] });
    const res = await client.request("/api/me", { method: "DELETE", json: { password: PASSWORD } });
    expect(res.status).toBeLessThan(300);
    expect(await stored(key)).toEqual([]);
    expect(await objectsOf(user.id)).toEqual([]);
  });

  it("a listing its owner deletes: its photo and copies are no longer served, not from the edge cache either", async () => {
    const { client, user } = await uploader();
    const key = await uploaded(client, jpegPhoto(64, 48));
    const row = await createListing({ userId: user.id, images: [key] });
    const paths = [`/images/${key}`, ...photoVariantKeys(key).map((k) => `/images/${k}`)];
    const statuses = async () =>
      Promise.all(
        paths.map(async (p) => {
          const res = await new Client().get(p);
          await res.arrayBuffer();
          return res.status;
        }),
      );
    expect(await statuses()).toEqual(paths.map(() => 200));
    expect((await client.delete(`/api/listings/${row.id}`)).status).toBeLessThan(300);
    expect(await statuses()).toEqual(paths.map(() => 404));
  });
});

describe("a new upload's answer", () => {
  it("comes after its copies are stored: the wizard's preview and the published card find them at once", async () => {
    const { client } = await uploader();
    const key = await uploaded(client, jpegPhoto(64, 48));
    const res = await client.get(`/images/${key}/360.webp`);
    expect([res.status, res.headers.get("Content-Type")]).toEqual([200, "image/webp"]);
    await res.arrayBuffer();
  });
});
