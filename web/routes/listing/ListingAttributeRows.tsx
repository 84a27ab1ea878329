// The listing's declared fields (domain/listing-fields.ts) in the listing page's details: a row each
// for those the seller filled in, the value a link to the search for it (every "Lego" listing).
import { Fragment } from "react";
import { Link } from "../../components/Link";
import { listingAttributes, type ListingAttributeValues } from "../../../domain/listing-fields";

export function ListingAttributeRows({ listing }: { listing: ListingAttributeValues }) {
  return listingAttributes().map((a) => {
    const value = listing[a.key as keyof ListingAttributeValues];
    if (!value) return null;
    return (
      <Fragment key={a.key}>
        <dt className="font-medium text-stone-600">{a.label}</dt>
        <dd>
          <Link
            // The search's canonical address for this one filter (as domain/searchUrl.ts writes it), without
            // loading the search's URL code on the listing page's first load.
            to={`/search?${a.key}=${encodeURIComponent(value)}`}
            className="font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900"
          >
            {value}
          </Link>
        </dd>
      </Fragment>
    );
  });
}
