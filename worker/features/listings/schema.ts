// The D1 tables of the listings feature. The whole schema: worker/db/tables.ts.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex, type SQLiteTextBuilderInitial } from "drizzle-orm/sqlite-core";
import { LISTING_STATUSES, PRICING_MODES } from "../../../domain/taxonomy";
import { listingAttributes, type ListingAttributeKey } from "../../../domain/listing-fields";
import { PARCEL_SIZES } from "../../../domain/carriers";
import { createdAt, updatedAt } from "../../db/columns";
import { users } from "../auth/schema";

/** Norwegian postal codes → place names (poststed), for cards, detail and meta tags. */
export const postalPlaces = sqliteTable("postal_places", {
  postalCode: text("postal_code").primaryKey(),
  placeName: text("place_name").notNull(),
});

/** One nullable text column per declared listing field (domain/listing-fields.ts), named by its key. */
const attributeColumns = Object.fromEntries(listingAttributes().map((a) => [a.key, text(a.key)])) as {
  [K in ListingAttributeKey]: SQLiteTextBuilderInitial<K, [string, ...string[]], undefined>;
};

export const listings = sqliteTable(
  "listings",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    description: text("description"),
    category: text("category").notNull(),
    ageRange: text("age_range").notNull(),
    conditionRating: integer("condition_rating").notNull(),
    price: integer("price"),
    isFree: integer("is_free", { mode: "boolean" }).notNull().default(false),
    isTradeOffer: integer("is_trade_offer", { mode: "boolean" }).notNull().default(false),
    postalCode: text("postal_code").notNull(),
    /** JSON array of R2 keys, `{userId}/…`. */
    images: text("images", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    status: text("status", { enum: LISTING_STATUSES }).notNull().default("active"),
    isHidden: integer("is_hidden", { mode: "boolean" }).notNull().default(false),
    hiddenReason: text("hidden_reason"),
    hiddenAt: text("hidden_at"),
    autoHidden: integer("auto_hidden", { mode: "boolean" }).notNull().default(false),
    pricingMode: text("pricing_mode", { enum: PRICING_MODES }).notNull().default("standard"),
    paymentEnabled: integer("payment_enabled", { mode: "boolean" }).notNull().default(false),
    seoSlug: text("seo_slug").notNull(),
    // How the toy changes hands (decision 148): every listing before shipping was pick-up only.
    canPickUp: integer("can_pick_up", { mode: "boolean" }).notNull().default(true),
    canShip: integer("can_ship", { mode: "boolean" }).notNull().default(false),
    /** The parcel size the seller promises (domain/carriers.ts); null unless the toy can be sent. */
    parcelSize: text("parcel_size", { enum: PARCEL_SIZES }),
    ...attributeColumns,
    /**
     * What the language index holds of the listing (domain/search-language.ts `searchTextOf`): its
     * title stemmed and its title's words, written with the title. Null until the cron's
     * "search-text" step has written it for a listing from before the index.
     */
    searchText: text("search_text"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("listings_seo_slug_unique").on(t.seoSlug),
    // Home / search default order: public listings newest first.
    index("listings_public_created_idx").on(t.status, t.isHidden, t.createdAt),
    index("listings_public_free_idx").on(t.status, t.isHidden, t.isFree, t.createdAt),
    index("listings_public_trade_idx").on(t.status, t.isHidden, t.isTradeOffer, t.createdAt),
    index("listings_category_idx").on(t.category, t.status, t.createdAt),
    index("listings_price_idx").on(t.status, t.price),
    index("listings_user_idx").on(t.userId, t.createdAt),
    index("listings_updated_idx").on(t.status, t.updatedAt),
    // The listings whose search_text the cron has still to write.
    index("listings_search_text_missing_idx").on(t.id).where(sql`${t.searchText} IS NULL`),
    // At least one way to change hands, and a size exactly when the toy can be sent.
    check("listings_handover_check", sql`${t.canPickUp} = 1 OR ${t.canShip} = 1`),
    check(
      "listings_parcel_size_check",
      sql`(${t.canShip} = 0 AND ${t.parcelSize} IS NULL) OR (${t.canShip} = 1 AND ${t.parcelSize} IS NOT NULL AND ${t.parcelSize} IN ('small', 'medium', 'large'))`,
    ),
  ],
);
