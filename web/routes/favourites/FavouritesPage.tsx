import { useQuery } from "@tanstack/react-query";
import { Heart } from "lucide-react";
import { favouritesQuery } from "../../api/favourites";
import { ListingCard } from "../../components/ListingCard";
import { EmptyListFindToys, ListLoadFailed } from "../../components/ListStates";
import { Spinner } from "../../components/ui/Spinner";
import { useDocumentTitle } from "../../lib/useDocumentTitle";

/** /favoritter: the signed-in user's favourited listings (login required by the router). */
export function FavouritesPage() {
  useDocumentTitle("Favoritter");
  const { data, isPending, error, refetch, isRefetching } = useQuery(favouritesQuery());

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">Favoritter</h1>
      {isPending ? (
        <Spinner label="Laster favoritter..." className="py-12" />
      ) : error ? (
        <ListLoadFailed onRetry={() => void refetch()} retrying={isRefetching} error={error}>
          Kunne ikke hente favoritter. {error.message}
        </ListLoadFailed>
      ) : data.length === 0 ? (
        <EmptyListFindToys icon={Heart}>
          <p className="mt-3 text-stone-700">Du har ingen favoritter ennå.</p>
        </EmptyListFindToys>
      ) : (
        <ul className="mt-4 grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4">
          {data.map((listing) => (
            <li key={listing.id} className="flex">
              <div className="flex w-full flex-col [&>article]:flex-1">
                <ListingCard listing={listing} headingLevel={2} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
