import { useId } from "react";
import type { ListingPage } from "../../api/listings";
import { ListingCard } from "../../components/ListingCard";

/** "Flere annonser fra …": up to four of the seller's other listings, under the listing. */
export function MoreFromSeller({
  listings,
  sellerName,
  now,
}: {
  listings: ListingPage["more_from_seller"];
  sellerName: string;
  now?: Date;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-10 px-4 pb-6 sm:px-0 md:col-span-2">
      <h2 id={headingId} className="text-xl font-bold text-stone-900">
        Flere annonser fra {sellerName}
      </h2>
      <ul className="mt-3 grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-4">
        {listings.slice(0, 4).map((item) => (
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
