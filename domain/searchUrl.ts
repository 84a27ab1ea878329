// The search page's state lives in the URL query (docs/product.md "Search"): these functions read it,
// write it back in one canonical form and derive the API query. They are shared by the SPA and the
// Worker, which preloads the first result page of /search into the page it serves: both must ask
// the API the same question for the same address.
import { PRICE_MAX, PRICE_MIN, SEARCH_PAGE_SIZE } from "./limits";
import {
  searchAges,
  searchCategories,
  searchConditions,
  searchFlag,
  searchPostal,
  searchPrice,
  searchText,
  SORTS,
  type SearchSort,
} from "./search-params";
import { AGE_RANGES, CATEGORIES, CONDITIONS, type AgeRange, type CategoryKey } from "./taxonomy";
import { listingAttributes, type ListingAttributeFilters } from "./listing-fields";
import { attributeFilters } from "./listing-field-rules";

/** The page's filters; each declared field's (domain/listing-fields.ts) is its text, "" for none. */
export interface SearchFilters extends ListingAttributeFilters {
  q: string;
  categories: CategoryKey[];
  conditions: number[];
  ages: AgeRange[];
  /** Whole kroner; null is "no bound" (the URL's 0 for min and 10000 for max mean the same). */
  min: number | null;
  max: number | null;
  free: boolean;
  trade: boolean;
  postal: string;
  /** null: the server's default (relevance with text, newest without). */
  sort: SearchSort | null;
}

export const EMPTY_FILTERS: SearchFilters = {
  q: "",
  categories: [],
  conditions: [],
  ages: [],
  min: null,
  max: null,
  free: false,
  trade: false,
  postal: "",
  ...attributeFilters(() => undefined),
  sort: null,
};

const CATEGORY_ORDER = CATEGORIES.map((c) => c.key as string);
const CONDITION_ORDER = CONDITIONS.map((c) => c.rating as number);
const AGE_ORDER = AGE_RANGES as readonly string[];

/** Sorted by the taxonomy's order, so the same selection always gives the same URL and query key. */
function inOrder<T extends string | number>(values: T[], order: readonly (string | number)[]): T[] {
  return [...values].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** Reads `location.search`; anything unknown or malformed is dropped, old category/age keys are mapped. */
export function parseFilters(search: string | URLSearchParams): SearchFilters {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const sort = params.get("sort");
  // The API schema's rules, field by field (domain/search-params.ts): none can fail on a URL.
  const p = {
    q: searchText((params.get("q") ?? "").slice(0, 200)),
    categories: searchCategories(params.getAll("categories").join(",")),
    conditions: searchConditions(params.getAll("conditions").join(",")),
    ages: searchAges(params.getAll("ages").join(",")),
    min: searchPrice(params.get("min") ?? undefined),
    max: searchPrice(params.get("max") ?? undefined),
    free: searchFlag(params.get("free") ?? undefined),
    trade: searchFlag(params.get("trade") ?? undefined),
    postal: searchPostal(params.get("postal") ?? undefined),
    sort: sort && (SORTS as readonly string[]).includes(sort) ? (sort as SearchSort) : null,
  };
  let min = p.min !== null && p.min > PRICE_MIN ? p.min : null;
  let max = p.max !== null && p.max < PRICE_MAX ? p.max : null;
  if (min !== null && max !== null && min > max) [min, max] = [max, min];
  return {
    q: p.q,
    categories: inOrder(p.categories, CATEGORY_ORDER),
    conditions: inOrder(p.conditions, CONDITION_ORDER),
    ages: inOrder(p.ages, AGE_ORDER),
    min,
    max,
    free: p.free,
    trade: p.trade,
    postal: p.postal,
    ...attributeFilters((key) => params.get(key) ?? undefined),
    sort: p.sort,
  };
}

const encodeList = (values: readonly (string | number)[]) => values.map((v) => encodeURIComponent(String(v))).join(",");

/**
 * The canonical query string (no "?"), defaults left out. Lists keep readable commas
 * (`categories=lego,biler`); free-only drops the price bounds, which it ignores anyway.
 */
export function serializeFilters(f: SearchFilters): string {
  const parts: string[] = [];
  if (f.q.trim()) parts.push(`q=${encodeURIComponent(f.q.trim())}`);
  if (f.categories.length) parts.push(`categories=${encodeList(inOrder(f.categories, CATEGORY_ORDER))}`);
  if (f.conditions.length) parts.push(`conditions=${encodeList(inOrder(f.conditions, CONDITION_ORDER))}`);
  if (f.ages.length) parts.push(`ages=${encodeList(inOrder(f.ages, AGE_ORDER))}`);
  if (!f.free && f.min !== null && f.min > PRICE_MIN) parts.push(`min=${f.min}`);
  if (!f.free && f.max !== null && f.max < PRICE_MAX) parts.push(`max=${f.max}`);
  if (f.free) parts.push("free=true");
  if (f.trade) parts.push("trade=true");
  if (f.postal) parts.push(`postal=${encodeURIComponent(f.postal)}`);
  for (const { key } of listingAttributes()) {
    const value = f[key as keyof ListingAttributeFilters];
    if (value) parts.push(`${key}=${encodeURIComponent(value)}`);
  }
  if (f.sort) parts.push(`sort=${f.sort}`);
  return parts.join("&");
}

/** GET /api/search's query for one page. */
export function apiSearchQuery(f: SearchFilters, offset = 0, limit = SEARCH_PAGE_SIZE): string {
  const base = serializeFilters(f);
  return `${base ? `${base}&` : ""}limit=${limit}&offset=${offset}`;
}

/** The filters that decide the result set (everything but paging), as a stable react-query key part. */
export function filtersKey(f: SearchFilters): string {
  return serializeFilters({ ...f, q: f.q.trim() });
}
