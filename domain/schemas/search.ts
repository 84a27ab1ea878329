import { z } from "./zod";
import { PRICE_MAX, PRICE_MIN, SEARCH_PAGE_SIZE } from "../limits";
import { searchAges, searchCategories, searchConditions, searchFlag, searchPostal, searchPrice, searchText, SORTS } from "../search-params";
import type { ListingCard } from "./listing";
import { listingAttributes, type ListingAttribute, type ListingAttributeKey } from "../listing-fields";
import { attributeFilter } from "../listing-field-rules";

/** A declared field's filter (domain/listing-fields.ts): its text as stored, "" for none. */
const attributeParam = (a: ListingAttribute) =>
  z
    .string()
    .max(200)
    .optional()
    .transform((v) => attributeFilter(a, v));
const attributeParams = Object.fromEntries(listingAttributes().map((a) => [a.key, attributeParam(a)])) as {
  [K in ListingAttributeKey]: ReturnType<typeof attributeParam>;
};

// The sorts and the field rules live without zod (domain/search-params.ts): the search page reads its
// URL with them on its first load, and this schema applies the same rules for the API.
export { SORTS, type SearchSort } from "../search-params";

const bool = z.union([z.boolean(), z.string()]).optional().transform(searchFlag);

/** Whole kroner, where 0 (min) and 10000 (max) mean "no bound" (docs/product.md "Server calls"). */
const price = z.union([z.number(), z.string()]).optional().transform(searchPrice);

/**
 * Search parameters, as the URL query carries them (`/search?q=lego&categories=lego,biler&…`) and
 * as the API reads them. Unknown category/age values are dropped; old keys are mapped.
 */
export const searchParamsSchema = z.object({
  q: z.string().max(200).optional().transform(searchText),
  categories: z.unknown().optional().transform(searchCategories),
  conditions: z.unknown().optional().transform(searchConditions),
  ages: z.unknown().optional().transform(searchAges),
  min: price,
  max: price,
  free: bool,
  trade: bool,
  postal: z.string().optional().transform(searchPostal),
  ...attributeParams,
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
  /**
   * "Mente du …?": the query with its typos corrected, when the words as typed find nothing and the
   * correction does (the rows are then the correction's). Null otherwise.
   */
  suggestion: string | null;
}

// Texts and caps the search page shows live in a module without zod (the page's first load carries
// no schema library); the Worker keeps importing them from here.
export { resultCountText, SEARCH_COUNT_SAMPLE, SEARCH_COUNT_SCAN, SEARCH_TOTAL_CAP } from "../search-count";

/** The effective price bounds: free-only ignores them; 0 and 10000 mean no bound. */
export function priceBounds(p: Pick<SearchParams, "min" | "max" | "free">): { min: number | null; max: number | null } {
  if (p.free) return { min: null, max: null };
  return {
    min: p.min !== null && p.min > PRICE_MIN ? p.min : null,
    max: p.max !== null && p.max < PRICE_MAX ? p.max : null,
  };
}
