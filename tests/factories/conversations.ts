// Conversations and messages inserted straight into D1 for worker tests, consistent with the
// write path: seq counts from 1 and conversations.last_seq is the highest seq.
import { env } from "cloudflare:workers";
import { createListing, type ListingRow } from "./listings";
import { createUser, type TestUser, type UserOverrides } from "./users";
import { nextTimestamp } from "./clock";

export interface ConversationFixture {
  id: string;
  listing: ListingRow;
  buyer: TestUser;
  seller: TestUser;
}

export async function createConversation(
  options: {
    buyer?: UserOverrides;
    seller?: UserOverrides;
    /** Existing people instead of new ones (e.g. a test's signed-in user as one side). */
    buyerUser?: TestUser;
    sellerUser?: TestUser;
    listing?: Parameters<typeof createListing>[0];
    /** An existing listing of the seller instead of a new one. */
    listingRow?: ListingRow;
  } = {},
  db: D1Database = env.DB,
): Promise<ConversationFixture> {
  const seller = options.sellerUser ?? (await createUser(options.seller ?? {}, db));
  const buyer = options.buyerUser ?? (await createUser(options.buyer ?? {}, db));
  const listing = options.listingRow ?? (await createListing({ ...options.listing, userId: seller.id }, db));
  const id = crypto.randomUUID();
  const at = nextTimestamp();
  await db
    .prepare(
      "INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 0, ?5, ?5)",
    )
    .bind(id, listing.id, buyer.id, seller.id, at)
    .run();
  return { id, listing, buyer, seller };
}

/** Appends messages (oldest first) the way the write path numbers them. */
export async function addMessages(
  conversationId: string,
  messages: { from: string; content?: string; readAt?: string | null; createdAt?: string }[],
  db: D1Database = env.DB,
): Promise<{ id: string; seq: number }[]> {
  const row = await db.prepare("SELECT last_seq FROM conversations WHERE id = ?1").bind(conversationId).first<{ last_seq: number }>();
  let seq = row?.last_seq ?? 0;
  const out: { id: string; seq: number }[] = [];
  const stmts: D1PreparedStatement[] = [];
  let last = "";
  for (const m of messages) {
    seq += 1;
    const id = crypto.randomUUID();
    last = m.createdAt ?? nextTimestamp();
    stmts.push(
      db
        .prepare(
          "INSERT INTO messages (id, conversation_id, sender_id, seq, content, read_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )
        .bind(id, conversationId, m.from, seq, m.content ?? `Melding ${seq}`, m.readAt ?? null, last),
    );
    out.push({ id, seq });
  }
  stmts.push(db.prepare("UPDATE conversations SET last_seq = ?2, updated_at = ?3 WHERE id = ?1").bind(conversationId, seq, last));
  await db.batch(stmts);
  return out;
}
