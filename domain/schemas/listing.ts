import { z } from "./zod";
import { normalizeAgeRange, normalizeCategory, type ListingStatus, type PricingMode } from "../taxonomy";
import {
  DESCRIPTION_MAX_LENGTH,
  LISTING_PRICE_MAX,
  MAX_IMAGES_PER_LISTING,
  POSTAL_CODE_MIN_LENGTH,
  TITLE_MAX_LENGTH,
  TITLE_MIN_LENGTH,
} from "../limits";
import { OWNER_STATUSES } from "../listing-lifecycle";
import { optionalMultiLineText, optionalSingleLineText, singleLineText } from "./user-text";
import { SELLER_PRICING_MODES } from "../payments";
import { formatNumber } from "../format";
import { listingAttributes, type ListingAttribute, type ListingAttributeKey, type ListingAttributeValues } from "../listing-fields";
import { attributeValue } from "../listing-field-rules";
import { HANDOVER_MODES, handoverRefusal, PARCEL_SIZES, SHIPPING_CHOICE_REFUSALS, type HandoverMode, type ParcelSize } from "../carriers";

/** A declared field (domain/listing-fields.ts): one optional line, stored as attributeValue writes it. */
const attributeField = (a: ListingAttribute) =>
  optionalSingleLineText(`${a.label} må være tekst`)
    .pipe(z.string().max(a.maxLength, a.tooLong))
    .transform((v) => attributeValue(a, v));
const attributeFields = Object.fromEntries(listingAttributes().map((a) => [a.key, attributeField(a)])) as {
  [K in ListingAttributeKey]: ReturnType<typeof attributeField>;
};

const category = z.string({ error: "Velg en kategori" }).transform((v, ctx) => {
  const key = normalizeCategory(v);
  if (!key) {
    ctx.addIssue({ code: "custom", message: "Velg en kategori" });
    return z.NEVER;
  }
  return key;
});

const ageRange = z.string({ error: "Velg aldersgruppe" }).transform((v, ctx) => {
  const age = normalizeAgeRange(v);
  if (!age) {
    ctx.addIssue({ code: "custom", message: "Velg aldersgruppe" });
    return z.NEVER;
  }
  return age;
});

export const PRICE_MESSAGE = "Prisen må være et helt antall kroner, skrevet med siffer (f.eks. 250)";
export const PRICE_TOO_HIGH_MESSAGE = `Prisen kan være maks ${formatNumber(LISTING_PRICE_MAX)} kr`;

/**
 * Whole kroner from the form: digits only ("0x10", "1e3", "12.5" and "-1" are refused, never read
 * as numbers), or a JSON integer. Empty means 0 (docs/product.md "Validation"); null when nothing can be read.
 */
export function parsePrice(value: number | string | null | undefined): number | null {
  if (value == null) return 0;
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? value : null;
  const text = value.trim();
  if (text === "") return 0;
  if (!/^[0-9]+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * The listing form (create and edit, docs/product.md "Validation"). Unknown keys (user_id, status, is_hidden,
 * seo_slug, payment records) are stripped by zod's default object behaviour. Control characters are
 * removed before the length checks, so what is checked is what is stored.
 */
export const listingFormSchema = z
  .object({
    title: singleLineText("Tittel må være minst 3 tegn").pipe(
      z
        .string()
        .trim()
        .min(TITLE_MIN_LENGTH, "Tittel må være minst 3 tegn")
        .max(TITLE_MAX_LENGTH, `Tittelen kan være maks ${TITLE_MAX_LENGTH} tegn`),
    ),
    description: optionalMultiLineText("Beskrivelsen må være tekst")
      .pipe(z.string().trim().max(DESCRIPTION_MAX_LENGTH, `Beskrivelsen kan være maks ${DESCRIPTION_MAX_LENGTH} tegn`))
      .transform((v) => (v ? v : null)),
    category,
    age_range: ageRange,
    condition_rating: z.coerce.number({ error: "Velg tilstand" }).int("Velg tilstand").min(1, "Velg tilstand").max(5, "Velg tilstand"),
    price: z.union([z.number(), z.string(), z.null()], { error: PRICE_MESSAGE }).optional(),
    is_free: z.boolean().default(false),
    is_trade_offer: z.boolean().default(false),
    postal_code: z
      .string({ error: "Postnummer må være minst 4 siffer" })
      .trim()
      .min(POSTAL_CODE_MIN_LENGTH, "Postnummer må være minst 4 siffer")
      .regex(/^\d{4}$/, "Postnummer må være minst 4 siffer"),
    images: z.array(z.string().min(1)).max(MAX_IMAGES_PER_LISTING, "For mange bilder").default([]),
    ...attributeFields,
    // How the toy changes hands (decision 148). A client that sends neither is read as pick-up
    // only, as every listing was before shipping; a size without "Kan sendes" is dropped.
    handover: z
      .array(z.enum(HANDOVER_MODES, { error: SHIPPING_CHOICE_REFUSALS.noHandover }), { error: SHIPPING_CHOICE_REFUSALS.noHandover })
      .default(["in_person"]),
    parcel_size: z.enum(PARCEL_SIZES, { error: SHIPPING_CHOICE_REFUSALS.noSize }).nullable().optional(),
    // Payment settings; the server applies them only for a seller whose Stripe account can take
    // charges (worker/features/payments/listing-payment.ts).
    payment_enabled: z.boolean().optional(),
    pricing_mode: z.enum(SELLER_PRICING_MODES, { error: "Velg hvordan kjøpere kan betale" }).optional(),
  })
  .transform((v, ctx) => {
    // Each field's refusal is reported, so the form can show both at once.
    let valid = true;
    const refuse = (path: string, message: string) => {
      ctx.addIssue({ code: "custom", path: [path], message });
      valid = false;
    };
    // Free is stored as null; otherwise the digits are read and an empty value is 0 (docs/product.md "Validation").
    let price: number | null = null;
    if (!v.is_free) {
      price = parsePrice(v.price);
      if (price === null) refuse("price", PRICE_MESSAGE);
      else if (price > LISTING_PRICE_MAX) refuse("price", PRICE_TOO_HIGH_MESSAGE);
    }
    const handover = HANDOVER_MODES.filter((mode) => v.handover.includes(mode));
    const parcelSize = handover.includes("shipping") ? (v.parcel_size ?? null) : null;
    const refusal = handoverRefusal(handover, parcelSize);
    if (refusal) refuse(handover.length === 0 ? "handover" : "parcel_size", refusal);
    return valid ? { ...v, price, handover, parcel_size: parcelSize } : z.NEVER;
  });

/** POST /api/listings/:id/status: only the states a seller may set. */
export const listingStatusSchema = z.object({
  status: z.enum(OWNER_STATUSES, { error: "Ugyldig status" }),
});

export type ListingFormInput = z.input<typeof listingFormSchema>;
export type ListingForm = z.output<typeof listingFormSchema>;

/** A listing as the public API returns it on cards and in lists. */
export interface ListingCard {
  id: string;
  user_id: string;
  title: string;
  price: number | null;
  is_free: boolean;
  is_trade_offer: boolean;
  condition_rating: number;
  category: string;
  age_range: string;
  postal_code: string;
  images: string[];
  status: ListingStatus;
  seo_slug: string;
  pricing_mode: PricingMode;
  payment_enabled: boolean;
  /** How the toy can change hands, in HANDOVER_MODES' order: the card shows "Kan sendes". */
  handover: HandoverMode[];
  created_at: string;
  /** Only in the owner's own lists: hidden by moderation, and why. */
  is_hidden?: boolean;
  hidden_reason?: string | null;
}

/** Why moderation hid a listing: only its owner and moderators get this (on a hidden listing). */
export interface ListingHidden {
  reason: string | null;
  hidden_at: string | null;
  /** Hidden automatically after reports from several users, until a moderator decides. */
  auto: boolean;
}

/** The listing page's listing: the card, its description, its declared fields (domain/listing-fields.ts) and its seller. */
export interface ListingDetail extends ListingCard, ListingAttributeValues {
  description: string | null;
  /** The parcel size the seller promises; null unless the toy can be sent. */
  parcel_size: ParcelSize | null;
  updated_at: string;
  place_name: string | null;
  /**
   * `rating`: the seller's shown reviews (average null without any), linking to /bruker/{user_id};
   * `phone_verified`: a phone number Vipps verified ("Verifisert med Vipps").
   */
  seller: {
    user_id: string;
    display_name: string | null;
    created_at: string;
    phone_verified: boolean;
    rating: { average: number | null; count: number };
  };
  hidden?: ListingHidden;
}

export interface HomeSections {
  newest: ListingCard[];
  free: ListingCard[];
  trade: ListingCard[];
}
