import { MAX_IMAGE_BYTES } from "../../domain/limits";
import { AppError } from "../lib/errors";

export type ImageType = { mime: "image/jpeg" | "image/png" | "image/webp"; ext: "jpg" | "png" | "webp" };

/** The image type from the file's first bytes (never from its name or declared type). */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { mime: "image/jpeg", ext: "jpg" };
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return { mime: "image/png", ext: "png" };
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.slice(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return { mime: "image/webp", ext: "webp" };
  return null;
}

export const TOO_LARGE_MESSAGE = "Filen er for stor (maks 5MB)";
export const WRONG_TYPE_MESSAGE = "Kun JPEG, PNG og WebP er tillatt";

/** Read a request body, refusing (413) as soon as it passes the limit instead of buffering it all. */
export async function readLimited(body: ReadableStream<Uint8Array> | null, declaredLength: number | null): Promise<Uint8Array> {
  if (declaredLength !== null && declaredLength > MAX_IMAGE_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", TOO_LARGE_MESSAGE);
  if (!body) throw new AppError("VALIDATION", "Mangler bildefil");
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_IMAGE_BYTES) {
      await reader.cancel();
      throw new AppError("PAYLOAD_TOO_LARGE", TOO_LARGE_MESSAGE);
    }
    chunks.push(value);
  }
  if (total === 0) throw new AppError("VALIDATION", "Mangler bildefil");
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** Store an uploaded photo under the owner's prefix with a server-chosen key and type. */
export async function storeImage(bucket: R2Bucket, userId: string, bytes: Uint8Array): Promise<{ key: string; type: string }> {
  const type = sniffImageType(bytes);
  if (!type) throw new AppError("UNSUPPORTED_MEDIA_TYPE", WRONG_TYPE_MESSAGE);
  const random = crypto.randomUUID().replace(/-/g, "").slice(0, 12);
  const key = `${userId}/${Date.now()}-${random}.${type.ext}`;
  await bucket.put(key, bytes, { httpMetadata: { contentType: type.mime, cacheControl: "public, max-age=3600" } });
  return { key, type: type.mime };
}

export function ownsImageKey(userId: string, key: string): boolean {
  return key.startsWith(`${userId}/`) && !key.includes("..") && key.length < 200;
}
