// The listing page's parts below its first screen: the seller's card and the seller's other
// listings. ListingView loads this module only when one of them is in view (decision 104), so the
// page's first load leaves out their code (the cards, the reviews' texts, the seller card).
import { Flag } from "lucide-react";
import { useId } from "react";
import { formatDate } from "../../../domain/format";
import type { ListingPage } from "../../api/listings";
import { ListingCard } from "../../components/ListingCard";
import { SellerCard } from "../../components/SellerCard";

export function ListingSellerCard({
  listing,
  sellerName,
  onReportUser,
}: {
  listing: ListingPage;
  sellerName: string;
  /** "Rapporter bruker"; none for the owner. */
  onReportUser?: () => void;
}) {
  return (
    <SellerCard
      name={sellerName}
      profile={{ userId: listing.seller.user_id, rating: listing.seller.rating }}
      action={
        onReportUser ? (
          <button
            type="button"
            onClick={onReportUser}
            className="ml-auto inline-flex min-h-11 shrink-0 items-center gap-1.5 rounded-xl px-2 text-sm font-medium text-stone-700 hover:bg-stone-100 hover:text-stone-900"
          >
            <Flag aria-hidden="true" className="size-4" />
            Rapporter bruker
          </button>
        ) : null
      }
    >
      Medlem siden {formatDate(listing.seller.created_at)}
    </SellerCard>
  );
}

export function MoreFromSeller({ listing, sellerName, now }: { listing: ListingPage; sellerName: string; now?: Date }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-bold text-stone-900">
        Flere annonser fra {sellerName}
      </h2>
      <ul className="mt-3 grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-4">
        {listing.more_from_seller.slice(0, 4).map((item) => (
          <li key={item.id} className="flex">
            <div className="flex w-full flex-col [&>article]:flex-1">
              <ListingCard listing={item} now={now} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
