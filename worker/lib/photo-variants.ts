// The smaller copies of a listing photo (docs/decisions/123-photo-variants.md): made once at upload
// through Cloudflare Images (the IMAGE_TRANSFORMS binding; locally Wrangler's offline version) and
// kept in R2 beside the photo, so a card loads 360 px instead of the 1,600 px upload. Also used by
// the seed (scripts/seed.ts) with the binding of its platform proxy.
import { IMAGE_CACHE_SECONDS } from "../../domain/limits";
import { PHOTO_VARIANTS, photoVariantKey, type PhotoVariant } from "../../domain/photos";
import { imageSize } from "./image-size";
import { sniffImageType } from "./photo-upload";

/** What of the Images binding this needs (the Worker's `ImagesBinding` and the seed's proxy both fit). */
export interface PhotoTransforms {
  input(stream: ReadableStream<Uint8Array>): {
    transform(transform: { width: number; fit: "scale-down" }): {
      output(options: { format: PhotoVariant["format"]; quality: number }): Promise<{ response(): Response }>;
    };
  };
}

/** What of an R2 bucket this needs. */
export interface PhotoBucket {
  put(key: string, value: Uint8Array, options: { httpMetadata: { contentType: string; cacheControl: string } }): Promise<unknown>;
}

/** A variant's URL names one image for good (the photo's key is never reused): browsers keep it a year. */
export const VARIANT_BROWSER_SECONDS = 365 * 24 * 3600;
/**
 * Browsers keep a public variant a year without asking again; shared caches (s-maxage) an hour, as
 * long as the photo itself, so a listing hidden or deleted is gone from them as soon as before.
 */
export const VARIANT_CACHE_CONTROL = `public, max-age=${VARIANT_BROWSER_SECONDS}, s-maxage=${IMAGE_CACHE_SECONDS}, immutable`;

/**
 * Encoder quality. The offline binding takes none and uses libvips' default (WebP 80), so the same
 * value keeps the local bytes, which the tests and the image benchmark measure, close to production's.
 */
const QUALITY = 80;

export interface MadeVariant {
  variant: PhotoVariant;
  bytes: Uint8Array;
  contentType: string;
}

/**
 * Every variant of a photo (its cleaned bytes and type), each at most its width wide, never enlarged.
 * The copies at least as wide as the photo would all be the photo at its own width: that one is made
 * once and stored under each of their names (a transformation less per name, billed in production).
 * One that the platform cannot make (over the plan's monthly transformations, an image it cannot
 * read) is logged and left out: the image route then answers with the photo itself.
 */
export async function makePhotoVariants(transforms: PhotoTransforms, photo: Uint8Array, mime: string): Promise<MadeVariant[]> {
  const width = imageSize(photo, mime)?.width ?? Number.POSITIVE_INFINITY;
  const atFullSize = PHOTO_VARIANTS.filter((v) => v.width >= width);
  const groups: PhotoVariant[][] = [
    ...PHOTO_VARIANTS.filter((v) => v.width < width).map((v) => [v]),
    ...(atFullSize.length ? [atFullSize] : []),
  ];
  const made = await Promise.all(
    groups.map(async (group): Promise<MadeVariant[]> => {
      const [first] = group;
      try {
        const result = await transforms
          .input(new Blob([photo]).stream())
          .transform({ width: first.width, fit: "scale-down" })
          .output({ format: first.format, quality: QUALITY });
        const bytes = new Uint8Array(await result.response().arrayBuffer());
        // Served with the type its bytes have, never one the platform merely claimed.
        const contentType = sniffImageType(bytes)?.mime;
        if (!contentType) throw new Error(`not an image (${bytes.length} bytes)`);
        return group.map((variant) => ({ variant, bytes, contentType }));
      } catch (error) {
        console.error(
          `Photo variant ${group.map((v) => v.name).join(", ")} could not be made`,
          error instanceof Error ? error.message : error,
        );
        return [];
      }
    }),
  );
  return made.flat();
}

/** Make the variants of the photo `key` and keep them beside it. */
export async function storePhotoVariants(
  bucket: PhotoBucket,
  transforms: PhotoTransforms,
  key: string,
  photo: { bytes: Uint8Array; mime: string },
): Promise<void> {
  const variants = await makePhotoVariants(transforms, photo.bytes, photo.mime);
  await Promise.all(
    variants.map((v) =>
      bucket.put(photoVariantKey(key, v.variant.name), v.bytes, {
        httpMetadata: { contentType: v.contentType, cacheControl: VARIANT_CACHE_CONTROL },
      }),
    ),
  );
}
