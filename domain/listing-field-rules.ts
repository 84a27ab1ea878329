// The rules of the declared listing fields' values (domain/listing-fields.ts): what is stored for
// what a seller types, and what a search filter compares. Apart from the declaration so the listing
// page, which only shows the fields, does not load them.
import { LISTING_ATTRIBUTES, type ListingAttribute, type ListingAttributeFilters } from "./listing-fields";
import { foldNorwegian } from "./search";

/**
 * The stored value: one line, trimmed, inner runs of spaces as one, and a value that folds to a
 * suggestion ("lego", "LEGO") written as the suggestion ("Lego"); empty is null.
 */
export function attributeValue(attribute: ListingAttribute, text: string): string | null {
  const value = text.trim().replace(/\s+/g, " ");
  if (!value) return null;
  const folded = attributeKey(value);
  return attribute.suggestions.find((s) => attributeKey(s) === folded) ?? value;
}

/** How a value is compared by the search filter and stored in the search index's projection. */
export function attributeKey(value: string): string {
  return foldNorwegian(value.trim().replace(/\s+/g, " "));
}

/** A search filter's value as attributeValue stores it ("lego" is "Lego"), "" when absent; compared folded (attributeKey). */
export function attributeFilter(attribute: ListingAttribute, value: unknown): string {
  return typeof value === "string" ? (attributeValue(attribute, value.slice(0, attribute.maxLength)) ?? "") : "";
}

/** Every declared field's search filter from a URL's or an API query's values. */
export function attributeFilters(get: (key: string) => unknown): ListingAttributeFilters {
  const out: Record<string, string> = {};
  for (const a of LISTING_ATTRIBUTES as readonly ListingAttribute[]) out[a.key] = attributeFilter(a, get(a.key));
  return out as ListingAttributeFilters;
}

/** The first of the field's suggestions that the title names as whole words (folded), or null: the demo data's value. */
export function suggestionInTitle(attribute: ListingAttribute, title: string): string | null {
  const words = (text: string) =>
    ` ${foldNorwegian(text)
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim()} `;
  const inTitle = words(title);
  return attribute.suggestions.find((s) => inTitle.includes(words(s))) ?? null;
}
