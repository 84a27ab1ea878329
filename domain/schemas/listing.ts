import { z } from "./zod";
import { AGE_RANGES, CATEGORY_KEYS, normalizeAgeRange, normalizeCategory, type ListingStatus, type PricingMode } from "../taxonomy";
import { MAX_IMAGES_PER_LISTING, POSTAL_CODE_MIN_LENGTH, TITLE_MIN_LENGTH } from "../limits";
import { SELLER_PRICING_MODES } from "../payments";

const category = z
  .string({ error: "Velg en kategori" })
  .transform((v, ctx) => {
    const key = normalizeCategory(v);
    if (!key) {
      ctx.addIssue({ code: "custom", message: "Velg en kategori" });
      return z.NEVER;
    }
    return key;
  });

const ageRange = z
  .string({ error: "Velg aldersgruppe" })
  .transform((v, ctx) => {
    const age = normalizeAgeRange(v);
    if (!age) {
      ctx.addIssue({ code: "custom", message: "Velg aldersgruppe" });
      return z.NEVER;
    }
    return age;
  });

/**
 * The listing form (create and edit, spec part 1 §5). Unknown keys (user_id, status, is_hidden,
 * seo_slug, payment records) are stripped by zod's default object behaviour.
 */
export const listingFormSchema = z
  .object({
    title: z.string().trim().min(TITLE_MIN_LENGTH, "Tittel må være minst 3 tegn").max(120, "Tittelen kan være maks 120 tegn"),
    description: z
      .string()
      .trim()
      .max(5000, "Beskrivelsen kan være maks 5000 tegn")
      .nullish()
      .transform((v) => (v ? v : null)),
    category,
    age_range: ageRange,
    condition_rating: z.coerce.number({ error: "Velg tilstand" }).int("Velg tilstand").min(1, "Velg tilstand").max(5, "Velg tilstand"),
    price: z.union([z.number(), z.string(), z.null()]).optional(),
    is_free: z.boolean().default(false),
    is_trade_offer: z.boolean().default(false),
    postal_code: z
      .string()
      .trim()
      .min(POSTAL_CODE_MIN_LENGTH, "Postnummer må være minst 4 siffer")
      .regex(/^\d{4}$/, "Postnummer må være minst 4 siffer"),
    images: z.array(z.string().min(1)).max(MAX_IMAGES_PER_LISTING, "For mange bilder").default([]),
    // Payment settings; the server applies them only for a seller whose Stripe account can take
    // charges (worker/services/payments/listing-payment.ts).
    payment_enabled: z.boolean().optional(),
    pricing_mode: z.enum(SELLER_PRICING_MODES, { error: "Velg hvordan kjøpere kan betale" }).optional(),
  })
  .transform((v, ctx) => {
    // Free is stored as null; otherwise the number is parsed and an empty value is 0 (spec part 1 §5).
    let price: number | null = null;
    if (!v.is_free) {
      const raw = v.price == null || v.price === "" ? 0 : Number(v.price);
      if (!Number.isFinite(raw) || raw < 0 || raw > 1_000_000 || !Number.isInteger(raw)) {
        ctx.addIssue({ code: "custom", path: ["price"], message: "Prisen må være et helt antall kroner" });
        return z.NEVER;
      }
      price = raw;
    }
    return { ...v, price };
  });

export type ListingFormInput = z.input<typeof listingFormSchema>;
export type ListingForm = z.output<typeof listingFormSchema>;

export const ageRangeSchema = z.enum(AGE_RANGES);
export const categorySchema = z.enum(CATEGORY_KEYS);

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
  created_at: string;
  /** Only in the owner's own lists: hidden by moderation. */
  is_hidden?: boolean;
}

export interface ListingDetail extends ListingCard {
  description: string | null;
  updated_at: string;
  place_name: string | null;
  seller: { user_id: string; display_name: string | null; created_at: string };
}

export interface HomeSections {
  newest: ListingCard[];
  free: ListingCard[];
  trade: ListingCard[];
}
