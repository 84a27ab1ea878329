// Runs one search: its statements (plan.ts) and the vocabulary's question in one D1 batch, a second plan
// when the vocabulary widens the match, and the page and total the API answers.
import { searchTerms } from "../../../domain/search";
import { type TermLanguage, understandTerms } from "../../../domain/search-language";
import { vocabularyOf, vocabularyStatement } from "./vocabulary";
import type { SearchParams, SearchResult, SearchRow } from "../../../domain/schemas/search";
import type { PricingMode, ListingStatus } from "../../../domain/taxonomy";
import type { Db } from "../../db/client";
import { shownPayment } from "../../../domain/payments";
import { handoverModes } from "../../../domain/carriers";
import { buildSearchPlan, type SearchPlan } from "./plan";
import { type CountRow, searchTotal } from "./count";

interface Row {
  id: string;
  user_id: string;
  title: string;
  price: number | null;
  is_free: number;
  is_trade_offer: number;
  condition_rating: number;
  category: string;
  age_range: string;
  postal_code: string;
  images: string;
  status: ListingStatus;
  seo_slug: string;
  pricing_mode: PricingMode;
  payment_enabled: number;
  can_pick_up: number;
  can_ship: number;
  created_at: string;
  search_rank: number;
}

/** Tiers are nested (a title-word hit is also a title hit and a hit): keep each id's best tier. */
export function mergeTiers<T extends { id: string }>(tiers: T[][], offset: number, limit: number): T[] {
  const seen = new Set<string>();
  const merged: T[] = [];
  for (const rows of tiers) {
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      merged.push(row);
    }
  }
  return merged.slice(offset, offset + limit);
}

function toSearchRow(r: Row): SearchRow {
  return {
    id: r.id,
    user_id: r.user_id,
    title: r.title,
    price: r.price,
    is_free: !!r.is_free,
    is_trade_offer: !!r.is_trade_offer,
    condition_rating: r.condition_rating,
    category: r.category,
    age_range: r.age_range,
    postal_code: r.postal_code,
    images: JSON.parse(r.images) as string[],
    status: r.status,
    seo_slug: r.seo_slug,
    ...shownPayment({ payment_enabled: !!r.payment_enabled, pricing_mode: r.pricing_mode, is_free: !!r.is_free, price: r.price }, true),
    handover: handoverModes(!!r.can_pick_up, !!r.can_ship),
    created_at: r.created_at,
    search_rank: r.search_rank,
  };
}

/**
 * The statements of a search go to D1 in one batch (one round trip), with the vocabulary's answer
 * about the query's words (worker/features/search/vocabulary.ts). When it says a word is a compound
 * to split or a typo to correct, the search runs again with that (a second round trip, for those
 * queries only).
 */
export async function searchListings(db: Db, p: SearchParams): Promise<SearchResult> {
  const terms = searchTerms(p.q);
  const ask = asksVocabulary(terms) ? vocabularyStatement(db, terms) : null;
  let plan = buildSearchPlan(p);
  let [found, counted, typed, vocabulary] = await runPlan(db, plan, ask);
  if (vocabulary) {
    const understood = widenedTerms(terms, vocabulary.results);
    if (understood) {
      plan = buildSearchPlan(p, understood);
      [found, counted, typed] = await runPlan(db, plan, null);
      if (typed && (typed.results[0] as { found: number } | undefined)?.found === 0 && found.results.length > 0)
        return { ...pageOf(plan, p, found, counted), suggestion: suggestionText(p.q, understood) };
    }
  }
  return { ...pageOf(plan, p, found, counted), suggestion: null };
}

/** Whether a search asks the vocabulary about its terms (words of three letters or more only). */
export const asksVocabulary = (terms: readonly string[]) => terms.length > 0 && terms.every((t) => t.length >= 3);

/** What the vocabulary adds to a term's matches. */
const widening = (t: TermLanguage) => [t.splits, t.corrected];

/** The terms understood with the vocabulary's answer, when that widens what they match (a second plan); null otherwise. */
export function widenedTerms(terms: readonly string[], vocabularyRows: readonly unknown[]): TermLanguage[] | null {
  const plain = understandTerms(terms, null);
  const understood = understandTerms(terms, vocabularyOf(vocabularyRows));
  return JSON.stringify(understood.map(widening)) !== JSON.stringify(plain.map(widening)) ? understood : null;
}

async function runPlan(db: Db, plan: SearchPlan, ask: D1PreparedStatement | null) {
  const statements = [db.prepare(plan.rows.sql).bind(...plan.rows.params), db.prepare(plan.count.sql).bind(...plan.count.params)];
  if (plan.typed) statements.push(db.prepare(plan.typed.sql).bind(...plan.typed.params));
  if (ask) statements.push(ask);
  const results = await db.batch(statements);
  const [found, counted] = results;
  const typed = plan.typed ? results[2] : null;
  const vocabulary = ask ? results[results.length - 1] : null;
  return [found, counted, typed, vocabulary] as const;
}

function pageOf(plan: SearchPlan, p: SearchParams, found: D1Result, counted: D1Result): Omit<SearchResult, "suggestion"> {
  const all = (found.results as unknown as Row[]).map(toSearchRow);
  const tiers = plan.ranks.map((rank) => all.filter((r) => r.search_rank === rank));
  const n = p.offset + p.limit;
  // Each tier ran when the better ones held fewer than n rows; when every tier holds fewer than n,
  // they hold every match (the last tiers of each index are all of its matches).
  const allMatches = tiers.every((t) => t.length < n) ? new Set(all.map((r) => r.id)).size : null;
  const rows = mergeTiers(tiers, p.offset, p.limit);
  return { rows, ...searchTotal((counted.results[0] as CountRow | undefined) ?? { n: 0 }, allMatches, p.offset + rows.length) };
}

/** The query as typed with each corrected word replaced by its correction ("lgeo duplo" → "lego duplo"). */
function suggestionText(q: string, understood: readonly TermLanguage[]): string {
  const corrections = new Map(understood.filter((t) => t.correction).map((t) => [t.term, t.correction!]));
  return q
    .trim()
    .split(/\s+/)
    .map((word) => {
      const term = searchTerms(word)[0];
      return term && corrections.has(term) ? corrections.get(term)! : word;
    })
    .join(" ");
}
