// The statements that load the demo data, which scripts/seed.ts sends in one batch: users and
// profiles, listing ids with their photos' R2 keys, listings, conversations with their messages and
// the pending trade offer, favourites and the moderation case (the completed deals are in
// deal-statements.ts). Ids are made here, in the order the statements need them; times are minutes
// before the seed's "now".
import { randomBytes, randomUUID } from "node:crypto";
import { listingSlug } from "../../domain/slug";
import { DEMO_ACCOUNTS, SYSTEM_USER } from "../demo-accounts.mjs";
import { type AccountKey, CONVERSATIONS, FAVOURITES, LISTINGS, REPORTS, TRADE_OFFER, minutes } from "./data";
import { listingAttributes } from "../../domain/listing-fields";
import { suggestionInTitle } from "../../domain/listing-field-rules";

// Minimal structural types for the D1 binding (the full ones live in worker-configuration.d.ts).
export interface Stmt {
  bind(...values: unknown[]): Stmt;
  first<T>(): Promise<T | null>;
}
export interface SeedDb {
  prepare(sql: string): Stmt;
  batch(statements: Stmt[]): Promise<unknown[]>;
}

/** What the statements share: the database, the statements so far, times, and the ids made. */
export interface Seeding {
  db: SeedDb;
  stmts: Stmt[];
  /** The ISO time `agoMinutes` before the seed's "now". */
  iso: (agoMinutes: number) => string;
  uid: (key: AccountKey) => string;
  /** A demo message's sender: a demo account, or the system user. */
  senderId: (from: AccountKey | "system") => string;
  lid: (ref: string) => string;
}

/** The demo accounts and the system user, with their profiles; their ids by account key. */
export function userStatements(
  { db, stmts, iso }: Pick<Seeding, "db" | "stmts" | "iso">,
  passwordHash: string,
): Pick<Seeding, "uid" | "senderId"> {
  const userId = new Map<AccountKey, string>();
  DEMO_ACCOUNTS.forEach((a, i) => {
    const id = randomUUID();
    userId.set(a.key as AccountKey, id);
    const created = iso((420 - i * 37) * 24 * 60);
    stmts.push(
      db
        .prepare("INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(id, a.email, passwordHash, new Date(Date.parse(created) + 4 * 60_000).toISOString(), created, created),
      db
        .prepare(
          "INSERT INTO profiles (user_id, display_name, postal_code, street_address, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(id, a.name, a.postalCode, a.streetAddress, a.role, created, created),
    );
  });
  // The system user may already come from a migration; it has a password hash no login can match.
  const systemCreated = iso(500 * 24 * 60);
  stmts.push(
    db
      .prepare(
        "INSERT OR IGNORE INTO users (id, email, password_hash, email_confirmed_at, created_at, updated_at) VALUES (?, ?, '!', ?, ?, ?)",
      )
      .bind(SYSTEM_USER.id, SYSTEM_USER.email, systemCreated, systemCreated, systemCreated),
    db
      .prepare("INSERT OR IGNORE INTO profiles (user_id, display_name, role, created_at, updated_at) VALUES (?, ?, 'user', ?, ?)")
      .bind(SYSTEM_USER.id, SYSTEM_USER.name, systemCreated, systemCreated),
  );
  const uid = (key: AccountKey) => userId.get(key)!;
  const senderId = (from: AccountKey | "system") => (from === "system" ? SYSTEM_USER.id : uid(from));
  return { uid, senderId };
}

/** A new id for each listing, and its photos' R2 keys (`<owner id>/<created ms + i>-<random>.jpg`) with their bytes. */
export function listingIdsAndPhotos(
  now: number,
  uid: Seeding["uid"],
  rendered: Map<string, Uint8Array>,
): { lid: Seeding["lid"]; listingImages: Map<string, string[]>; puts: { key: string; bytes: Uint8Array }[] } {
  const listingId = new Map<string, string>();
  const listingImages = new Map<string, string[]>();
  const puts: { key: string; bytes: Uint8Array }[] = [];
  for (const l of LISTINGS) {
    listingId.set(l.ref, randomUUID());
    const createdMs = now - minutes(l.ago);
    const keys: string[] = [];
    for (let i = 0; i < l.image.count; i++) {
      const key = `${uid(l.owner)}/${createdMs + i}-${randomBytes(4).toString("hex")}.jpg`;
      keys.push(key);
      puts.push({ key, bytes: rendered.get(`${l.ref}-${i}`)! });
    }
    listingImages.set(l.ref, keys);
  }
  const lid = (ref: string) => listingId.get(ref)!;
  return { lid, listingImages, puts };
}

/** The listings, each with its photos' keys and a unique slug. */
export function listingStatements({ db, stmts, iso, uid, lid }: Seeding, listingImages: Map<string, string[]>): void {
  const slugs = new Set<string>();
  const fields = listingAttributes();
  // Oldest first: the search index's integer rowids then follow creation order, which search
  // uses for "newest first" within a relevance tier (docs/decisions/004-search-index.md).
  for (const l of [...LISTINGS].sort((a, b) => b.ago - a.ago)) {
    const id = lid(l.ref);
    let slug = listingSlug(l.title, id);
    for (let n = 7; slugs.has(slug); n++) slug = listingSlug(l.title, id, n);
    slugs.add(slug);
    const created = iso(l.ago);
    const hiddenAt = l.hidden ? iso(l.hidden.ago) : null;
    const updated = hiddenAt ?? (l.status === "reserved" || l.status === "sold" ? iso(Math.max(0, l.ago - 60 * 24)) : created);
    stmts.push(
      db
        .prepare(
          `INSERT INTO listings (id, user_id, title, description, category, age_range, condition_rating, price, is_free,
             is_trade_offer, postal_code, images, status, is_hidden, hidden_reason, hidden_at, seo_slug, created_at, updated_at, can_ship, parcel_size${fields
               .map((a) => `, ${a.key}`)
               .join("")})
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?${", ?".repeat(fields.length)})`,
        )
        .bind(
          id,
          uid(l.owner),
          l.title,
          l.description,
          l.category,
          l.age,
          l.condition,
          l.price,
          l.price === null ? 1 : 0,
          l.trade ? 1 : 0,
          l.postalCode,
          JSON.stringify(listingImages.get(l.ref)),
          l.status ?? "active",
          l.hidden ? 1 : 0,
          l.hidden?.reason ?? null,
          hiddenAt,
          slug,
          created,
          updated,
          // Sent ones can still be picked up (can_pick_up keeps its default).
          l.ship ? 1 : 0,
          l.ship ?? null,
          // Each declared field as a seller would fill it in: the suggestion the title names, if any.
          ...fields.map((a) => suggestionInTitle(a, l.title)),
        ),
    );
  }
}

/** The conversations still going on, their messages, and the pending trade offer. */
export function conversationStatements({ db, stmts, iso, uid, senderId, lid }: Seeding, now: number): void {
  const conversationId = new Map<string, string>();
  const ownerOf = (ref: string) => LISTINGS.find((l) => l.ref === ref)!.owner;
  for (const c of CONVERSATIONS) {
    const id = randomUUID();
    conversationId.set(`${c.listing}:${c.buyer}`, id);
    const first = c.messages[0];
    const last = c.messages[c.messages.length - 1];
    stmts.push(
      db
        .prepare(
          "INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(id, lid(c.listing), uid(c.buyer), uid(ownerOf(c.listing)), c.messages.length, iso(first.ago), iso(last.ago)),
    );
    c.messages.forEach((m, i) => {
      stmts.push(
        db
          .prepare("INSERT INTO messages (id, conversation_id, sender_id, seq, content, read_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
          .bind(randomUUID(), id, senderId(m.from), i + 1, m.text, m.read ? iso(Math.max(0, m.ago - 3)) : null, iso(m.ago)),
      );
    });
  }
  const t = TRADE_OFFER;
  const offerCreated = now - minutes(t.ago);
  stmts.push(
    db
      .prepare(
        `INSERT INTO trade_offers (id, conversation_id, from_user_id, to_user_id, offered_listing_id, requested_listing_id, message,
           status, created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      )
      .bind(
        randomUUID(),
        conversationId.get(`${t.listing}:${t.from}`)!,
        uid(t.from),
        uid(ownerOf(t.requested)),
        lid(t.offered),
        lid(t.requested),
        t.message,
        iso(t.ago),
        iso(t.ago),
        new Date(offerCreated + t.validDays * 24 * 3_600_000).toISOString(),
      ),
  );
}

/** Favourites, and the reports with the moderator's action on the resolved one. */
export function moderationStatements({ db, stmts, iso, uid, lid }: Seeding): void {
  for (const f of FAVOURITES) {
    stmts.push(
      db.prepare("INSERT INTO favourites (user_id, listing_id, created_at) VALUES (?, ?, ?)").bind(uid(f.user), lid(f.listing), iso(f.ago)),
    );
  }
  for (const r of REPORTS) {
    const reportId = randomUUID();
    stmts.push(
      db
        .prepare(
          `INSERT INTO reports (id, reporter_id, target_type, target_id, reason, description, priority, status, resolution_action,
             moderator_notes, resolved_at, created_at) VALUES (?, ?, 'listing', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          reportId,
          uid(r.reporter),
          lid(r.listing),
          r.reason,
          r.description,
          r.priority,
          r.resolved ? "resolved" : "pending",
          r.resolved?.action ?? null,
          r.resolved?.notes ?? null,
          r.resolved ? iso(r.resolved.ago) : null,
          iso(r.ago),
        ),
    );
    if (r.resolved) {
      stmts.push(
        db
          .prepare(
            `INSERT INTO moderation_actions (id, moderator_id, report_id, target_type, target_id, action_type, reason, notes, created_at)
             VALUES (?, ?, ?, 'listing', ?, ?, ?, ?, ?)`,
          )
          .bind(
            randomUUID(),
            uid(r.resolved.moderator),
            reportId,
            lid(r.listing),
            r.resolved.action,
            r.reason,
            r.resolved.notes,
            iso(r.resolved.ago),
          ),
      );
    }
  }
}
