// startConversation against a forced race (SECURITY "How we test it"): two starts for the same
// (listing, buyer, seller) both look for the conversation before either has created it, so both
// go on to insert; the unique index lets one row in and both get its id.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { getDb } from "../../worker/db/client";
import { startConversation } from "../../worker/services/conversations";
import { createListing, createUser } from "../factories";
import { staleReads } from "./support/race";

it("two starts at once that both read 'none yet' end with one conversation, and both get its id", async () => {
  const listing = await createListing();
  const buyer = await createUser();
  const race = staleReads(/^SELECT id FROM conversations WHERE listing_id/);
  const db = getDb(race.env.DB);
  const [a, b] = await Promise.all([startConversation(db, listing.id, buyer.id), startConversation(db, listing.id, buyer.id)]);
  expect(race.arrived).toBe(2);
  expect(a.id).toBe(b.id);
  expect([a.created, b.created].sort()).toEqual([false, true]);
  const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM conversations WHERE listing_id = ?1").bind(listing.id).first<{ n: number }>();
  expect(n?.n).toBe(1);
});
