import { and, desc, eq, inArray } from "drizzle-orm";
import type { HomeSections, ListingCard } from "../../domain/schemas/listing";
import { HOME_FREE_COUNT, HOME_NEWEST_COUNT, HOME_TRADE_COUNT } from "../../domain/limits";
import type { Db } from "../db/client";
import { listings } from "../db/schema";

type ListingRow = typeof listings.$inferSelect;

export function toListingCard(row: ListingRow): ListingCard {
  return {
    id: row.id,
    user_id: row.userId,
    title: row.title,
    price: row.price,
    is_free: row.isFree,
    is_trade_offer: row.isTradeOffer,
    condition_rating: row.conditionRating,
    category: row.category,
    age_range: row.ageRange,
    postal_code: row.postalCode,
    images: row.images,
    status: row.status,
    seo_slug: row.seoSlug,
    pricing_mode: row.pricingMode,
    payment_enabled: row.paymentEnabled,
    created_at: row.createdAt,
  };
}

const isPublic = and(eq(listings.status, "active"), eq(listings.isHidden, false));

/** The home page's three sections in one D1 round trip (one batch). */
export async function homeSections(db: Db): Promise<HomeSections> {
  const [newest, free, trade] = await db.batch([
    db.select().from(listings).where(isPublic).orderBy(desc(listings.createdAt)).limit(HOME_NEWEST_COUNT),
    db.select().from(listings).where(and(isPublic, eq(listings.isFree, true))).orderBy(desc(listings.createdAt)).limit(HOME_FREE_COUNT),
    db
      .select()
      .from(listings)
      .where(and(isPublic, eq(listings.isTradeOffer, true)))
      .orderBy(desc(listings.createdAt))
      .limit(HOME_TRADE_COUNT),
  ]);
  return { newest: newest.map(toListingCard), free: free.map(toListingCard), trade: trade.map(toListingCard) };
}

export async function listingsByIds(db: Db, ids: string[]): Promise<ListingCard[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(listings).where(inArray(listings.id, ids));
  return rows.map(toListingCard);
}
