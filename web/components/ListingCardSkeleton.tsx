import { cn } from "../lib/cn";
import { cardClasses } from "./ListingCard";

/** A grey stand-in of a listing card's exact size, shown while listings load (nothing shifts when they arrive). */
export function ListingCardSkeleton() {
  return (
    <div aria-hidden="true" data-testid="listing-card-skeleton" className={cn(cardClasses.article, "shadow-none")}>
      <div className={cn(cardClasses.photo, "animate-pulse")} />
      <div className={cardClasses.body}>
        <div className={cn(cardClasses.title, "flex flex-col gap-1.5 py-1")}>
          <span className="h-3.5 w-11/12 rounded bg-stone-200" />
          <span className="h-3.5 w-2/3 rounded bg-stone-200" />
        </div>
        <div className={cn(cardClasses.price, "flex items-center")}>
          <span className="h-4 w-16 rounded bg-stone-200" />
        </div>
        <div className={cn(cardClasses.meta, "flex items-center")}>
          <span className="h-3 w-24 rounded bg-stone-100" />
        </div>
      </div>
    </div>
  );
}
