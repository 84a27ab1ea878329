import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Gift, MessageCircle } from "lucide-react";
import { useEffect } from "react";
import { Link } from "../../components/Link";
import { GIVEAWAY_TEXTS, mineLabel } from "../../../domain/giveaways";
import { EmptyListFindToys, ListLoadFailed } from "../../components/ListStates";
import { buttonClasses } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { cn } from "../../lib/cn";
import { PLACEHOLDER_IMAGE, firstImageUrl } from "../../lib/images";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { giveawayKeys, markNoticesSeen, myGiveawayPlacesQuery } from "../../api/giveaways";

/**
 * /mine-koplasser ("Mine køplasser", in the account menu): every give-away queue the user is in or
 * was in, with their place or how it ended. The giver's moves the user has not seen yet are marked
 * "Ny" (the in-app notice, counted on the account menu); opening the page marks them seen.
 */
export function GiveawayPlacesPage() {
  useDocumentTitle("Mine køplasser");
  const queryClient = useQueryClient();
  const { data, isPending, error, refetch, isRefetching } = useQuery(myGiveawayPlacesQuery());
  const hasUnseen = data?.some((place) => place.unseen) ?? false;

  useEffect(() => {
    // Shown once as "Ny", then seen: the badge goes, this list keeps its marks until it reloads.
    if (!hasUnseen) return;
    void markNoticesSeen().then(() => queryClient.invalidateQueries({ queryKey: giveawayKeys.unseen }));
  }, [hasUnseen, queryClient]);

  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">Mine køplasser</h1>
      <p className="mt-1 text-stone-700">Leker du har sagt «{GIVEAWAY_TEXTS.want}» til.</p>
      {isPending ? (
        <Spinner label="Laster køplasser..." className="py-12" />
      ) : error ? (
        <ListLoadFailed onRetry={() => void refetch()} retrying={isRefetching} error={error}>
          Kunne ikke hente køplassene. {error.message}
        </ListLoadFailed>
      ) : data.length === 0 ? (
        <EmptyListFindToys icon={Gift}>
          <p className="mt-3 text-stone-700">Du står ikke i noen kø.</p>
        </EmptyListFindToys>
      ) : (
        <ul className="mt-4 space-y-3">
          {data.map((place) => (
            <li
              key={place.listing.id}
              className={cn("flex gap-3 rounded-2xl border bg-white p-3", place.unseen ? "border-brand-600" : "border-stone-200")}
            >
              <img
                src={firstImageUrl(place.listing.images) ?? PLACEHOLDER_IMAGE}
                alt=""
                width={64}
                height={64}
                className="size-16 shrink-0 rounded-xl object-cover"
              />
              <div className="min-w-0 flex-1">
                <h2 className="font-semibold break-words text-stone-900">
                  {place.listing.public ? (
                    <Link to={`/annonse/${encodeURIComponent(place.listing.seo_slug)}`} className="underline-offset-2 hover:underline">
                      {place.listing.title}
                    </Link>
                  ) : (
                    place.listing.title
                  )}
                  {place.unseen ? <span className="ml-2 rounded-full bg-red-700 px-2 py-0.5 text-xs font-bold text-white">Ny</span> : null}
                </h2>
                <p className="mt-0.5 text-stone-800">{mineLabel(place)}</p>
                {place.status === "reserved" && place.conversation_id ? (
                  <Link to={`/chat/${place.conversation_id}`} className={buttonClasses("secondary", "sm", "mt-2")}>
                    <MessageCircle aria-hidden="true" className="size-4" />
                    {GIVEAWAY_TEXTS.openChat}
                  </Link>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
