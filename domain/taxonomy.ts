// The one taxonomy used by worker and web (the prototype's two lists were a defect; docs/product.md "Listings", decision 003).
import type { HandoverMode, ParcelSize } from "./carriers";
export const CATEGORIES = [
  { key: "lego", label: "Lego" },
  { key: "biler", label: "Biler" },
  { key: "dukker", label: "Dukker" },
  { key: "puslespill", label: "Puslespill" },
  { key: "spill", label: "Spill" },
  { key: "baby", label: "Baby" },
  { key: "sport", label: "Sport" },
  { key: "elektronikk", label: "Elektronikk" },
  { key: "kreativt", label: "Kreativt" },
  { key: "ute-lek", label: "Ute-lek" },
  { key: "annet", label: "Annet" },
] as const;

export type CategoryKey = (typeof CATEGORIES)[number]["key"];
export const CATEGORY_KEYS = CATEGORIES.map((c) => c.key) as [CategoryKey, ...CategoryKey[]];

/** Old prototype keys, accepted on input and stored as the new key. */
export const CATEGORY_ALIASES: Record<string, CategoryKey> = {
  cars: "biler",
  dolls: "dukker",
  puzzles: "puslespill",
  games: "spill",
};

export function normalizeCategory(value: string): CategoryKey | null {
  const v = value.trim().toLowerCase();
  if ((CATEGORY_KEYS as string[]).includes(v)) return v as CategoryKey;
  // Own keys only: "constructor" and its kind are every object's, and no alias.
  return Object.hasOwn(CATEGORY_ALIASES, v) ? CATEGORY_ALIASES[v] : null;
}

export function categoryLabel(key: string): string {
  return CATEGORIES.find((c) => c.key === key)?.label ?? key;
}

export const AGE_RANGES = ["0-2 år", "3-5 år", "6-8 år", "9-12 år", "12+ år"] as const;
export type AgeRange = (typeof AGE_RANGES)[number];

/** Old prototype age groups mapped to the unified ones (docs/product.md "Listings", decision 003). */
export const AGE_RANGE_ALIASES: Record<string, AgeRange> = {
  "2-5 år": "3-5 år",
  "5-8 år": "6-8 år",
  "8-12 år": "9-12 år",
  "9+ år": "9-12 år",
};

export function normalizeAgeRange(value: string): AgeRange | null {
  const v = value.trim();
  if ((AGE_RANGES as readonly string[]).includes(v)) return v as AgeRange;
  // Own keys only: "valueOf" and its kind are every object's, and no alias.
  return Object.hasOwn(AGE_RANGE_ALIASES, v) ? AGE_RANGE_ALIASES[v] : null;
}

export const CONDITIONS = [
  { rating: 5, label: "Utmerket", description: "Som ny" },
  { rating: 4, label: "Meget god", description: "Minimale bruksspor" },
  { rating: 3, label: "God", description: "Lette bruksspor" },
  { rating: 2, label: "Brukbar", description: "Synlige bruksspor" },
  { rating: 1, label: "Slitt", description: "Tydelige bruksspor" },
] as const;

export function conditionLabel(rating: number): string {
  return CONDITIONS.find((c) => c.rating === rating)?.label ?? "";
}

export const LISTING_STATUSES = ["active", "reserved", "sold", "given_away", "traded", "deleted"] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const PRICING_MODES = ["standard", "stripe", "vipps", "marketplace"] as const;
export type PricingMode = (typeof PRICING_MODES)[number];

/**
 * How a toy can change hands and the parcel sizes, as the wizard, the card and the listing page
 * show them (the rules: domain/carriers.ts, which re-exports these). Here, beside the listing's
 * other words, so the card and the listing page load them in the chunk they already load rather
 * than in a shared chunk with the form's rules (the listing page's first load is held by a ratchet).
 */
export const HANDOVER_LISTING_LABELS: Record<HandoverMode, string> = { in_person: "Hentes", shipping: "Kan sendes" };
export const PARCEL_SIZE_LABELS: Record<ParcelSize, string> = { small: "Liten pakke", medium: "Medium pakke", large: "Stor pakke" };
