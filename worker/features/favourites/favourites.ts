import type { ListingCard } from "../../../domain/schemas/listing";
import type { Db } from "../../db/client";
import { publicListingSql } from "../listings/visibility";
import { AppError } from "../../lib/errors";
import { listingsByIds } from "../listings/listings";
import { LISTING_REFUSALS } from "../../../domain/listings";

export async function addFavourite(db: Db, userId: string, listingId: string): Promise<void> {
  const visible = await db.$client.prepare(`SELECT 1 FROM listings WHERE id = ?1 AND ${publicListingSql()}`).bind(listingId).first();
  if (!visible) throw new AppError("NOT_FOUND", LISTING_REFUSALS.notFound);
  await db.$client
    .prepare("INSERT INTO favourites (user_id, listing_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING")
    .bind(userId, listingId)
    .run();
}

export async function removeFavourite(db: Db, userId: string, listingId: string): Promise<void> {
  await db.$client.prepare("DELETE FROM favourites WHERE user_id = ?1 AND listing_id = ?2").bind(userId, listingId).run();
}

export async function favouriteIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db.$client
    .prepare("SELECT listing_id FROM favourites WHERE user_id = ?1 ORDER BY created_at DESC")
    .bind(userId)
    .all<{ listing_id: string }>();
  return rows.results.map((r) => r.listing_id);
}

/** Favourited listings that are still public, most recently favourited first. */
export async function favouriteListings(db: Db, userId: string): Promise<ListingCard[]> {
  const ids = await favouriteIds(db, userId);
  const visible = await db.$client
    .prepare(`SELECT id FROM listings WHERE id IN (SELECT listing_id FROM favourites WHERE user_id = ?1) AND ${publicListingSql()}`)
    .bind(userId)
    .all<{ id: string }>();
  const cards = await listingsByIds(
    db,
    visible.results.map((r) => r.id),
  );
  const byId = new Map(cards.map((c) => [c.id, c]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
