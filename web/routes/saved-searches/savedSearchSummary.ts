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

/**
 * The name "Lagre søk" suggests: the text, or else the filters, within the name's length. A filter
 * that only repeats the text ("lego" in category Lego) is said once: "Lego", not "Lego, Lego".
 */
export function suggestedName(filters: SearchFilters): string {
  const all = filters.q ? [filters.q.trim(), ...filterChips(filters).map((c) => c.label)] : summaryParts(filters);
  const seen = new Set<string>();
  const parts = all.filter((part) => {
    const key = part.toLocaleLowerCase("nb-NO");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const joined = parts.join(", ");
  const name = joined.charAt(0).toLocaleUpperCase("nb-NO") + joined.slice(1);
  if (name.length <= SAVED_SEARCH_NAME_MAX_LENGTH) return name;
  return `${name.slice(0, SAVED_SEARCH_NAME_MAX_LENGTH - 1).trimEnd()}…`;
}
