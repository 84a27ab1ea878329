// The listing form as the edit page sends it for a stored row (PUT /api/listings/:id), with changes.
import { handoverModes } from "../../../domain/carriers";
import type { ListingRow } from "../../factories";

export function editFormOf(row: ListingRow, change: Record<string, unknown> = {}) {
  return {
    title: row.title,
    description: row.description,
    category: row.category,
    age_range: row.ageRange,
    condition_rating: row.conditionRating,
    price: row.price,
    is_free: row.isFree,
    is_trade_offer: row.isTradeOffer,
    postal_code: row.postalCode,
    images: row.images,
    handover: handoverModes(row.canPickUp, row.canShip),
    parcel_size: row.parcelSize,
    ...change,
  };
}
