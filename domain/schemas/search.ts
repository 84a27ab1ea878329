import { z } from "./zod";
import { normalizeAgeRange, normalizeCategory, type AgeRange, type CategoryKey } from "../taxonomy";
import { PRICE_MAX, PRICE_MIN, SEARCH_PAGE_SIZE } from "../limits";
import type { ListingCard } from "./listing";

export const SORTS = ["relevance", "newest", "price_asc", "price_desc"] as const;
export type SearchSort = (typeof SORTS)[number];

const list = (value: unknown) =>
  (Array.isArray(value) ? value.join(",") : typeof value === "string" ? value : "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);

const bool = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === "true" || v === "1");

/** Whole kroner, where 0 (min) and 10000 (max) mean "no bound" (docs/product.md "Server calls"). */
const price = z
  .union([z.number(), z.string()])
  .optional()
  .transform((v) => {
    if (v === undefined || v === "") return null;
    const n = Math.round(Number(v));
    return Number.isFinite(n) ? Math.min(Math.max(n, PRICE_MIN), PRICE_MAX) : null;
  });

/**
 * Search parameters, as the URL query carries them (`/search?q=lego&categories=lego,biler&…`) and
 * as the API reads them. Unknown category/age values are dropped; old keys are mapped.
 */
export const searchParamsSchema = z.object({
  q: z
    .string()
    .max(200)
    .optional()
    .transform((v) => v?.trim() ?? ""),
  categories: z
    .unknown()
    .optional()
    .transform((v) => [
      ...new Set(
        list(v)
          .map(normalizeCategory)
          .filter((c): c is CategoryKey => c !== null),
      ),
    ]),
  conditions: z
    .unknown()
    .optional()
    .transform((v) => [
      ...new Set(
        list(v)
          .map(Number)
          .filter((n) => Number.isInteger(n) && n >= 1 && n <= 5),
      ),
    ]),
  ages: z
    .unknown()
    .optional()
    .transform((v) => [
      ...new Set(
        list(v)
          .map(normalizeAgeRange)
          .filter((a): a is AgeRange => a !== null),
      ),
    ]),
  min: price,
  max: price,
  free: bool,
  trade: bool,
  postal: z
    .string()
    .optional()
    .transform((v) => (v ?? "").replace(/\D/g, "").slice(0, 4)),
  sort: z.enum(SORTS).optional(),
  limit: z.coerce.number().int().min(1).max(SEARCH_PAGE_SIZE).optional().default(SEARCH_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(10_000).optional().default(0),
});

export type SearchParams = z.output<typeof searchParamsSchema>;

export interface SearchRow extends ListingCard {
  search_rank: number;
}

export interface SearchResult {
  rows: SearchRow[];
  /** Exact up to SEARCH_TOTAL_CAP matches; above that the cap; an estimate when `total_capped` says so. */
  total: number;
  /**
   * True when `total` is not exact: SEARCH_TOTAL_CAP means there are more ("Over 1 000 annonser"); a
   * smaller figure is an estimate ("Ca. 560 annonser"), see SEARCH_COUNT_SCAN.
   */
  total_capped: boolean;
}

/** A search counts its matches up to this number (docs/decisions/004-search-index.md). */
export const SEARCH_TOTAL_CAP = 1000;

/**
 * A free-text search checks the filters of at most this many of its newest text matches when it
 * counts. When they hold fewer than SEARCH_TOTAL_CAP hits and older text matches exist, the total is
 * estimated from the share of the listings they span (docs/decisions/044-search-at-scale.md).
 */
export const SEARCH_COUNT_SCAN = 1000;

/** "1 annonse", "12 annonser", "Over 1 000 annonser", "Ca. 560 annonser" (an estimate). */
export function resultCountText(total: number, capped = false): string {
  const n = new Intl.NumberFormat("nb-NO").format(total);
  if (capped) return total >= SEARCH_TOTAL_CAP ? `Over ${n} annonser` : `Ca. ${n} annonser`;
  return total === 1 ? "1 annonse" : `${n} annonser`;
}

/** The effective price bounds: free-only ignores them; 0 and 10000 mean no bound. */
export function priceBounds(p: Pick<SearchParams, "min" | "max" | "free">): { min: number | null; max: number | null } {
  if (p.free) return { min: null, max: null };
  return {
    min: p.min !== null && p.min > PRICE_MIN ? p.min : null,
    max: p.max !== null && p.max < PRICE_MAX ? p.max : null,
  };
}
