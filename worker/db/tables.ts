// The whole D1 schema (docs/product.md "Data"): each feature's tables, gathered for the drizzle client.
// drizzle-kit reads the same files through the glob in drizzle.config.ts. The FTS5 table and its
// triggers live in a hand-written migration (drizzle has no virtual tables).
export * from "./schema";
export * from "../features/account/schema";
export * from "../features/admin/schema";
export * from "../features/analytics/schema";
export * from "../features/auth/schema";
export * from "../features/chat/schema";
export * from "../features/contact/schema";
export * from "../features/favourites/schema";
export * from "../features/giveaways/schema";
export * from "../features/listings/schema";
export * from "../features/mail/schema";
export * from "../features/moderation/schema";
export * from "../features/newsletter/schema";
export * from "../features/payments/schema";
export * from "../features/reviews/schema";
export * from "../features/saved-searches/schema";
export * from "../features/shipping/schema";
export * from "../features/trades/schema";
