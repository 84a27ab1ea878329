// What the owner may still edit while a listing is held for someone (decision 086): a listing
// promised in an agreed trade stays exactly as the other party agreed to it, and a toy reserved or
// given through the give-away queue may only have its text fixed (title, description). Anything
// else (price, free, condition, photos, …) would leave the trade or the queue pointing at a different
// toy, or a give-away that give/release can no longer handle. The Worker turns these rules into the
// conditions of its UPDATE (worker/features/listings/listings.ts), so an edit racing an accept or a reserve
// cannot slip through.

import { listingAttributes, type ListingAttributeKey } from "./listing-fields";

const CORE_EDIT_FIELDS = [
  "title",
  "description",
  "category",
  "ageRange",
  "conditionRating",
  "price",
  "isFree",
  "isTradeOffer",
  "postalCode",
  "images",
  "paymentEnabled",
  "pricingMode",
  "canPickUp",
  "canShip",
  "parcelSize",
] as const;
/** The listing form's fields as stored (payment settings and the declared fields included). */
export type ListingEditField = (typeof CORE_EDIT_FIELDS)[number] | ListingAttributeKey;
export const LISTING_EDIT_FIELDS: readonly ListingEditField[] = [
  ...CORE_EDIT_FIELDS,
  ...listingAttributes().map((a) => a.key as ListingAttributeKey),
];

/**
 * Why a listing is held: promised in an accepted trade, reserved/given through the give-away queue,
 * or paid for by a buyer (a completed payment: the order is running or done).
 */
export type ListingHold = "trade" | "giveaway" | "paid";
export const LISTING_HOLDS: readonly ListingHold[] = ["trade", "giveaway", "paid"];

/** How the toy changes hands: the buyer paid for one of these ways (decision 148). */
export const HANDOVER_EDIT_FIELDS: readonly ListingEditField[] = ["canPickUp", "canShip", "parcelSize"];

/** The fields each hold still lets the owner change. */
export const EDITABLE_WHILE_HELD: Record<ListingHold, readonly ListingEditField[]> = {
  trade: [],
  giveaway: ["title", "description"],
  // What was editable on a sold listing stays so; only how it changes hands is the buyer's now.
  paid: LISTING_EDIT_FIELDS.filter((field) => !HANDOVER_EDIT_FIELDS.includes(field)),
};

export const LISTING_HOLD_EDIT_TEXTS: Record<ListingHold, string> = {
  trade: "Annonsen er med i et avtalt bytte og kan ikke endres. Avbryt byttet i samtalen først.",
  giveaway: "Leken er reservert eller gitt bort gjennom gi bort-køen. Nå kan du bare rette tittel og beskrivelse.",
  paid: "En kjøper har betalt for leken, så «Hentes» og «Kan sendes» kan ikke endres.",
};

/** The holds under which these changes are refused (the Worker's UPDATE requires none of them). */
export function holdsForbidding(changed: readonly ListingEditField[]): ListingHold[] {
  return LISTING_HOLDS.filter((hold) => changed.some((field) => !EDITABLE_WHILE_HELD[hold].includes(field)));
}

/** The refusal for changing `changed` on a listing under `holds`, or null when the edit is allowed. */
export function heldEditRefusal(holds: readonly ListingHold[], changed: readonly ListingEditField[]): string | null {
  const forbidding = holdsForbidding(changed);
  const hold = LISTING_HOLDS.find((h) => holds.includes(h) && forbidding.includes(h));
  return hold ? LISTING_HOLD_EDIT_TEXTS[hold] : null;
}

/**
 * The fields that make up what a buyer pays for: when an edit changes one, checkouts started before
 * it are closed, and a payment made at the old terms is refunded, never fulfilled (decision 087).
 */
export const PURCHASE_TERM_FIELDS: readonly ListingEditField[] = [
  "price",
  "isFree",
  "paymentEnabled",
  "pricingMode",
  ...HANDOVER_EDIT_FIELDS,
];

export function changesPurchaseTerms(changed: readonly ListingEditField[]): boolean {
  return changed.some((field) => PURCHASE_TERM_FIELDS.includes(field));
}

/** Which fields differ between the stored values and the new ones (arrays compared in order). */
export function changedEditFields(
  before: Partial<Record<ListingEditField, unknown>>,
  after: Partial<Record<ListingEditField, unknown>>,
): ListingEditField[] {
  const same = (a: unknown, b: unknown) =>
    Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((v, i) => v === b[i]) : (a ?? null) === (b ?? null);
  return LISTING_EDIT_FIELDS.filter((field) => field in after && !same(before[field], after[field]));
}
