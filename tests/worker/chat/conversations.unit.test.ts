// startConversation and conversationForSale against a forced race (docs/security.md "How it is tested"): two
// starts for the same (listing, buyer, seller) both look for the conversation before either has
// created it, so both go on to insert; the unique index lets one row in and both get its id.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { conversationForSale, startConversation } from "../../../worker/features/chat/conversations";
import { createListing, createUser } from "../../factories";
import { staleReads } from "../support/race";

async function conversationsOf(listingId: string): Promise<number> {
  const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM conversations WHERE listing_id = ?1").bind(listingId).first<{ n: number }>();
  return n?.n ?? 0;
}

it("two starts at once that both read 'none yet' end with one conversation, and both get its id", async () => {
  const listing = await createListing();
  const buyer = await createUser();
  const race = staleReads(/^SELECT id FROM conversations WHERE listing_id/);
  const db = race.env.DB;
  const [a, b] = await Promise.all([startConversation(db, listing.id, buyer.id), startConversation(db, listing.id, buyer.id)]);
  expect(race.arrived).toBe(2);
  expect(a.id).toBe(b.id);
  expect([a.created, b.created].sort()).toEqual([false, true]);
  expect(await conversationsOf(listing.id)).toBe(1);
});

it("a sale opens the conversation about a listing that is already sold (where 'Send melding' refuses), once under a race", async () => {
  const seller = await createUser();
  const listing = await createListing({ userId: seller.id, status: "sold" });
  const buyer = await createUser();
  await expect(startConversation(env.DB, listing.id, buyer.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  const race = staleReads(/^SELECT id FROM conversations WHERE listing_id/);
  const db = race.env.DB;
  const [a, b] = await Promise.all([
    conversationForSale(db, listing.id, buyer.id, seller.id),
    conversationForSale(db, listing.id, buyer.id, seller.id),
  ]);
  expect(race.arrived).toBe(2);
  expect(a).toBe(b);
  expect(await conversationsOf(listing.id)).toBe(1);
  // And the one from before the sale is reused.
  expect(await conversationForSale(env.DB, listing.id, buyer.id, seller.id)).toBe(a);
});
