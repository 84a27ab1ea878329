// The search page's chips, labels and badge count; the URL ⇄ filters functions live in domain/
// (the Worker preloads the first result page with them).
import { PRICE_MAX, PRICE_MIN } from "../../../domain/limits";
import { CATEGORIES, CONDITIONS, type AgeRange, type CategoryKey } from "../../../domain/taxonomy";
import { EMPTY_FILTERS, type SearchFilters } from "../../../domain/searchUrl";
import type { SearchSort } from "../../../domain/schemas/search";
import { formatNumber } from "../../../domain/format";
import { listingAttributes, type ListingAttributeFilters, type ListingAttributeKey } from "../../../domain/listing-fields";

export { apiSearchQuery, EMPTY_FILTERS, filtersKey, parseFilters, serializeFilters, type SearchFilters } from "../../../domain/searchUrl";

export const formatKroner = (n: number) => `${formatNumber(n, 0, 0)} kr`;

export function priceLabel(min: number | null, max: number | null): string | null {
  if (min !== null && max !== null) return `${formatNumber(min, 0, 0)}–${formatNumber(max, 0, 0)} kr`;
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
  for (const { key, label } of listingAttributes()) {
    const value = f[key as ListingAttributeKey];
    if (value) chips.push({ key: `field:${key}`, label: `${label}: ${value}`, without: (s) => ({ ...s, [key]: "" }) });
  }
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

/** A price box's text: empty, a whole number of kroner (spaces between digits allowed), or why not. */
export type PriceText = { kind: "empty" } | { kind: "kroner"; value: number } | { kind: "negative" } | { kind: "not-whole" };

export function readPriceText(text: string): PriceText {
  const t = text.replace(/[\s\u00a0\u202f]/g, "");
  if (t === "") return { kind: "empty" };
  if (/^[-−–]/.test(t)) return { kind: "negative" };
  if (!/^\d+$/.test(t)) return { kind: "not-whole" };
  return { kind: "kroner", value: Number(t) };
}

export interface PriceErrors {
  min?: string;
  max?: string;
}

/**
 * The filter sheet's price boxes, checked against the search's range (PRICE_MIN–PRICE_MAX kr, whole
 * kroner): a message for each box that is wrong, and "til" below "fra".
 */
export function priceErrors(minText: string, maxText: string): PriceErrors {
  const top = formatKroner(PRICE_MAX);
  const min = readPriceText(minText);
  const max = readPriceText(maxText);
  const errors: PriceErrors = {};
  if (min.kind === "negative") errors.min = `Fra-pris kan ikke være under ${formatKroner(PRICE_MIN)}.`;
  else if (min.kind === "not-whole") errors.min = "Skriv fra-prisen i hele kroner, bare med sifre.";
  else if (min.kind === "kroner" && min.value > PRICE_MAX) errors.min = `Fra-pris kan være høyst ${top}.`;
  if (max.kind === "negative") errors.max = `Til-pris kan ikke være under ${formatKroner(PRICE_MIN)}.`;
  else if (max.kind === "not-whole") errors.max = "Skriv til-prisen i hele kroner, bare med sifre.";
  else if (max.kind === "kroner" && max.value > PRICE_MAX)
    errors.max = `Til-pris kan være høyst ${top}. La feltet stå tomt for alle priser.`;
  else if (!errors.min && min.kind === "kroner" && max.kind === "kroner" && min.value > max.value) {
    errors.max = "Til-pris må være minst like høy som fra-pris.";
  }
  return errors;
}

/** The filter dialog's unsaved choices (FilterDialog, PriceFilter). */
export interface Draft {
  categories: CategoryKey[];
  conditions: number[];
  ages: AgeRange[];
  /** The number inputs' text: empty min means 0, empty max means 10000 (docs/product.md "Search"). */
  minText: string;
  maxText: string;
  free: boolean;
  trade: boolean;
  postal: string;
  /** Each declared field's box, as typed. */
  fields: ListingAttributeFilters;
}
