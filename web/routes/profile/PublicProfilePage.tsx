import { useQuery } from "@tanstack/react-query";
import { Flag, Star, UserRound } from "lucide-react";
import { useState } from "react";
import { useParams } from "react-router-dom";
import { formatDate } from "../../../domain/format";
import { DEAL_ROLE_LABELS, formatRatingAverage, ratingSummaryText, reviewCountLabel } from "../../../domain/reviews";
import { profileReviewsPage, publicProfileQuery, type PublicProfileBody, type ReviewBody } from "../../api/account";
import { isApiError } from "../../api/client";
import { ListingCard } from "../../components/ListingCard";
import { ListLoadFailed } from "../../components/ListStates";
import { VIPPS_VERIFIED, VIPPS_VERIFIED_CLASSES } from "../../components/SellerCard";
import { LazyReportDialog } from "../../components/lazyDialogs";
import { Stars } from "../../components/reviews/Stars";
import { Button } from "../../components/ui/Button";
import { PageSpinner } from "../../components/ui/Spinner";
import { toastError } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useReport } from "../../lib/useReport";
import { SESSION_DEPENDENT, useSession } from "../../lib/useSession";
import { NotFound } from "../fallback/NotFound";

/**
 * /bruker/{id}: a member's public profile (decision 071): name, member since, active listings, the
 * average and count of their reviews, and the reviews (blind ones and hidden ones are not shown).
 * Each review can be reported ("Rapporter vurdering").
 */
export function PublicProfilePage() {
  const { id = "" } = useParams();
  const profile = useQuery(publicProfileQuery(id));
  if (profile.error) {
    if (isApiError(profile.error) && profile.error.status === 404) return <NotFound />;
    return (
      <div className="mx-auto max-w-3xl px-4 py-8">
        <ListLoadFailed onRetry={() => void profile.refetch()} retrying={profile.isRefetching} error={profile.error}>
          Kunne ikke hente profilen
        </ListLoadFailed>
      </div>
    );
  }
  if (!profile.data) return <PageSpinner label="Laster profil..." />;
  return <ProfileView key={id} profile={profile.data} />;
}

function ProfileView({ profile }: { profile: PublicProfileBody }) {
  useDocumentTitle(profile.display_name);
  const session = useSession();
  const report = useReport();
  const [more, setMore] = useState<ReviewBody[]>([]);
  const [nextOffset, setNextOffset] = useState(profile.next_offset);
  const [loadingMore, setLoadingMore] = useState(false);
  const reviews = [...profile.reviews, ...more];
  const myId = session.user?.id ?? null;

  const loadMore = async () => {
    if (nextOffset === null) return;
    setLoadingMore(true);
    try {
      const page = await profileReviewsPage(profile.id, nextOffset);
      setMore((list) => [...list, ...page.reviews]);
      setNextOffset(page.next_offset);
    } catch (error) {
      toastError("Feil", "Kunne ikke hente flere vurderinger", { error });
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:py-8">
      <header className="flex items-center gap-4">
        <div aria-hidden="true" className="flex size-16 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-800">
          <UserRound className="size-8" />
        </div>
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">{profile.display_name}</h1>
          <p className="text-stone-700">Medlem siden {formatDate(profile.member_since)}</p>
          {profile.phone_verified ? <span className={VIPPS_VERIFIED_CLASSES}>{VIPPS_VERIFIED}</span> : null}
          <p className="mt-1 flex items-center gap-1.5 font-semibold text-stone-900">
            {profile.rating.count && profile.rating.average !== null ? (
              <>
                <Star aria-hidden="true" className="size-5 fill-amber-400 text-amber-500" />
                <span>
                  {formatRatingAverage(profile.rating.average)} av 5{" "}
                  <span className="font-normal text-stone-700">({reviewCountLabel(profile.rating.count)})</span>
                </span>
              </>
            ) : (
              <span className="font-normal text-stone-700">{ratingSummaryText(profile.rating)}</span>
            )}
          </p>
        </div>
      </header>

      <section aria-labelledby="profile-listings" className="mt-8">
        <h2 id="profile-listings" className="text-xl font-bold text-stone-900">
          Annonser ({profile.listing_count})
        </h2>
        {profile.listings.length === 0 ? (
          <p className="mt-2 text-stone-700">Ingen aktive annonser akkurat nå.</p>
        ) : (
          <ul className="mt-3 grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-4">
            {profile.listings.map((listing) => (
              <li key={listing.id} className="flex">
                <div className="flex w-full flex-col [&>article]:flex-1">
                  <ListingCard listing={listing} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="profile-reviews" className="mt-8">
        <h2 id="profile-reviews" className="text-xl font-bold text-stone-900">
          Vurderinger ({profile.rating.count})
        </h2>
        {reviews.length === 0 ? (
          <p className="mt-2 text-stone-700">{profile.display_name} har ingen vurderinger ennå.</p>
        ) : (
          <ul className="mt-3 space-y-3">
            {reviews.map((review) => (
              <li key={review.id} className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <Stars rating={review.rating} />
                  <span className="text-sm text-stone-700">{formatDate(review.created_at)}</span>
                </div>
                {review.text ? <p className="mt-2 break-words whitespace-pre-line text-stone-900">{review.text}</p> : null}
                <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm text-stone-700">
                  <span>
                    {review.reviewer.display_name}
                    {review.reviewer_role ? ` · ${DEAL_ROLE_LABELS[review.reviewer_role]}` : ""}
                  </span>
                  {review.reviewer.id !== myId ? (
                    <button
                      type="button"
                      onClick={() => report.open({ type: "review", id: review.id })}
                      {...SESSION_DEPENDENT}
                      className="inline-flex min-h-11 items-center gap-1.5 rounded-xl px-2 font-medium text-stone-700 hover:bg-stone-100 hover:text-stone-900"
                    >
                      <Flag aria-hidden="true" className="size-4" />
                      Rapporter vurdering
                    </button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
        {nextOffset !== null ? (
          <div className="mt-4 flex justify-center">
            <Button variant="secondary" onClick={() => void loadMore()} disabled={loadingMore}>
              {loadingMore ? "Laster..." : "Vis flere"}
            </Button>
          </div>
        ) : null}
      </section>
      <LazyReportDialog target={report.target} onClose={report.close} />
    </div>
  );
}
