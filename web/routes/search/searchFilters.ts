// The search page's state lives in the URL query (spec part 1 "/search"): these functions read it,
// write it back in one canonical form, and derive the API query, the chips and the badge count.
import { PRICE_MAX, PRICE_MIN, SEARCH_PAGE_SIZE } from "../../../domain/limits";
import { searchParamsSchema, SORTS, type SearchSort } from "../../../domain/schemas/search";
import { AGE_RANGES, CATEGORIES, CONDITIONS, type AgeRange, type CategoryKey } from "../../../domain/taxonomy";

export interface SearchFilters {
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
  const parsed = searchParamsSchema.safeParse({
    q: (params.get("q") ?? "").slice(0, 200),
    categories: params.getAll("categories").join(","),
    conditions: params.getAll("conditions").join(","),
    ages: params.getAll("ages").join(","),
    min: params.get("min") ?? undefined,
    max: params.get("max") ?? undefined,
    free: params.get("free") ?? undefined,
    trade: params.get("trade") ?? undefined,
    postal: params.get("postal") ?? undefined,
    sort: sort && (SORTS as readonly string[]).includes(sort) ? sort : undefined,
  });
  if (!parsed.success) return EMPTY_FILTERS;
  const p = parsed.data;
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
    sort: p.sort ?? null,
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

const kr = new Intl.NumberFormat("nb-NO", { maximumFractionDigits: 0 });
export const formatKroner = (n: number) => `${kr.format(n)} kr`;

export function priceLabel(min: number | null, max: number | null): string | null {
  if (min !== null && max !== null) return `${kr.format(min)}–${kr.format(max)} kr`;
  if (min !== null) return `Fra ${formatKroner(min)}`;
  if (max !== null) return `Opptil ${formatKroner(max)}`;
  return null;
}

export interface FilterChip {
  key: string;
  label: string;
  /** The filters without this one. */
  without: (f: SearchFilters) => SearchFilters;
}

/** One removable chip per active filter value; the badge on the "Filter" button counts them. */
export function filterChips(f: SearchFilters): FilterChip[] {
  const chips: FilterChip[] = [];
  for (const key of f.categories) {
    chips.push({
      key: `category:${key}`,
      label: CATEGORIES.find((c) => c.key === key)?.label ?? key,
      without: (s) => ({ ...s, categories: s.categories.filter((c) => c !== key) }),
    });
  }
  for (const rating of f.conditions) {
    chips.push({
      key: `condition:${rating}`,
      label: CONDITIONS.find((c) => c.rating === rating)?.label ?? String(rating),
      without: (s) => ({ ...s, conditions: s.conditions.filter((c) => c !== rating) }),
    });
  }
  for (const age of f.ages) {
    chips.push({ key: `age:${age}`, label: age, without: (s) => ({ ...s, ages: s.ages.filter((a) => a !== age) }) });
  }
  // Free-only ignores the price bounds, so they are no active filter then.
  const price = f.free ? null : priceLabel(f.min, f.max);
  if (price) chips.push({ key: "price", label: price, without: (s) => ({ ...s, min: null, max: null }) });
  if (f.free) chips.push({ key: "free", label: "Kun gratis", without: (s) => ({ ...s, free: false }) });
  if (f.trade) chips.push({ key: "trade", label: "Åpen for bytte", without: (s) => ({ ...s, trade: false }) });
  if (f.postal) chips.push({ key: "postal", label: `Postnummer ${f.postal}`, without: (s) => ({ ...s, postal: "" }) });
  return chips;
}

export function activeFilterCount(f: SearchFilters): number {
  return filterChips(f).length;
}

/** Everything but the text and the sort order back to empty. */
export function clearFilters(f: SearchFilters): SearchFilters {
  return { ...EMPTY_FILTERS, q: f.q, sort: f.sort };
}

export const SORT_OPTIONS: { value: SearchSort; label: string }[] = [
  { value: "relevance", label: "Relevans" },
  { value: "newest", label: "Nyeste" },
  { value: "price_asc", label: "Pris lav–høy" },
  { value: "price_desc", label: "Pris høy–lav" },
];
