// An uploaded photo, checked and cleaned the one way (decisions 007 and 016): listing photos
// (worker/features/listings/images.ts) and the photos of a problem report
// (worker/features/payments/problem-photos.ts). The type comes from the bytes, never from the
// file's name or declared type; metadata (EXIF with GPS, XMP, IPTC, text chunks) is removed
// without re-encoding.
import { PHOTO_REFUSALS } from "../../domain/photos";
import { readLimited } from "./body";
import { AppError } from "./errors";
import { stripImageMetadata, type ImageMime } from "./image-metadata";

export type ImageType = { mime: ImageMime; ext: "jpg" | "png" | "webp" };

/** The image type from the file's first bytes (never from its name or declared type). */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { mime: "image/jpeg", ext: "jpg" };
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return { mime: "image/png", ext: "png" };
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.slice(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return { mime: "image/webp", ext: "webp" };
  return null;
}

/** The photo's type and its bytes without metadata; anything but JPEG, PNG or WebP is refused (415). */
export function cleanPhoto(bytes: Uint8Array): { bytes: Uint8Array; type: ImageType } {
  const type = sniffImageType(bytes);
  if (!type) throw new AppError("UNSUPPORTED_MEDIA_TYPE", PHOTO_REFUSALS.wrongType);
  return { bytes: stripImageMetadata(bytes, type.mime), type };
}

/** A photo upload's raw body (at most 5 MB, refused as soon as it passes), checked and cleaned. */
export async function readPhotoUpload(request: Request): Promise<{ bytes: Uint8Array; type: ImageType }> {
  const length = request.headers.get("Content-Length");
  return cleanPhoto(await readLimited(request.body, length ? Number(length) : null));
}

/** A server-chosen file name for a photo: `{timestamp}-{random}.{ext}`. */
export function photoFileName(type: ImageType): string {
  const random = crypto.randomUUID().replace(/-/g, "").slice(0, 12);
  return `${Date.now()}-${random}.${type.ext}`;
}
