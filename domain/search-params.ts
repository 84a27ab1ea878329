// The search's parameters, field by field, as the URL query and the API carry them: one rule each,
// used by the API's schema (domain/schemas/search.ts) and by the search page to read its URL
// (domain/searchUrl.ts) without loading zod on the page's first paint (decision 102).
import { PRICE_MAX, PRICE_MIN } from "./limits";
import { normalizeAgeRange, normalizeCategory, type AgeRange, type CategoryKey } from "./taxonomy";

export const SORTS = ["relevance", "newest", "price_asc", "price_desc"] as const;
export type SearchSort = (typeof SORTS)[number];

const list = (value: unknown) =>
  (Array.isArray(value) ? value.join(",") : typeof value === "string" ? value : "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);

/** The free text, trimmed (at most 200 characters, which the schema checks before). */
export const searchText = (v: string | undefined): string => v?.trim() ?? "";

/** Known categories only (old keys mapped), each once. */
export const searchCategories = (v: unknown): CategoryKey[] => [
  ...new Set(
    list(v)
      .map(normalizeCategory)
      .filter((c): c is CategoryKey => c !== null),
  ),
];

/** Condition ratings 1–5, each once. */
export const searchConditions = (v: unknown): number[] => [
  ...new Set(
    list(v)
      .map(Number)
      .filter((n) => Number.isInteger(n) && n >= 1 && n <= 5),
  ),
];

/** Known age ranges only (old keys mapped), each once. */
export const searchAges = (v: unknown): AgeRange[] => [
  ...new Set(
    list(v)
      .map(normalizeAgeRange)
      .filter((a): a is AgeRange => a !== null),
  ),
];

/** Whole kroner within the bounds, or null (empty or not a number). */
export function searchPrice(v: number | string | undefined): number | null {
  if (v === undefined || v === "") return null;
  const n = Math.round(Number(v));
  return Number.isFinite(n) ? Math.min(Math.max(n, PRICE_MIN), PRICE_MAX) : null;
}

/** true, "true" and "1" are on; anything else off. */
export const searchFlag = (v: boolean | string | undefined): boolean => v === true || v === "true" || v === "1";

/** The postal code's digits, at most four. */
export const searchPostal = (v: string | undefined): string => (v ?? "").replace(/\D/g, "").slice(0, 4);
