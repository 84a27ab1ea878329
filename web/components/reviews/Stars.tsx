import { Star } from "lucide-react";
import { cn } from "../../lib/cn";

/** A rating as five stars, read out as "4 av 5 stjerner". */
export function Stars({ rating, className }: { rating: number; className?: string }) {
  const full = Math.round(rating);
  return (
    <span role="img" aria-label={`${full} av 5 stjerner`} className={cn("inline-flex items-center gap-0.5", className)}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          aria-hidden="true"
          className={cn("size-4", n <= full ? "fill-amber-400 text-amber-500" : "fill-none text-stone-400")}
        />
      ))}
    </span>
  );
}
