// The temporary sale-message helper (worker/services/sale-message.ts): one conversation per
// (listing, buyer, seller), and messages whose seq is allocated in the same D1 batch as the insert,
// only when the message is new. Fired concurrently.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { findOrCreateConversation, postSystemMessage, SYSTEM_USER_ID } from "../../worker/services/sale-message";
import { createListing, createUser } from "../factories";

async function conversationSetup() {
  const seller = await createUser();
  const buyer = await createUser();
  const listing = await createListing({ userId: seller.id });
  return { seller, buyer, listing };
}

describe("findOrCreateConversation", () => {
  it("creates the conversation once, however many ask at the same moment", async () => {
    const { seller, buyer, listing } = await conversationSetup();
    const ids = await Promise.all(Array.from({ length: 5 }, () => findOrCreateConversation(env.DB, listing.id, buyer.id, seller.id)));
    expect(new Set(ids).size).toBe(1);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM conversations WHERE listing_id = ?1").bind(listing.id).first<{ n: number }>();
    expect(count!.n).toBe(1);
  });
});

describe("postSystemMessage", () => {
  it("gives concurrent messages distinct, consecutive seqs", async () => {
    const { seller, buyer, listing } = await conversationSetup();
    const conversationId = await findOrCreateConversation(env.DB, listing.id, buyer.id, seller.id);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => postSystemMessage(env.DB, { conversationId, messageId: crypto.randomUUID(), content: `Melding ${i}` })),
    );
    expect(results.map((r) => r.seq).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(results.every((r) => r.created)).toBe(true);
    const conv = await env.DB.prepare("SELECT last_seq FROM conversations WHERE id = ?1").bind(conversationId).first<{ last_seq: number }>();
    expect(conv!.last_seq).toBe(6);
  });

  it("stores a message id once and moves the counter once, even when sent three times at once", async () => {
    const { seller, buyer, listing } = await conversationSetup();
    const conversationId = await findOrCreateConversation(env.DB, listing.id, buyer.id, seller.id);
    const messageId = crypto.randomUUID();
    const results = await Promise.all(Array.from({ length: 3 }, () => postSystemMessage(env.DB, { conversationId, messageId, content: "Solgt!" })));
    expect(results.map((r) => r.seq)).toEqual([1, 1, 1]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const rows = await env.DB.prepare("SELECT sender_id, seq FROM messages WHERE conversation_id = ?1").bind(conversationId).all();
    expect(rows.results).toEqual([{ sender_id: SYSTEM_USER_ID, seq: 1 }]);
    const conv = await env.DB.prepare("SELECT last_seq FROM conversations WHERE id = ?1").bind(conversationId).first<{ last_seq: number }>();
    expect(conv!.last_seq).toBe(1);
  });
});
