// Listing photo keys in R2: `{ownerId}/{name}.{ext}`, chosen by the Worker at upload
// (`{userId}/{timestamp}-{random}.{ext}`). The image route serves nothing else, so other objects
// (sitemaps, raw analytics events) can never be read through it, and a key can never climb out of
// its owner's prefix: no dots but the extension's, no slashes but the owner's.
export const PHOTO_KEY_PATTERN =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/[A-Za-z0-9][A-Za-z0-9_-]{0,99}\.(?:jpg|png|webp)$/;

/** The owner's id when `key` is a well-formed listing photo key, otherwise null. */
export function photoKeyOwner(key: string): string | null {
  return PHOTO_KEY_PATTERN.exec(key)?.[1] ?? null;
}

/** A well-formed photo key under `userId`'s own prefix. */
export function isOwnPhotoKey(userId: string, key: string): boolean {
  return photoKeyOwner(key) === userId;
}

/** What the Worker answers when a photo is refused. */
export const PHOTO_REFUSALS = {
  wrongType: "Kun JPEG, PNG og WebP er tillatt", // 415
  tooLarge: "Filen er for stor (maks 5MB)", // 413
  missing: "Mangler bildefil", // 400
  damaged: "Bildet er skadet eller ufullstendig. Prøv et annet bilde.", // 400
  notRemovable: "Kunne ikke fjerne bilde", // 404
  inUse: "Bildet brukes i en annonse. Fjern det fra annonsen og lagre først.", // 409
  notFound: "Bildet finnes ikke", // 404
} as const;
