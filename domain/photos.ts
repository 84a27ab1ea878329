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

// ---- Variants: the sizes a photo is served at (docs/decisions/123-photo-variants.md) -----------------
// The Worker makes these copies of every listing photo at upload and keeps them beside it in R2 under
// `{photo key}/{variant}`; the image route serves them at `/images/{photo key}/{variant}`. A copy is
// never wider than the photo itself.

/**
 * Every copy the Worker makes of a listing photo, in WebP: the card's width (a 390 px phone's card,
 * 173 CSS px, at 2×, rounded up) and two screen widths (a 390 px phone at 2× and 3×).
 */
export const PHOTO_VARIANTS = [
  { name: "360.webp", width: 360, format: "image/webp" },
  { name: "800.webp", width: 800, format: "image/webp" },
  { name: "1200.webp", width: 1200, format: "image/webp" },
] as const;
export type PhotoVariant = (typeof PHOTO_VARIANTS)[number];
export type PhotoVariantName = PhotoVariant["name"];

const VARIANT_NAMES: ReadonlySet<string> = new Set(PHOTO_VARIANTS.map((v) => v.name));

/** Where a variant of the photo `key` is kept (and served below /images/). */
export function photoVariantKey(key: string, name: PhotoVariantName): string {
  return `${key}/${name}`;
}

/** Every variant key of the photo `key`: what goes when the photo goes. */
export function photoVariantKeys(key: string): string[] {
  return PHOTO_VARIANTS.map((v) => photoVariantKey(key, v.name));
}

/** The photo and variant a variant key names; null for anything else (a photo key itself included). */
export function parsePhotoVariantKey(path: string): { key: string; variant: PhotoVariant } | null {
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  const key = path.slice(0, slash);
  if (slash < 0 || !VARIANT_NAMES.has(name) || !photoKeyOwner(key)) return null;
  return { key, variant: PHOTO_VARIANTS.find((v) => v.name === name)! };
}

/** The address of a listing photo (each path segment encoded). */
export function photoPath(key: string): string {
  return `/images/${key.split("/").map(encodeURIComponent).join("/")}`;
}

export function photoVariantPath(key: string, name: PhotoVariantName): string {
  return photoPath(photoVariantKey(key, name));
}

/**
 * A card's width in the grids: half the screen, a third from `md`, and from `lg` 268–363 px (four
 * columns on search, three on home, the page at most 1152 px wide: 300 stands for both). On a
 * portrait phone (at most 479 px) a card is at most ~195 CSS px wide (173 on a 390 px phone), and the
 * browser is told 120 px: then the 360 px copy counts as 3 device pixels per CSS pixel and every
 * browser takes it even on a 3× screen, where it would otherwise take 800 px for a thumbnail (five
 * times the bytes, for sharpness nobody sees beyond 2×). The CSS sets the card's size, so this moves
 * nothing on the page.
 */
export const CARD_SIZES = "(max-width: 479px) 120px, (min-width: 1024px) 300px, (min-width: 768px) 33vw, 50vw";
/** The listing page's photo: the whole width on phones, 7/12 of the page from `md` (at most 560 px). */
export const SCREEN_SIZES = "(min-width: 1024px) 560px, (min-width: 768px) 54vw, 100vw";

/** How an <img> shows a listing photo: `src` for a browser without srcset, the copies and the layout width. */
export interface PhotoSources {
  src: string;
  srcSet: string;
  sizes: string;
}

const sources = (key: string, names: PhotoVariantName[], sizes: string): PhotoSources => ({
  src: photoVariantPath(key, names[0]),
  srcSet: names.map((name) => `${photoVariantPath(key, name)} ${PHOTO_VARIANTS.find((v) => v.name === name)!.width}w`).join(", "),
  sizes,
});

/** A listing card's photo (also the thumbnails of lists: the card's copy is the smallest). */
export function cardPhoto(key: string): PhotoSources {
  return sources(key, ["360.webp", "800.webp"], CARD_SIZES);
}

/** The listing page's photo: the browser picks the width by `sizes` and the screen's density. */
export function screenPhoto(key: string): PhotoSources {
  return { ...sources(key, ["360.webp", "800.webp", "1200.webp"], SCREEN_SIZES), src: photoVariantPath(key, "800.webp") };
}
