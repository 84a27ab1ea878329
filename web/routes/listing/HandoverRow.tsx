// How the toy can change hands, in the listing page's details: "Hentes", "Kan sendes (Medium pakke)".
// From the taxonomy (carriers.ts re-exports them): the listing page must not load the form's rules.
import { HANDOVER_LISTING_LABELS, PARCEL_SIZE_LABELS } from "../../../domain/taxonomy";
import type { ListingDetail } from "../../../domain/schemas/listing";

export function HandoverRow({ listing }: { listing: Pick<ListingDetail, "handover" | "parcel_size"> }) {
  return (
    <>
      <dt className="font-medium text-stone-600">Levering</dt>
      <dd>
        {listing.handover
          .map((mode) =>
            mode === "shipping" && listing.parcel_size
              ? `${HANDOVER_LISTING_LABELS.shipping} (${PARCEL_SIZE_LABELS[listing.parcel_size]})`
              : HANDOVER_LISTING_LABELS[mode],
          )
          .join(", ")}
      </dd>
    </>
  );
}
