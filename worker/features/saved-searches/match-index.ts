// The saved-search matching index, without I/O (docs/decisions/040-saved-search-matching.md).
//
// A saved search is filed under the keys of its most selective facet: its categories (`c:lego`),
// its postal prefix (`p:015`), its free text (`t:lego duplo`), … A new listing has one key per
// facet value it carries (its category, each prefix of its postal code, its price bucket, …), so
// the saved searches it can match are those filed under one of its keys — a small share of all —
// and only those are checked. Every key is a necessary condition of its search's filters, so the
// index never loses a match; `facetsMatch` then applies the search's filters exactly as
// worker/features/search/plan.ts `buildSearchPlan` does, and the text is checked with the search's own
// FTS5 matching (`textMatch`).
import { priceBounds } from "../../../domain/schemas/search";
import { searchTerms } from "../../../domain/search";
import { parseFilters, serializeFilters, type SearchFilters } from "../../../domain/searchUrl";
import { listingAttributes, type ListingAttributeKey } from "../../../domain/listing-fields";
import { attributeKey } from "../../../domain/listing-field-rules";

const fieldKeys = () => listingAttributes().map((a) => a.key as ListingAttributeKey);

/** What decides whether a listing matches a saved search: its filters as /search applies them. */
export interface MatchSpec {
  categories: ReadonlySet<string> | null;
  conditions: ReadonlySet<number> | null;
  ages: ReadonlySet<string> | null;
  /** Effective price bounds in whole kroner (free-only ignores them; 0 and 10000 mean none). */
  min: number | null;
  max: number | null;
  free: boolean;
  trade: boolean;
  /** Postal code prefix (digits), "" for none. */
  postal: string;
  /** Folded free-text terms (domain/search.ts `searchTerms`); empty for none. */
  terms: string[];
  /** Each declared field's filter, folded as listing_search_map holds it ("" for none). */
  fields: Record<ListingAttributeKey, string>;
}

/** A new listing as the matcher sees it: its row of listing_search_map plus its owner. */
export interface MatchListing extends MatchListingFields {
  rid: number;
  listing_id: string;
  user_id: string;
  category: string;
  age_range: string;
  condition_rating: number;
  /** As listing_search_map stores it: a free listing (no price) is 0. */
  price: number;
  is_free: number;
  is_trade_offer: number;
  postal_code: string;
}

/** The listing's row of listing_search_map: its declared fields, folded (null: empty). */
export type MatchListingFields = Record<ListingAttributeKey, string | null>;

export function matchSpec(filters: SearchFilters): MatchSpec {
  const { min, max } = priceBounds(filters);
  return {
    categories: filters.categories.length ? new Set(filters.categories) : null,
    conditions: filters.conditions.length ? new Set(filters.conditions) : null,
    ages: filters.ages.length ? new Set(filters.ages) : null,
    min,
    max,
    free: filters.free,
    trade: filters.trade,
    postal: filters.postal,
    terms: searchTerms(filters.q),
    fields: Object.fromEntries(fieldKeys().map((k) => [k, filters[k] ? attributeKey(filters[k]) : ""])) as MatchSpec["fields"],
  };
}

/** The spec of a stored canonical query (`saved_searches.query`). */
export function specOfQuery(query: string): MatchSpec {
  return matchSpec(parseFilters(query));
}

/** The canonical query of a search, and the same without its sort order (what decides the matches). */
export function canonicalQuery(search: string): { query: string; filtersKey: string; filters: SearchFilters } {
  const filters = parseFilters(search);
  return { query: serializeFilters(filters), filtersKey: serializeFilters({ ...filters, sort: null }), filters };
}

/** A search without text or filters would match every listing; it cannot be saved. */
export function isEmptySpec(spec: MatchSpec): boolean {
  return (
    !spec.categories &&
    !spec.conditions &&
    !spec.ages &&
    spec.min === null &&
    spec.max === null &&
    !spec.free &&
    !spec.trade &&
    !spec.postal &&
    spec.terms.length === 0 &&
    fieldKeys().every((k) => !spec.fields[k])
  );
}

/**
 * The filters of buildSearchPlan, on one listing (the text aside): public is checked by the caller's
 * query (`is_public = 1`); `IN` lists, `is_free`, the price bounds on the stored price (free = 0),
 * `is_trade_offer`, and the postal code `LIKE 'prefix%'` (digits only, so a plain prefix test).
 */
export function facetsMatch(spec: MatchSpec, l: MatchListing): boolean {
  if (spec.categories && !spec.categories.has(l.category)) return false;
  if (spec.conditions && !spec.conditions.has(l.condition_rating)) return false;
  if (spec.ages && !spec.ages.has(l.age_range)) return false;
  if (spec.free && l.is_free !== 1) return false;
  if (spec.min !== null && !(l.price >= spec.min)) return false;
  if (spec.max !== null && !(l.price <= spec.max)) return false;
  if (spec.trade && l.is_trade_offer !== 1) return false;
  if (spec.postal && !l.postal_code.startsWith(spec.postal)) return false;
  if (fieldKeys().some((k) => spec.fields[k] && l[k] !== spec.fields[k])) return false;
  return true;
}

// ---------------------------------------------------------------- keys

/** Key of a text-keyed search: its terms; the matcher turns them into the search's MATCH expression. */
export const TEXT_KEY_PREFIX = "t:";

/** Lower bounds of the price buckets (whole kroner); the last bucket has no upper bound. */
export const PRICE_BUCKETS = [0, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000] as const;

function priceBucket(price: number): number {
  let bucket = 0;
  for (let i = 0; i < PRICE_BUCKETS.length; i++) if (price >= PRICE_BUCKETS[i]) bucket = i;
  return bucket;
}

/**
 * Estimated share of new listings that carry a facet value — a static prior, not measured per
 * database: one of 11 categories, one of 5 ages or conditions, free (about one in seven), open to
 * trade (one in four), a postal prefix of n digits (10^-n), a price bucket (1 of 12), text (a
 * typical word, about 2 %) and a declared field's value (a brand, about 3 %). Only the order matters: the facet with the smallest estimate is the key.
 */
const PRIOR = {
  category: 1 / 11,
  age: 1 / 5,
  condition: 1 / 5,
  free: 0.15,
  trade: 0.25,
  priceBucket: 1 / PRICE_BUCKETS.length,
  text: 0.02,
  field: 0.03,
};

/** The keys a saved search is filed under: those of its most selective facet. Empty spec: none. */
export function indexKeys(spec: MatchSpec): string[] {
  const options: { estimate: number; keys: string[] }[] = [];
  if (spec.terms.length) options.push({ estimate: PRIOR.text, keys: [TEXT_KEY_PREFIX + spec.terms.join(" ")] });
  if (spec.postal) options.push({ estimate: 10 ** -spec.postal.length, keys: [`p:${spec.postal}`] });
  if (spec.categories) options.push({ estimate: spec.categories.size * PRIOR.category, keys: [...spec.categories].map((c) => `c:${c}`) });
  if (spec.free) options.push({ estimate: PRIOR.free, keys: ["f"] });
  if (spec.min !== null || spec.max !== null) {
    const lo = priceBucket(spec.min ?? 0);
    const hi = spec.max === null ? PRICE_BUCKETS.length - 1 : priceBucket(spec.max);
    const keys = Array.from({ length: hi - lo + 1 }, (_, i) => `$:${lo + i}`);
    options.push({ estimate: keys.length * PRIOR.priceBucket, keys });
  }
  if (spec.ages) options.push({ estimate: spec.ages.size * PRIOR.age, keys: [...spec.ages].map((a) => `a:${a}`) });
  if (spec.conditions) options.push({ estimate: spec.conditions.size * PRIOR.condition, keys: [...spec.conditions].map((k) => `k:${k}`) });
  if (spec.trade) options.push({ estimate: PRIOR.trade, keys: ["b"] });
  for (const k of fieldKeys()) if (spec.fields[k]) options.push({ estimate: PRIOR.field, keys: [`@${k}:${spec.fields[k]}`] });
  options.sort((a, b) => a.estimate - b.estimate);
  return options[0]?.keys ?? [];
}

/** The facet keys a listing carries (text keys are found through the FTS index instead). */
export function listingKeys(l: MatchListing): string[] {
  const keys = [`c:${l.category}`, `a:${l.age_range}`, `k:${l.condition_rating}`, `$:${priceBucket(l.price)}`];
  for (let n = 1; n <= l.postal_code.length && n <= 4; n++) keys.push(`p:${l.postal_code.slice(0, n)}`);
  if (l.is_free === 1) keys.push("f");
  if (l.is_trade_offer === 1) keys.push("b");
  for (const k of fieldKeys()) if (l[k]) keys.push(`@${k}:${l[k]}`);
  return keys;
}

export function termsOfTextKey(key: string): string[] {
  return key.slice(TEXT_KEY_PREFIX.length).split(" ");
}
