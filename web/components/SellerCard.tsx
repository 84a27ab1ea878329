import { Star, UserRound } from "lucide-react";
import { useId, type ReactNode } from "react";
import { Link } from "./Link";
import { formatRatingAverage, reviewCountLabel } from "../../domain/reviews";
import { cn } from "../lib/cn";

/**
 * "Verifisert med Vipps": a phone number Vipps vouched for (decision 128), on the seller card and
 * the profiles, as a line of text in these classes: the listing page's JavaScript is on a budget
 * (decision 102), too tight for a badge with an icon or a component of its own.
 */
export const VIPPS_VERIFIED = "Verifisert med Vipps";
export const VIPPS_VERIFIED_CLASSES = "text-sm font-semibold text-emerald-800";

export interface SellerRating {
  average: number | null;
  count: number;
}

/**
 * "Selger" with the seller's name and one line about them (listing detail, /betaling-fullfort);
 * `action` sits at the end of the card (the listing page's "Rapporter bruker"). With `profile` (the
 * listing's seller), the name and the seller's average and count link to the public profile
 * /bruker/{id}, and a phone number Vipps vouched for shows "Verifisert med Vipps" under the name.
 */
export function SellerCard({
  name,
  children,
  action,
  className,
  profile,
}: {
  name: string;
  children: ReactNode;
  action?: ReactNode;
  className?: string;
  profile?: { user_id: string; rating: SellerRating; phone_verified: boolean };
}) {
  const headingId = useId();
  const href = profile ? `/bruker/${profile.user_id}` : null;
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
        {profile?.phone_verified ? <p className={VIPPS_VERIFIED_CLASSES}>{VIPPS_VERIFIED}</p> : null}
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
