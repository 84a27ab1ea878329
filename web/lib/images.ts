import { cardPhoto, photoPath } from "../../domain/photos";

/** Stock illustration for listings without photos (public/placeholder-toy.svg). */
export const PLACEHOLDER_IMAGE = "/placeholder-toy.svg";

/** The Worker serves listing photos at /images/{key}; keys look like `{userId}/{file}`. */
export function listingImageUrl(key: string): string {
  return photoPath(key);
}

/** The key of a listing's first photo, if it has one. */
export function firstImageKey(images: readonly string[] | null | undefined): string | null {
  return images?.find((k) => k.length > 0) ?? null;
}

/** The first photo as a thumbnail: the card's 360 px copy (decision 123), not the uploaded photo. */
export function firstImageUrl(images: readonly string[] | null | undefined): string | null {
  const key = firstImageKey(images);
  return key ? cardPhoto(key).src : null;
}
