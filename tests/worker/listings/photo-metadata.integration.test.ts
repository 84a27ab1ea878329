// Photos lose their metadata on upload (docs/security.md "Uploads"): a phone photo with GPS tags, XMP,
// IPTC and comments goes in through the API; what R2 stores is the same picture, byte for byte,
// without them (docs/decisions/016-photo-metadata.md).
import { env } from "cloudflare:workers";
import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";
import { stripImageMetadata } from "../../../worker/lib/image-metadata";
import {
  CAMERA_MAKE,
  containsBytes,
  createUser,
  exifWithGps,
  gpsLatitudeOf,
  jpegPhoto,
  jpegSegments,
  jpegWithMetadata,
  PHOTO_LOCATION,
  pngChunks,
  pngPhoto,
  pngWithMetadata,
  webpChunks,
  webpPhoto,
  webpWithMetadata,
} from "../../factories";
import { Client, errorOf } from "../support/http";

const PASSWORD = "hemmelig123";

async function signedIn() {
  const user = await createUser({ password: PASSWORD });
  const client = new Client();
  expect((await client.post("/api/auth/signin", { email: user.email, password: PASSWORD })).status).toBe(200);
  return { client, user };
}

async function uploadAndRead(client: Client, bytes: Uint8Array): Promise<{ key: string; stored: Uint8Array; type: string }> {
  const res = await client.request("/api/images", { method: "POST", body: bytes, headers: { "Content-Type": "application/octet-stream" } });
  expect(res.status).toBe(201);
  const { key, type } = (await res.json()) as { key: string; type: string };
  const object = await env.IMAGES.get(key);
  return { key, type, stored: new Uint8Array(await object!.arrayBuffer()) };
}

/** Everything that would tell where the photo was taken or with what. */
function expectNoMetadata(bytes: Uint8Array) {
  for (const needle of [
    "Exif",
    "MM\u0000*",
    CAMERA_MAKE,
    "xmpmeta",
    "GPSLatitude",
    "Photoshop 3.0",
    "8BIM",
    "Storgata",
    "Oslo",
    "XML:com.adobe.xmp",
  ]) {
    expect(containsBytes(bytes, needle), needle).toBe(false);
  }
}

describe("the fixtures carry what a phone writes", () => {
  it("EXIF with GPS coordinates of a home in Oslo", () => {
    expect(gpsLatitudeOf(exifWithGps())).toBeCloseTo(PHOTO_LOCATION.latitude, 4);
    const photo = jpegWithMetadata(jpegPhoto());
    expect(jpegSegments(photo)).toEqual(expect.arrayContaining(["E0", "E1", "ED", "E2", "FE"]));
    expect(containsBytes(photo, CAMERA_MAKE)).toBe(true);
    // Still a picture a decoder reads.
    expect(jpeg.decode(photo, { useTArray: true })).toMatchObject({ width: 16, height: 12 });
  });
});

describe("uploads strip metadata without re-encoding", () => {
  it("JPEG: EXIF/GPS, XMP, IPTC, MPF, comments and appended images are gone; the picture is byte-identical", async () => {
    const { client } = await signedIn();
    const clean = jpegPhoto();
    const { stored, type } = await uploadAndRead(client, jpegWithMetadata(clean));
    expect(type).toBe("image/jpeg");
    expectNoMetadata(stored);
    expect(jpegSegments(stored)).not.toEqual(expect.arrayContaining(["E1"]));
    expect(stored).toEqual(clean);
    const decoded = jpeg.decode(stored, { useTArray: true });
    expect(decoded).toMatchObject({ width: 16, height: 12 });
    expect(decoded.data).toEqual(jpeg.decode(clean, { useTArray: true }).data);
  });

  it("PNG: eXIf, tEXt, zTXt, iTXt, tIME, private chunks and trailing bytes are gone; every CRC still holds", async () => {
    const { client } = await signedIn();
    const clean = await pngPhoto();
    const dirty = await pngWithMetadata(clean);
    expect(pngChunks(dirty).map((c) => c.type)).toEqual(expect.arrayContaining(["eXIf", "tEXt", "zTXt", "iTXt", "tIME", "prVt"]));
    const { stored, type } = await uploadAndRead(client, dirty);
    expect(type).toBe("image/png");
    expectNoMetadata(stored);
    expect(pngChunks(stored).map((c) => c.type)).toEqual(["IHDR", "sRGB", "pHYs", "IDAT", "IEND"]);
    expect(pngChunks(stored).every((c) => c.crcOk)).toBe(true);
    expect(stored).toEqual(clean);
  });

  it("WebP: EXIF and XMP chunks are gone, their VP8X flags cleared and the RIFF size fixed", async () => {
    const { client } = await signedIn();
    const dirty = webpWithMetadata();
    expect(webpChunks(dirty)).toMatchObject({ types: ["VP8X", "VP8 ", "EXIF", "XMP ", "LOCA"], vp8xFlags: 0x0c });
    const { stored, type } = await uploadAndRead(client, dirty);
    expect(type).toBe("image/webp");
    expectNoMetadata(stored);
    expect(webpChunks(stored)).toEqual({ types: ["VP8X", "VP8 "], vp8xFlags: 0, riffSizeOk: true });
    expect(stored).toEqual(webpPhoto());
  });

  it("a file that only starts like an image is refused with a Norwegian message and nothing is stored", async () => {
    const { client, user } = await signedIn();
    const truncated = jpegWithMetadata(jpegPhoto()).subarray(0, 60); // cut inside the EXIF segment
    const fakePng = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(40).fill(1)]);
    for (const bytes of [truncated, fakePng]) {
      const res = await client.request("/api/images", { method: "POST", body: bytes, headers: { "Content-Type": "image/jpeg" } });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toBe("Bildet er skadet eller ufullstendig. Prøv et annet bilde.");
    }
    expect((await env.IMAGES.list({ prefix: `${user.id}/` })).objects).toHaveLength(0);
  });
});

describe("stripImageMetadata", () => {
  it("leaves a file without metadata exactly as it was", async () => {
    const jpg = jpegPhoto();
    const png = await pngPhoto();
    expect(stripImageMetadata(jpg, "image/jpeg")).toEqual(jpg);
    expect(stripImageMetadata(png, "image/png")).toEqual(png);
    expect(stripImageMetadata(webpPhoto(), "image/webp")).toEqual(webpPhoto());
  });

  it("keeps a simple (VP8-only) WebP", () => {
    const simple = Uint8Array.from(atob("UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA"), (c) => c.charCodeAt(0));
    expect(stripImageMetadata(simple, "image/webp")).toEqual(simple);
  });
});
