import type { ListingCard } from "../../../domain/schemas/listing";
import type { Db } from "../../db/client";
import { publicListingSql } from "../listings/visibility";
import { AppError } from "../../lib/errors";
import { listingRow, toListingCard } from "../listings/listings";
import { LISTING_REFUSALS } from "../../../domain/listings";

export async function addFavourite(db: Db, userId: string, listingId: string): Promise<void> {
  const visible = await db.prepare(`SELECT 1 FROM listings WHERE id = ?1 AND ${publicListingSql()}`).bind(listingId).first();
  if (!visible) throw new AppError("NOT_FOUND", LISTING_REFUSALS.notFound);
  await db.prepare("INSERT INTO favourites (user_id, listing_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING").bind(userId, listingId).run();
}

export async function removeFavourite(db: Db, userId: string, listingId: string): Promise<void> {
  await db.prepare("DELETE FROM favourites WHERE user_id = ?1 AND listing_id = ?2").bind(userId, listingId).run();
}

export async function favouriteIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .prepare("SELECT listing_id FROM favourites WHERE user_id = ?1 ORDER BY created_at DESC")
    .bind(userId)
    .all<{ listing_id: string }>();
  return rows.results.map((r) => r.listing_id);
}

/**
 * Favourited listings that are still public, most recently favourited first: one statement, so the
 * list has no length limit (an id list would stop at D1's 100 bound parameters).
 */
export async function favouriteListings(db: Db, userId: string): Promise<ListingCard[]> {
  const rows = await db
    .prepare(
      `SELECT l.* FROM favourites f JOIN listings l ON l.id = f.listing_id
       WHERE f.user_id = ?1 AND ${publicListingSql("l")}
       ORDER BY f.created_at DESC, f.listing_id`,
    )
    .bind(userId)
    .all<Record<string, unknown>>();
  return rows.results.map((r) => toListingCard(listingRow(r)));
}
