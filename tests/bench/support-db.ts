// The bench D1: a fresh state directory with the migrations applied, and the bench rows (users
// with a session family, listings, conversations, trade offers) written straight into its SQLite
// file before the server starts, in one transaction.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { BenchListing } from "./listing-generator";
import { runTool } from "./support-tools";
import { searchTextOf } from "../../domain/search-language";

/**
 * A fresh state directory with the migrations applied. With `demoData: false` the start script is
 * told the demo data is done (the benchmark writes its own rows into the D1 file first).
 */
export function freshState(stateDir: string, { demoData }: { demoData: boolean }): void {
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true });
  runTool("tsx", ["scripts/migrate.ts"], { STATE_DIR: stateDir });
  if (!demoData) skipDemoData(stateDir);
}

/** Tell scripts/start.mjs the demo data is loaded, so it leaves the bench's own rows alone. */
export function skipDemoData(stateDir: string): void {
  writeFileSync(path.join(stateDir, "lekebytte-seed.json"), JSON.stringify({ skipped: true, bench: true }));
}

/** The local D1 database file wrangler keeps under a state directory. */
export function d1File(stateDir: string): string {
  const dir = path.join(stateDir, "v3/d1/miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (!file) throw new Error(`no D1 file in ${dir}`);
  return path.join(dir, file);
}

/**
 * Bench rows written straight into a state directory's D1 file, in one transaction (committed and
 * ANALYZEd by close()). `bulk`: no fsync and a large page cache, for loading hundreds of thousands
 * of rows. `db` is open for a benchmark's own statements inside the same transaction.
 */
export class BenchDb {
  readonly db: DatabaseSync;
  private readonly now = new Date().toISOString();
  private readonly expires = new Date(Date.now() + 86_400_000).toISOString();
  private users = 0;
  /** user id → session family id, for mintAccessTokens. */
  readonly families = new Map<string, string>();
  private readonly stmt;

  constructor(stateDir: string, { bulk = false }: { bulk?: boolean } = {}) {
    this.db = new DatabaseSync(d1File(stateDir));
    if (bulk) {
      this.db.exec("PRAGMA synchronous = OFF");
      this.db.exec("PRAGMA cache_size = -1000000");
    }
    this.db.exec("BEGIN");
    this.stmt = {
      user: this.db.prepare("INSERT INTO users (id, email, password_hash, email_confirmed_at) VALUES (?, ?, ?, ?)"),
      profile: this.db.prepare("INSERT INTO profiles (user_id, display_name) VALUES (?, ?)"),
      session: this.db.prepare("INSERT INTO sessions (id, user_id, family_id, token_hash, expires_at) VALUES (?, ?, ?, ?, ?)"),
      listing: this.db.prepare(
        `INSERT INTO listings (id, user_id, title, description, category, age_range, condition_rating, price, is_free, is_trade_offer,
           postal_code, images, status, is_hidden, seo_slug, created_at, updated_at, can_ship, parcel_size, search_text)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      sender: this.db.prepare("UPDATE profiles SET street_address = ?, postal_code = ? WHERE user_id = ?"),
      conversation: this.db.prepare("INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq) VALUES (?, ?, ?, ?, 0)"),
      tradeOffer: this.db.prepare(
        `INSERT INTO trade_offers (id, conversation_id, from_user_id, to_user_id, offered_listing_id, requested_listing_id, status, created_at, updated_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      ),
    };
  }

  /**
   * A confirmed user with a profile and, unless `session: false`, a live session family (for a
   * minted cookie). `passwordHash` "!" can never sign in; `id` fixes the user's id.
   */
  user(
    prefix: string,
    { id = randomUUID(), passwordHash = "!", session = true }: { id?: string; passwordHash?: string; session?: boolean } = {},
  ): { id: string; email: string } {
    const email = `${prefix}-${++this.users}@lekebytte.test`;
    this.stmt.user.run(id, email, passwordHash, this.now);
    this.stmt.profile.run(id, `Bruker ${this.users}`);
    if (session) {
      const family = randomUUID();
      this.stmt.session.run(randomUUID(), id, family, randomBytes(32).toString("hex"), this.expires);
      this.families.set(id, family);
    }
    return { id, email };
  }

  /** A listing row; production's triggers fill its search and full-text rows as for any insert. */
  listing(l: BenchListing): void {
    this.stmt.listing.run(
      l.id,
      l.user_id,
      l.title,
      l.description,
      l.category,
      l.age_range,
      l.condition_rating,
      l.price,
      l.is_free,
      l.is_trade_offer,
      l.postal_code,
      l.images,
      l.status,
      l.is_hidden,
      l.seo_slug,
      l.created_at,
      l.updated_at,
      l.can_ship ?? 0,
      l.parcel_size ?? null,
      // The language index's text, as the listing form writes it (decision 151).
      searchTextOf(l.title),
    );
  }

  /** The street address and postal code a seller's parcels are sent from (the carrier's sender). */
  sender(userId: string, streetAddress = "Storgata 1", postalCode = "0150"): void {
    this.stmt.sender.run(streetAddress, postalCode, userId);
  }

  conversation(listingId: string, buyerId: string, sellerId: string): string {
    const id = randomUUID();
    this.stmt.conversation.run(id, listingId, buyerId, sellerId);
    return id;
  }

  /** A pending trade offer: `fromId` offers `offeredId` for `toId`'s `requestedId`, in the conversation about the latter. */
  tradeOffer(conversationId: string, fromId: string, toId: string, offeredId: string, requestedId: string): string {
    const id = randomUUID();
    this.stmt.tradeOffer.run(
      id,
      conversationId,
      fromId,
      toId,
      offeredId,
      requestedId,
      this.now,
      this.now,
      new Date(Date.now() + 7 * 86_400_000).toISOString(),
    );
    return id;
  }

  close(): void {
    this.db.exec("COMMIT");
    this.db.exec("ANALYZE");
    this.db.close();
  }
}

/** A plain active listing of `userId` (for chats, trades and sales), in the generator's row shape. */
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
