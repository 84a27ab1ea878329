import { attributeFormKeys } from "../../components/listing-form/AttributeFields";
import type { ListingFormValues } from "../../components/listing-form/ListingFields";
import { HANDOVER_MODES, PARCEL_SIZES } from "../../../domain/carriers";

/**
 * A half-filled create wizard kept on the device (localStorage, per user), so an accidental
 * navigation, a closed tab or a reload loses nothing: the text fields, the step and the keys of the
 * photos already uploaded. It lives until the listing is published or the draft is discarded.
 */
export interface ListingDraft {
  values: Partial<ListingFormValues>;
  /** Keys of photos already uploaded (`/api/images`), in order. */
  photos: { key: string; name: string }[];
  step: number;
  /** ms since the epoch. */
  savedAt: number;
}

const PREFIX = "lekebytte:listing-draft:";
/** Only what the wizard asks for; anything else in storage is ignored. */
const TEXT_FIELDS: (keyof ListingFormValues)[] = [
  "title",
  "description",
  "category",
  "age_range",
  "price",
  "postal_code",
  ...attributeFormKeys(),
];

function storageKey(userId: string): string {
  return `${PREFIX}${userId}`;
}

export function loadDraft(userId: string): ListingDraft | null {
  try {
    const raw = localStorage.getItem(storageKey(userId));
    if (!raw) return null;
    const data = JSON.parse(raw) as Partial<ListingDraft>;
    const values: Partial<ListingFormValues> = {};
    for (const field of TEXT_FIELDS) {
      const value = data.values?.[field];
      if (typeof value === "string" || (field === "price" && typeof value === "number")) (values as Record<string, unknown>)[field] = value;
    }
    // The radio's value is the rating as text ("4"); an older draft may hold a number.
    const condition = data.values?.condition_rating;
    if (typeof condition === "number" || (typeof condition === "string" && /^[1-5]$/.test(condition))) values.condition_rating = condition;
    if (typeof data.values?.is_free === "boolean") values.is_free = data.values.is_free;
    if (typeof data.values?.is_trade_offer === "boolean") values.is_trade_offer = data.values.is_trade_offer;
    const handover = data.values?.handover;
    if (Array.isArray(handover)) values.handover = HANDOVER_MODES.filter((mode) => handover.includes(mode));
    const size = data.values?.parcel_size;
    if (PARCEL_SIZES.some((s) => s === size)) values.parcel_size = size;
    const photos = Array.isArray(data.photos)
      ? data.photos.filter((p): p is { key: string; name: string } => typeof p?.key === "string" && typeof p?.name === "string")
      : [];
    const step = typeof data.step === "number" && data.step >= 1 && data.step <= 4 ? Math.floor(data.step) : 1;
    const draft = { values, photos, step, savedAt: typeof data.savedAt === "number" ? data.savedAt : Date.now() };
    return isEmptyDraft(draft) ? null : draft;
  } catch {
    return null;
  }
}

export function saveDraft(userId: string, draft: ListingDraft): void {
  try {
    if (isEmptyDraft(draft)) localStorage.removeItem(storageKey(userId));
    else localStorage.setItem(storageKey(userId), JSON.stringify(draft));
  } catch {
    // Storage full or unavailable: the wizard still works, only without a draft.
  }
}

export function clearDraft(userId: string): void {
  try {
    localStorage.removeItem(storageKey(userId));
  } catch {
    // nothing to clear
  }
}

/** Nothing the user chose or typed (the postal code is prefilled from the profile, so it does not count). */
export function isEmptyDraft(draft: Pick<ListingDraft, "values" | "photos">): boolean {
  const v = draft.values;
  return (
    draft.photos.length === 0 &&
    !v.title?.trim() &&
    !v.description?.trim() &&
    attributeFormKeys().every((key) => !String(v[key] ?? "").trim()) &&
    !v.category &&
    !v.age_range &&
    v.condition_rating === undefined &&
    !String(v.price ?? "").trim() &&
    !v.is_free &&
    !v.is_trade_offer
  );
}
