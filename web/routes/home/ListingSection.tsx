import { ChevronRight } from "lucide-react";
import { useId, type ReactNode } from "react";
import { Link } from "../../components/Link";
import type { ListingCard as ListingCardData } from "../../../domain/schemas/listing";
import { ListingCard, LISTING_CELL_CLASSES } from "../../components/ListingCard";
import { ListingCardSkeleton } from "../../components/ListingCardSkeleton";
import { cn } from "../../lib/cn";

export interface ListingSectionProps {
  title: string;
  listings: ListingCardData[];
  /** Target of the "Se alle" link. */
  seeAllTo?: string;
  /** Shown instead of the grid when there are no listings. */
  empty?: ReactNode;
  columns?: 3 | 4;
  /** While loading: this many skeleton cards of the final size, and the loading text for screen readers. */
  loading?: { count: number; label: string };
  /** Cards whose photos load first (the first screen's first row). */
  priorityCount?: number;
}

export function ListingSection({ title, listings, seeAllTo, empty, columns = 3, loading, priorityCount = 0 }: ListingSectionProps) {
  const headingId = useId();
  const gridClasses = cn("mt-3 grid grid-cols-2 gap-3 sm:gap-4", columns === 4 ? "md:grid-cols-4" : "md:grid-cols-3");
  return (
    <section aria-labelledby={headingId}>
      <div className="flex items-baseline justify-between gap-3">
        <h2 id={headingId} className="text-xl font-bold text-stone-900">
          {title}
        </h2>
        {seeAllTo ? (
          <Link
            to={seeAllTo}
            aria-describedby={headingId}
            className="inline-flex min-h-11 items-center gap-0.5 rounded-lg px-1 text-sm font-semibold text-brand-800 hover:underline"
          >
            Se alle
            <ChevronRight aria-hidden="true" className="size-4" />
          </Link>
        ) : null}
      </div>
      {loading ? (
        <>
          <p role="status" className="sr-only">
            {loading.label}
          </p>
          <div className={gridClasses}>
            {Array.from({ length: loading.count }, (_, i) => (
              <ListingCardSkeleton key={i} />
            ))}
          </div>
        </>
      ) : listings.length === 0 ? (
        empty
      ) : (
        <ul className={gridClasses}>
          {listings.map((listing, index) => (
            <li key={listing.id} className={LISTING_CELL_CLASSES}>
              <div className="flex w-full flex-col [&>article]:flex-1">
                <ListingCard listing={listing} priority={index < priorityCount} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
