import { SLUG_ID_CHARS } from "./limits";

/** Slugified title: lowercase, æ→ae, ø→o, å→a, other diacritics stripped, non-alphanumerics → "-". */
export function slugifyTitle(title: string): string {
  const folded = title
    .toLowerCase()
    .replace(/æ/g, "ae")
    .replace(/ø/g, "o")
    .replace(/å/g, "a")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "");
  const slug = folded
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
  return slug || "annonse";
}

/** `{slugified-title}-{first n hex chars of the id}`; n grows on collision (docs/product.md "Listings"). */
export function listingSlug(title: string, id: string, idChars: number = SLUG_ID_CHARS): string {
  return `${slugifyTitle(title)}-${id.replace(/-/g, "").slice(0, idChars)}`;
}

/** The id prefix recovered from the last hyphen-separated part of a slug. */
export function idPrefixFromSlug(slug: string): string | null {
  const last = slug.split("-").pop() ?? "";
  return /^[0-9a-f]{6,32}$/i.test(last) ? last.toLowerCase() : null;
}
