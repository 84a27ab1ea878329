// Bench rows written straight into a fresh local D1 file before its server starts (users with a
// session family, listings, conversations), in one transaction. Cookies for these users come from
// mintAccessTokens (app-server.ts), so no sign-in is needed to act as them.
import { randomBytes, randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { d1File } from "./app-server";
import type { BenchListing } from "./listing-generator";

export class BenchDb {
  private readonly db: DatabaseSync;
  private readonly now = new Date().toISOString();
  private readonly expires = new Date(Date.now() + 86_400_000).toISOString();
  private users = 0;
  /** user id → session family id, for mintAccessTokens. */
  readonly families = new Map<string, string>();
  private readonly stmt;

  constructor(stateDir: string) {
    this.db = new DatabaseSync(d1File(stateDir));
    this.db.exec("BEGIN");
    this.stmt = {
      user: this.db.prepare("INSERT INTO users (id, email, password_hash, email_confirmed_at) VALUES (?, ?, ?, ?)"),
      profile: this.db.prepare("INSERT INTO profiles (user_id, display_name) VALUES (?, ?)"),
      session: this.db.prepare("INSERT INTO sessions (id, user_id, family_id, token_hash, expires_at) VALUES (?, ?, ?, ?, ?)"),
      listing: this.db.prepare(
        `INSERT INTO listings (id, user_id, title, description, category, age_range, condition_rating, price, is_free, is_trade_offer,
           postal_code, images, status, is_hidden, seo_slug, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      conversation: this.db.prepare("INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq) VALUES (?, ?, ?, ?, 0)"),
      tradeOffer: this.db.prepare(
        `INSERT INTO trade_offers (id, conversation_id, from_user_id, to_user_id, offered_listing_id, requested_listing_id, status, created_at, updated_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      ),
    };
  }

  /** A confirmed user with a live session family; `passwordHash` "!" can never sign in. */
  user(prefix: string, passwordHash = "!"): { id: string; email: string } {
    const id = randomUUID();
    const email = `${prefix}-${++this.users}@lekebytte.test`;
    this.stmt.user.run(id, email, passwordHash, this.now);
    this.stmt.profile.run(id, `Bruker ${this.users}`);
    const family = randomUUID();
    this.stmt.session.run(randomUUID(), id, family, randomBytes(32).toString("hex"), this.expires);
    this.families.set(id, family);
    return { id, email };
  }

  listing(l: BenchListing): void {
    this.stmt.listing.run(l.id, l.user_id, l.title, l.description, l.category, l.age_range, l.condition_rating, l.price, l.is_free,
      l.is_trade_offer, l.postal_code, l.images, l.status, l.is_hidden, l.seo_slug, l.created_at, l.updated_at);
  }

  conversation(listingId: string, buyerId: string, sellerId: string): string {
    const id = randomUUID();
    this.stmt.conversation.run(id, listingId, buyerId, sellerId);
    return id;
  }

  /** A pending swap offer: `fromId` offers `offeredId` for `toId`'s `requestedId`, in the conversation about the latter. */
  tradeOffer(conversationId: string, fromId: string, toId: string, offeredId: string, requestedId: string): string {
    const id = randomUUID();
    this.stmt.tradeOffer.run(id, conversationId, fromId, toId, offeredId, requestedId, this.now, this.now, new Date(Date.now() + 7 * 86_400_000).toISOString());
    return id;
  }

  close(): void {
    this.db.exec("COMMIT");
    this.db.exec("ANALYZE");
    this.db.close();
  }
}

/** A plain active listing of `userId` (for chats and swaps), in the generator's row shape. */
export function simpleListing(userId: string, title: string, extra: Partial<BenchListing> = {}): BenchListing {
  const id = randomUUID();
  const now = new Date().toISOString();
  return {
    id,
    user_id: userId,
    title,
    description: "",
    category: "lego",
    age_range: "3-5 år",
    condition_rating: 4,
    price: 100,
    is_free: 0,
    is_trade_offer: 0,
    postal_code: "0150",
    images: "[]",
    status: "active",
    is_hidden: 0,
    seo_slug: `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${id.slice(0, 6)}`,
    created_at: now,
    updated_at: now,
    ...extra,
  };
}
