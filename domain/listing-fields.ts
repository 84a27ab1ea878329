// A listing's descriptive fields, each declared once here: this list drives the D1 column
// (worker/features/listings/schema.ts), the form's validation (domain/schemas/listing.ts), the
// wizard and edit form (web/components/listing-form/AttributeFields.tsx), the listing page's details,
// the search index and its filter (worker/features/search/fold-sql.ts, the search URL and API), the
// saved searches' matching and the demo data (scripts/seed: a suggestion the title names); the
// values' rules are in listing-field-rules.ts. Adding one is an entry here and its two migrations (`npm run
// listing-fields:migrate -- <name>`): docs/architecture.md "A listing field". The core fields (title, category, age, condition, price, place, photos) have
// rules and controls of their own and stay where they are.
/** A free-text field with suggestions: one line, optional, shown and searched as the seller wrote it. */
export interface ListingAttribute {
  /** The form's, the API's and the search URL's key, and the column in `listings` and `listing_search_map`. */
  readonly key: string;
  /** The field's name in the form, on the listing page and in the search filters. */
  readonly label: string;
  /** The form's example. */
  readonly placeholder: string;
  readonly maxLength: number;
  /** Refusal when the text is longer than maxLength. */
  readonly tooLong: string;
  /** Offered as the seller and the searcher type; a typed value that folds to one of these is stored as it. */
  readonly suggestions: readonly string[];
}

const BRANDS = [
  "Lego",
  "Duplo",
  "Brio",
  "Playmobil",
  "Barbie",
  "Baby Born",
  "Fisher-Price",
  "Hot Wheels",
  "Micro",
  "Stokke",
  "Kid Kit",
  "Vtech",
  "Plan Toys",
  "Ravensburger",
  "Sylvanian Families",
  "Schleich",
  "Melissa & Doug",
  "Magformers",
  "Kiddimoto",
  "Hape",
] as const;

export const LISTING_ATTRIBUTES = [
  {
    key: "brand",
    label: "Merke",
    placeholder: "F.eks. Lego, Brio eller Playmobil",
    maxLength: 40,
    tooLong: "Merket kan være maks 40 tegn",
    suggestions: BRANDS,
  },
] as const satisfies readonly ListingAttribute[];

export type ListingAttributeKey = (typeof LISTING_ATTRIBUTES)[number]["key"];

/** Every declared field's value on a listing: null when the seller left it empty. */
export type ListingAttributeValues = { [K in ListingAttributeKey]: string | null };

/** The search filter's values: the folded text each field must equal ("" is no filter). */
export type ListingAttributeFilters = { [K in ListingAttributeKey]: string };

/** A listing's values from a record holding the keys (absent is null). */
export function attributeValues(source: Readonly<Record<string, unknown>>): ListingAttributeValues {
  const out: Record<string, string | null> = {};
  for (const a of LISTING_ATTRIBUTES as readonly ListingAttribute[]) {
    const v = source[a.key];
    out[a.key] = typeof v === "string" && v ? v : null;
  }
  return out as ListingAttributeValues;
}

/** The declared fields, typed as the interface (the tuple may be empty). */
export const listingAttributes = (): readonly ListingAttribute[] => LISTING_ATTRIBUTES;
