/** Stock illustration for listings without photos (public/placeholder-toy.svg). */
export const PLACEHOLDER_IMAGE = "/placeholder-toy.svg";

/** The Worker serves listing photos at /images/{key}; keys look like `{userId}/{file}`. */
export function listingImageUrl(key: string): string {
  return `/images/${key.split("/").map(encodeURIComponent).join("/")}`;
}

export function firstImageUrl(images: readonly string[] | null | undefined): string | null {
  const key = images?.find((k) => k.length > 0);
  return key ? listingImageUrl(key) : null;
}
