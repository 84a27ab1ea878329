import { Star, UserRound } from "lucide-react";
import { useId, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { formatRatingAverage, reviewCountLabel } from "../../domain/reviews";
import { cn } from "../lib/cn";
import { VippsVerifiedBadge } from "./VippsVerifiedBadge";

export interface SellerRating {
  average: number | null;
  count: number;
}

/**
 * "Selger" with the seller's name and one line about them (listing detail, /betaling-fullfort);
 * `action` sits at the end of the card (the listing page's "Rapporter bruker"). With `profile`, the
 * name and the seller's average and count link to the public profile /bruker/{id}; `verified`
 * shows "Verifisert med Vipps" under the name (a phone number Vipps vouched for).
 */
export function SellerCard({
  name,
  children,
  action,
  className,
  profile,
  verified = false,
}: {
  name: string;
  children: ReactNode;
  verified?: boolean;
  action?: ReactNode;
  className?: string;
  profile?: { userId: string; rating: SellerRating };
}) {
  const headingId = useId();
  const href = profile ? `/bruker/${profile.userId}` : null;
  return (
    <section
      aria-labelledby={headingId}
      className={cn("flex flex-wrap items-center gap-3 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm", className)}
    >
      <div aria-hidden="true" className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-800">
        <UserRound className="size-6" />
      </div>
      <div className="min-w-0 flex-1 basis-40">
        <h2 id={headingId} className="text-sm font-medium text-stone-600">
          Selger
        </h2>
        <p className="truncate font-semibold text-stone-900">{name}</p>
        {verified ? <VippsVerifiedBadge className="mt-0.5" /> : null}
        <p className="text-sm text-stone-700">{children}</p>
        {profile && href ? (
          <Link
            to={href}
            className="mt-0.5 inline-flex min-h-11 items-center gap-1 text-sm font-semibold whitespace-nowrap text-brand-800 underline sm:min-h-0"
          >
            {profile.rating.count && profile.rating.average !== null ? (
              <>
                <Star aria-hidden="true" className="size-4 fill-amber-400 text-amber-500" />
                <span>
                  {formatRatingAverage(profile.rating.average)} <span className="sr-only">av 5</span> (
                  {reviewCountLabel(profile.rating.count)})
                </span>
              </>
            ) : (
              "Ingen vurderinger ennå · Se profil"
            )}
          </Link>
        ) : null}
      </div>
      {action}
    </section>
  );
}
