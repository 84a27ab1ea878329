// How a saved search reads in lists and as a suggested name: its text in «», then the labels of
// its filter chips (the same labels as the search page's chips).
import { SAVED_SEARCH_NAME_MAX_LENGTH } from "../../../domain/saved-searches";
import { filterChips, parseFilters, type SearchFilters } from "../search/searchFilters";

export function summaryParts(filters: SearchFilters): string[] {
  return [...(filters.q ? [`«${filters.q}»`] : []), ...filterChips(filters).map((chip) => chip.label)];
}

/** "«duplo» · Lego · Kun gratis" for a stored canonical query. */
export function savedSearchSummary(query: string): string {
  return summaryParts(parseFilters(query)).join(" · ");
}

/** The name "Lagre søk" suggests: the text, or else the filters, within the name's length. */
export function suggestedName(filters: SearchFilters): string {
  const parts = filters.q ? [filters.q, ...filterChips(filters).map((c) => c.label)] : summaryParts(filters);
  const joined = parts.join(", ");
  const name = joined.charAt(0).toLocaleUpperCase("nb-NO") + joined.slice(1);
  if (name.length <= SAVED_SEARCH_NAME_MAX_LENGTH) return name;
  return `${name.slice(0, SAVED_SEARCH_NAME_MAX_LENGTH - 1).trimEnd()}…`;
}
