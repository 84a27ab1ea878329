// Shared by the trade tests (tests/worker/trades/): what D1 holds of an offer, its trades, its
// listings and its chat, the read every change of an offer starts with, and a listing open to trades.
import { env } from "cloudflare:workers";
import type { TradeOfferStatus } from "../../../domain/trades";
import { createListing, createUser } from "../../factories";

export const offerRow = (id: string) =>
  env.DB.prepare("SELECT status, message, conversation_id, from_user_id, to_user_id FROM trade_offers WHERE id = ?1").bind(id).first<{
    status: TradeOfferStatus;
    message: string | null;
    conversation_id: string;
    from_user_id: string;
    to_user_id: string;
  }>();
export const listingStatus = async (id: string) =>
  (await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(id).first<{ status: string }>())?.status;
export const tradesOf = async (offerId: string) =>
  (
    await env.DB.prepare(
      "SELECT status, user1_id, user2_id, user1_listing_id, user2_listing_id, completed_at, user1_confirmed_at, user2_confirmed_at FROM trades WHERE trade_offer_id = ?1",
    )
      .bind(offerId)
      .all<Record<string, string | null>>()
  ).results;
export const systemMessages = async (conversationId: string) =>
  (
    await env.DB.prepare(
      "SELECT content FROM messages WHERE conversation_id = ?1 AND sender_id = '00000000-0000-0000-0000-000000000000' ORDER BY seq",
    )
      .bind(conversationId)
      .all<{ content: string }>()
  ).results.map((r) => r.content);

/** offerFor's read: every change starts with it, so holding it makes both requests act on the same state. */
export const OFFER_READ = /FROM trade_offers o WHERE o\.id = \?1 AND/;

export async function tradeListing(ownerId?: string) {
  return createListing({ userId: ownerId ?? (await createUser()).id, isTradeOffer: true });
}
