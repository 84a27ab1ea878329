import { useInfiniteQuery } from "@tanstack/react-query";
import { Search, X } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { useLocation, useNavigate, useNavigationType } from "react-router-dom";
import { Link } from "../../components/Link";
import { SEARCH_DEBOUNCE_MS } from "../../../domain/limits";
import type { SearchRow } from "../../../domain/schemas/search";
import { resultCountText } from "../../../domain/search-count";
import { ListingCard, LISTING_CELL_CLASSES } from "../../components/ListingCard";
import { ListingCardSkeleton } from "../../components/ListingCardSkeleton";
import { Button } from "../../components/ui/Button";
import { cn } from "../../lib/cn";
import { toastError } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { returnsScrolled } from "../../lib/useScrollRestoration";
import { useValueTypedEarly } from "../../lib/useValueTypedEarly";
import { FilterSheet } from "./FilterSheet";
import { SaveSearchButton } from "./SaveSearchButton";
import { clearFilters, filterChips, parseFilters, serializeFilters, SORT_OPTIONS, type SearchFilters } from "./searchFilters";
import { isApiError } from "../../api/client";
import { searchResultsQuery } from "../../api/search";
import { useSearchTracking } from "../../analytics/useSearchTracking";

const SEARCH_ERROR = "Kunne ikke søke i annonser";
const gridClasses = "mt-3 grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4";
/** Placeholders while the first page loads: enough to fill a phone's first screen (and a desktop row). */
const SKELETON_CARDS = 8;

interface SearchLocationState {
  /** This entry was written by the text box; the next keystrokes replace it instead of piling up. */
  searchTyping?: boolean;
  /** Set by links that open the page to type in it (e.g. the header's search box). */
  focusSearch?: boolean;
}

/** /search ("Søk"): text, filters in the URL query, chips, count, results in pages of 50. */
export function SearchPage() {
  useDocumentTitle("Søk");
  const location = useLocation();
  const navigate = useNavigate();
  const state = (location.state ?? {}) as SearchLocationState;
  const filters = useMemo(() => parseFilters(location.search), [location.search]);

  // The query this page last wrote from the text box: its address may arrive after newer typing.
  const typedQuery = useRef<string | null>(null);
  const setFilters = useCallback(
    (next: SearchFilters, { typing = false }: { typing?: boolean } = {}) => {
      if (typing) typedQuery.current = next.q;
      const search = serializeFilters(next);
      navigate(
        { pathname: "/search", search: search ? `?${search}` : "" },
        {
          // Typing makes one history entry per search, not one per pause between keystrokes.
          replace: typing && state.searchTyping === true,
          state: typing ? ({ searchTyping: true } satisfies SearchLocationState) : null,
          preventScrollReset: typing,
        },
      );
    },
    [navigate, state.searchTyping],
  );

  // The text box: what the user types goes to the URL after 300 ms without typing.
  const [text, setText] = useState(filters.q);
  const shownQuery = useRef(filters.q);
  useEffect(() => {
    // Back/forward (or a link) changed the query: show it. Not on the first render: text typed before
    // the page was taken over (below) is newer than the address. Not for our own write of what was
    // typed: a key pressed while that address was on its way is newer too.
    if (shownQuery.current === filters.q) return;
    shownQuery.current = filters.q;
    if (typedQuery.current === filters.q) {
      typedQuery.current = null; // arrived: from here on a change of address is Back, Forward or a link
      return;
    }
    setText((current) => (current.trim() === filters.q ? current : filters.q));
  }, [filters.q]);
  useEffect(() => {
    if (text.trim() === filters.q) return;
    const timer = setTimeout(() => setFilters({ ...filters, q: text.trim() }, { typing: true }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, filters, setFilters]);

  const inputRef = useRef<HTMLInputElement>(null);
  useValueTypedEarly(inputRef, text, setText);
  // Someone who opens a bare /search (the header's search box) came to type.
  // Not when Back returns to the results scrolled down: the visitor goes on where they were.
  const navigationType = useNavigationType();
  const [focusOnArrival] = useState(
    () => !returnsScrolled(location, navigationType) && (state.focusSearch === true || location.search === ""),
  );
  useEffect(() => {
    if (focusOnArrival) inputRef.current?.focus({ preventScroll: true });
  }, [focusOnArrival]);

  function submitText(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (text.trim() !== filters.q) setFilters({ ...filters, q: text.trim() }, { typing: true });
    inputRef.current?.blur(); // closes the phone keyboard to show the results
  }

  const results = useInfiniteQuery(searchResultsQuery(filters));
  const pages = results.data?.pages;
  const rows = useMemo(() => uniqueRows(pages?.flatMap((page) => page.rows) ?? []), [pages]);
  const lastPage = pages?.[pages.length - 1];
  const total = lastPage?.total;
  const count = lastPage ? { total: lastPage.total, capped: lastPage.total_capped } : undefined;
  // With the previous filters' results on screen while the new ones load.
  const stale = results.isPlaceholderData;
  // The words as typed found nothing and a correction of a typo did: the results are the correction's.
  const suggestion = stale ? null : (pages?.[0]?.suggestion ?? null);
  useSearchTracking(location.search, stale ? undefined : total);

  useEffect(() => {
    if (!results.isError) return;
    console.error("Search failed", results.error);
    // Over the per-address search limit (decision 010) the server's own message says to wait.
    const error = results.error;
    toastError("Feil", isApiError(error) && error.status === 429 ? error.message : SEARCH_ERROR, { id: "search-error", error });
  }, [results.isError, results.error]);

  const chips = filterChips(filters);
  const sortValue = filters.sort ?? (filters.q ? "relevance" : "newest");
  const sortField = useRef<HTMLSelectElement>(null);
  useValueTypedEarly(sortField, sortValue, (sort) => setFilters({ ...filters, sort: sort as SearchFilters["sort"] }));

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">Søk</h1>

      <form role="search" onSubmit={submitText} className="mt-4">
        <label htmlFor="search-text" className="sr-only">
          Søk i annonser
        </label>
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-stone-600" />
          <input
            ref={inputRef}
            id="search-text"
            type="search"
            enterKeyHint="search"
            autoComplete="off"
            maxLength={200}
            placeholder="Hva leter du etter?"
            value={text}
            onChange={(e) => setText(e.target.value)}
            className="block min-h-12 w-full rounded-full border border-stone-500 bg-white pr-4 pl-10 text-base text-stone-900 placeholder:text-stone-600 focus-visible:border-brand-700"
          />
        </div>
      </form>

      <div className="mt-4 flex flex-wrap items-center gap-3">
        <FilterSheet filters={filters} total={count} onApply={(next) => setFilters(next)} />
        <div className="ml-auto flex items-center gap-2">
          <label htmlFor="search-sort" className="text-sm font-medium text-stone-800">
            Sorter
          </label>
          <select
            ref={sortField}
            id="search-sort"
            value={sortValue}
            onChange={(e) => setFilters({ ...filters, sort: e.target.value as SearchFilters["sort"] })}
            className="min-h-11 rounded-xl border border-stone-500 bg-white px-3 text-base text-stone-900"
          >
            {SORT_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      {chips.length > 0 ? (
        <ul aria-label="Aktive filtre" className="mt-4 flex flex-wrap gap-2">
          {chips.map((chip) => (
            <li key={chip.key}>
              <button
                type="button"
                aria-label={`Fjern filter ${chip.label}`}
                onClick={() => setFilters(chip.without(filters))}
                className="inline-flex min-h-9 items-center gap-1 rounded-full border border-brand-200 bg-brand-50 py-1 pr-2 pl-3 text-sm font-semibold text-brand-900 hover:bg-brand-100"
              >
                {chip.label}
                <X aria-hidden="true" className="size-4" />
              </button>
            </li>
          ))}
          {chips.length > 1 ? (
            <li>
              <button
                type="button"
                onClick={() => setFilters(clearFilters(filters))}
                className="inline-flex min-h-9 items-center rounded-full px-3 text-sm font-semibold text-brand-800 underline-offset-2 hover:underline"
              >
                Fjern alle filtre
              </button>
            </li>
          ) : null}
        </ul>
      ) : null}

      <section aria-labelledby="search-results-heading" className="mt-5">
        <h2 id="search-results-heading" className="sr-only">
          Søkeresultater
        </h2>
        <div className="flex min-h-9 flex-wrap items-center justify-between gap-2">
          <p role="status" className="min-h-6 font-semibold text-stone-900">
            {count && !stale ? resultCountText(count.total, count.capped) : results.isPending || stale ? "Søker..." : ""}
          </p>
          <SaveSearchButton filters={filters} />
        </div>
        {suggestion ? (
          <p className="mt-1 text-stone-800">
            Mente du{" "}
            <Link
              className="font-semibold text-brand-800 underline underline-offset-2"
              to={`/search?${serializeFilters({ ...filters, q: suggestion })}`}
            >
              {suggestion}
            </Link>
            ?
          </p>
        ) : null}

        {results.isPending ? (
          <>
            <p className="sr-only">Laster annonser...</p>
            <div className={gridClasses}>
              {Array.from({ length: SKELETON_CARDS }, (_, i) => (
                <ListingCardSkeleton key={i} />
              ))}
            </div>
          </>
        ) : results.isError && rows.length === 0 ? (
          <div className="mt-3 rounded-2xl border border-dashed border-stone-300 bg-white p-6 text-center">
            <p className="font-semibold text-stone-900">{SEARCH_ERROR}</p>
            <Button variant="secondary" className="mt-4" onClick={() => void results.refetch()}>
              Prøv igjen
            </Button>
          </div>
        ) : rows.length === 0 ? (
          <div className="mt-3 rounded-2xl border border-dashed border-stone-300 bg-white p-6 text-center">
            <p className="text-lg font-semibold text-stone-900">Ingen annonser funnet</p>
            <p className="mt-1 text-stone-700">Prøv et annet søkeord, eller fjern noen av filtrene.</p>
            {chips.length > 0 ? (
              <Button variant="secondary" className="mt-4" onClick={() => setFilters(clearFilters(filters))}>
                Fjern alle filtre
              </Button>
            ) : null}
          </div>
        ) : (
          <>
            {/* While new results load, only the photos dim: dimmed text would fall below AA contrast. */}
            <ul aria-busy={stale || undefined} className={cn(gridClasses, stale && "[&_img]:opacity-50 [&_img]:transition-opacity")}>
              {rows.map((row, index) => (
                <li key={row.id} className={LISTING_CELL_CLASSES}>
                  <div className="flex w-full flex-col [&>article]:flex-1">
                    <ListingCard listing={row} priority={index < 2} />
                  </div>
                </li>
              ))}
            </ul>
            {results.hasNextPage && !stale ? (
              <div className="mt-6 flex flex-col items-center gap-2">
                <p className="text-sm text-stone-700">
                  Viser {rows.length} av {count?.capped ? `over ${total}` : total}
                </p>
                <Button variant="secondary" disabled={results.isFetchingNextPage} onClick={() => void results.fetchNextPage()}>
                  {results.isFetchingNextPage ? "Laster..." : "Vis flere"}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </section>
    </div>
  );
}

/** A listing posted between two pages shifts the offsets; never show one twice. */
function uniqueRows(rows: SearchRow[]): SearchRow[] {
  const seen = new Set<string>();
  return rows.filter((row) => (seen.has(row.id) ? false : (seen.add(row.id), true)));
}
