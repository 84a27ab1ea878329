import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_LISTING } from "../../../domain/limits";

/** What the file picker offers; the server decides by the bytes in the end. */
export const PHOTO_ACCEPT = "image/jpeg,image/jpg,image/png,image/webp";

const ACCEPTED_TYPES = new Set(["image/jpeg", "image/jpg", "image/png", "image/webp"]);
const ACCEPTED_NAME = /\.(jpe?g|png|webp)$/i;

/** JPEG, JPG, PNG or WebP (docs/product.md "Validation"); a file without a declared type is judged by its name. */
export function isAcceptedPhotoType(file: Pick<File, "type" | "name">): boolean {
  if (file.type) return ACCEPTED_TYPES.has(file.type.toLowerCase());
  return ACCEPTED_NAME.test(file.name);
}

export interface PhotoSelection<F> {
  /** Files to keep, in the order chosen. */
  accepted: F[];
  /** "{fil}: …" lines for the "Feil med bildefiler" toast. */
  fileErrors: string[];
  /** When files were dropped for the 5-photo limit: how many more there was room for. */
  roomLeft: number | null;
}

/**
 * The wizard's rules for newly chosen photos (docs/product.md "Validation"): type and size per file, then at most
 * five in all (`max`: four on a problem report, decision 108); the excess is dropped.
 */
export function selectPhotos<F extends Pick<File, "type" | "name" | "size">>(
  files: readonly F[],
  alreadyChosen: number,
  max: number = MAX_IMAGES_PER_LISTING,
): PhotoSelection<F> {
  const fileErrors: string[] = [];
  const valid: F[] = [];
  for (const file of files) {
    if (!isAcceptedPhotoType(file)) fileErrors.push(`${file.name}: Kun JPEG, PNG og WebP er tillatt`);
    else if (file.size > MAX_IMAGE_BYTES) fileErrors.push(`${file.name}: Filen er for stor (maks 5MB)`);
    else valid.push(file);
  }
  const room = Math.max(0, max - alreadyChosen);
  if (valid.length > room) return { accepted: valid.slice(0, room), fileErrors, roomLeft: room };
  return { accepted: valid, fileErrors, roomLeft: null };
}

/**
 * "Du kan bare laste opp {n} bilder til" (singular for one). With no room left that would read
 * "0 bilder til": then it says the listing already has the most photos it can have.
 */
export function tooManyPhotosText(room: number): string {
  if (room <= 0) return `Du har allerede ${MAX_IMAGES_PER_LISTING} bilder, som er det meste en annonse kan ha`;
  return `Du kan bare laste opp ${room} ${room === 1 ? "bilde" : "bilder"} til`;
}
