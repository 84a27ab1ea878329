// `npm run seed` (and the first `npm start`): loads the demo data into the same persisted local D1 and
// R2 that `wrangler dev --persist-to $STATE_DIR` serves. It only seeds an empty database (no users
// besides the system user); `npm run reset` starts over. Do not run it while the server is running:
// both would write the same SQLite files.
//
// Bindings come from wrangler's getPlatformProxy with persist path `$STATE_DIR/v3`, which is exactly
// where `--persist-to $STATE_DIR` keeps its data (wrangler joins "v3" to the --persist-to directory).
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { listingSlug } from "../domain/slug";
import { hashPassword } from "../worker/features/auth/password";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, SYSTEM_USER } from "./demo-accounts.mjs";
import { OFFLINE_ENV, WRANGLER_CONFIG, persistPath, seedMarker, stateDir } from "./local-env.mjs";
import { type AccountKey, CONVERSATIONS, DEMO_DEALS, FAVOURITES, LISTINGS, REPORTS, TRADE_OFFER, minutes } from "./seed/data";
import type { ImageSpec } from "./seed/images";
import { renderAll, storeDemoPhotos } from "./seed/photos";
import type { PhotoBucket, PhotoTransforms } from "../worker/lib/photo-variants";
import { reviewWindowClosesAt } from "../domain/reviews";

// Offline and quiet unless the caller chose otherwise (npm start passes the same settings).
for (const [key, value] of Object.entries(OFFLINE_ENV)) process.env[key] ??= value;

// Minimal structural types for the three bindings we use (the full ones live in worker-configuration.d.ts).
interface Stmt {
  bind(...values: unknown[]): Stmt;
  first<T>(): Promise<T | null>;
}
interface Bindings {
  DB: { prepare(sql: string): Stmt; batch(statements: Stmt[]): Promise<unknown[]> };
  IMAGES: PhotoBucket;
  IMAGE_TRANSFORMS: PhotoTransforms;
}

const quiet = process.argv.includes("--quiet");
const log = (msg: string) => {
  if (!quiet) console.log(msg);
};

async function main(): Promise<void> {
  const started = performance.now();
  const now = Date.now();
  const iso = (agoMinutes: number) => new Date(now - minutes(agoMinutes)).toISOString();

  // Render photos while wrangler's local runtime starts (first run only; they are cached on disk).
  const imageJobs = LISTINGS.flatMap((l) =>
    Array.from({ length: l.image.count }, (_, i) => ({
      id: `${l.ref}-${i}`,
      spec: { motif: l.image.motif, color: l.image.color, seed: `${l.ref}:${l.title}`, view: i } satisfies ImageSpec,
    })),
  );
  const imagesReady = renderAll(imageJobs);
  imagesReady.catch(() => undefined); // handled below; avoids an unhandled rejection if we exit early

  const { getPlatformProxy, unstable_readConfig } = await import("wrangler");
  // Only the three bindings the seed needs, taken from wrangler.toml: the rest of the Worker (assets,
  // Durable Objects, queues, …) is irrelevant here and would only slow down or break the proxy.
  const config = unstable_readConfig({ config: WRANGLER_CONFIG }, { hideWarnings: true });
  const d1 = config.d1_databases.find((d: { binding: string }) => d.binding === "DB");
  const r2 = config.r2_buckets.find((b: { binding: string }) => b.binding === "IMAGES");
  if (!d1 || !r2 || config.images?.binding !== "IMAGE_TRANSFORMS")
    throw new Error("wrangler.toml mangler D1-bindingen DB, R2-bindingen IMAGES eller Images-bindingen IMAGE_TRANSFORMS");
  const configDir = mkdtempSync(path.join(os.tmpdir(), "lekebytte-seed-"));
  const seedConfig = path.join(configDir, "wrangler.json");
  writeFileSync(
    seedConfig,
    JSON.stringify({
      name: config.name,
      compatibility_date: config.compatibility_date,
      d1_databases: [{ binding: "DB", database_name: d1.database_name, database_id: d1.database_id }],
      r2_buckets: [{ binding: "IMAGES", bucket_name: r2.bucket_name }],
      images: { binding: "IMAGE_TRANSFORMS" },
    }),
  );
  const proxy = await getPlatformProxy<Bindings>({
    configPath: seedConfig,
    persist: { path: persistPath() }, // the same data as `wrangler dev --persist-to $STATE_DIR`
    remoteBindings: false,
  }).finally(() => rmSync(configDir, { recursive: true, force: true }));
  try {
    const env = proxy.env;
    const existing = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE id != ?")
      .bind(SYSTEM_USER.id)
      .first<{ n: number }>()
      .catch((err: unknown) => {
        if (String(err).includes("no such table")) {
          throw new Error(
            `Databasen i ${stateDir()} har ingen tabeller. Kjør migreringene først ` +
              "(npm start gjør det, eller: wrangler d1 migrations apply DB --local --persist-to <STATE_DIR>).",
          );
        }
        throw err;
      });
    if (existing && existing.n > 0) {
      log(`Demodata: databasen har allerede ${existing.n} brukere – hopper over (npm run reset for å starte på nytt).`);
      writeMarker({ skipped: true, users: existing.n });
      return; // process.exit() below also stops the render workers
    }
    log("Laster demodata …");

    // ---- users and profiles -----------------------------------------------------------------
    const passwordHash = await hashPassword(DEMO_PASSWORD); // one hash (own salt) shared by the demo logins
    const userId = new Map<AccountKey, string>();
    const stmts: Stmt[] = [];
    const db = env.DB;
    DEMO_ACCOUNTS.forEach((a, i) => {
      const id = randomUUID();
      userId.set(a.key as AccountKey, id);
      const created = iso((420 - i * 37) * 24 * 60);
      stmts.push(
        db
          .prepare("INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
          .bind(id, a.email, passwordHash, new Date(Date.parse(created) + 4 * 60_000).toISOString(), created, created),
        db
          .prepare("INSERT INTO profiles (user_id, display_name, postal_code, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
          .bind(id, a.name, a.postalCode, a.role, created, created),
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

    // ---- images (R2) --------------------------------------------------------------------------
    const rendered = await imagesReady;
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
    // Each photo with its smaller copies, as an upload stores them (decision 123).
    await storeDemoPhotos(env, puts);

    // ---- listings ----------------------------------------------------------------------------
    const slugs = new Set<string>();
    const lid = (ref: string) => listingId.get(ref)!;
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
               is_trade_offer, postal_code, images, status, is_hidden, hidden_reason, hidden_at, seo_slug, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
          ),
      );
    }

    // ---- conversations, messages, trade offer ----------------------------------------------------
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
            .prepare(
              "INSERT INTO messages (id, conversation_id, sender_id, seq, content, read_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            )
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

    // ---- completed deals and their reviews (decision 070) --------------------------------------------
    for (const d of DEMO_DEALS) {
      const listing = LISTINGS.find((l) => l.ref === d.listing)!;
      const owner = listing.owner;
      const completed = iso(d.completed);
      const convId = randomUUID();
      const dealId = randomUUID();
      stmts.push(
        db
          .prepare(
            "INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
          )
          .bind(
            convId,
            lid(d.listing),
            uid(d.other),
            uid(owner),
            d.messages.length,
            iso(Math.max(d.completed + 60, d.messages[0].ago)),
            iso(d.messages[d.messages.length - 1].ago),
          ),
      );
      d.messages.forEach((m, i) => {
        stmts.push(
          db
            .prepare(
              "INSERT INTO messages (id, conversation_id, sender_id, seq, content, read_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(randomUUID(), convId, senderId(m.from), i + 1, m.text, m.read ? iso(Math.max(0, m.ago - 3)) : null, iso(m.ago)),
        );
      });
      if (d.kind === "sale") {
        const paymentId = randomUUID();
        const amount = (listing.price ?? 0) * 100;
        stmts.push(
          db
            .prepare(
              `INSERT INTO payments (id, listing_id, seller_id, buyer_id, provider, provider_ref, amount, status, created_at, updated_at)
               VALUES (?, ?, ?, ?, 'stripe', ?, ?, 'completed', ?, ?)`,
            )
            .bind(paymentId, lid(d.listing), uid(owner), uid(d.other), `cs_demo_${paymentId}`, amount, completed, completed),
          db
            .prepare(
              // A finished sale: its money released to the seller (decision 105), so it can be reviewed.
              `INSERT INTO orders (id, payment_id, listing_id, seller_id, buyer_id, amount, paid_at, conversation_id, seller_notified_at,
                                         buyer_receipt_sent_at, state, settled_at, money_moved_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'released', ?, ?)`,
            )
            .bind(
              dealId,
              paymentId,
              lid(d.listing),
              uid(owner),
              uid(d.other),
              amount,
              completed,
              convId,
              completed,
              completed,
              completed,
              completed,
            ),
        );
      } else {
        for (const r of d.rejected ?? []) {
          stmts.push(
            db
              .prepare(
                `INSERT INTO trade_offers (id, conversation_id, from_user_id, to_user_id, offered_listing_id, requested_listing_id, message,
                   status, created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'rejected', ?, ?, ?)`,
              )
              .bind(
                randomUUID(),
                convId,
                uid(d.other),
                uid(owner),
                lid(r.offered),
                lid(d.listing),
                r.message,
                iso(r.proposed),
                iso(r.answered),
                iso(r.proposed - 7 * 24 * 60),
              ),
          );
        }
        const offerId = randomUUID();
        const proposedAgo = d.proposed ?? d.completed + 2 * 24 * 60;
        const proposed = iso(proposedAgo);
        stmts.push(
          db
            .prepare(
              `INSERT INTO trade_offers (id, conversation_id, from_user_id, to_user_id, offered_listing_id, requested_listing_id, message,
                 status, created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'completed', ?, ?, ?)`,
            )
            .bind(
              offerId,
              convId,
              uid(d.other),
              uid(owner),
              lid(d.offered!),
              lid(d.listing),
              null,
              proposed,
              completed,
              iso(proposedAgo - 7 * 24 * 60),
            ),
          db
            .prepare(
              `INSERT INTO trades (id, trade_offer_id, user1_id, user2_id, user1_listing_id, user2_listing_id, status, created_at,
                 completed_at, user1_confirmed_at, user2_confirmed_at) VALUES (?, ?, ?, ?, ?, ?, 'completed', ?, ?, ?, ?)`,
            )
            .bind(dealId, offerId, uid(d.other), uid(owner), lid(d.offered!), lid(d.listing), proposed, completed, completed, completed),
        );
      }
      for (const r of d.reviews) {
        const reviewee = r.from === owner ? d.other : owner;
        stmts.push(
          db
            .prepare(
              `INSERT INTO reviews (id, deal_kind, deal_id, reviewer_id, reviewee_id, rating, text, window_closes_at, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .bind(randomUUID(), d.kind, dealId, uid(r.from), uid(reviewee), r.rating, r.text, reviewWindowClosesAt(completed), iso(r.ago)),
        );
      }
    }

    // ---- favourites, moderation ------------------------------------------------------------------
    for (const f of FAVOURITES) {
      stmts.push(
        db
          .prepare("INSERT INTO favourites (user_id, listing_id, created_at) VALUES (?, ?, ?)")
          .bind(uid(f.user), lid(f.listing), iso(f.ago)),
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

    // One transaction: either all demo data is in, or none of it.
    await db.batch(stmts);

    const missing = await missingPostalCodes(env);
    if (missing.length) console.warn(`Advarsel: postnumre uten poststed i postal_places: ${missing.join(", ")}`);

    writeMarker({ skipped: false, users: DEMO_ACCOUNTS.length, listings: LISTINGS.length, images: puts.length });
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    log(
      `Demodata lastet: ${DEMO_ACCOUNTS.length} brukere, ${LISTINGS.length} annonser, ${puts.length} bilder, ` +
        `${CONVERSATIONS.length + DEMO_DEALS.length} samtaler, 1 bytteforslag, ${DEMO_DEALS.length} fullførte handler (${secs} s).`,
    );
  } finally {
    await proxy.dispose();
  }
}

async function missingPostalCodes(env: Bindings): Promise<string[]> {
  const codes = [...new Set([...LISTINGS.map((l) => l.postalCode), ...DEMO_ACCOUNTS.map((a) => a.postalCode)])];
  const missing: string[] = [];
  for (const code of codes) {
    const row = await env.DB.prepare("SELECT place_name FROM postal_places WHERE postal_code = ?")
      .bind(code)
      .first<{ place_name: string }>();
    if (!row) missing.push(code);
  }
  return missing;
}

function writeMarker(info: Record<string, unknown>): void {
  mkdirSync(stateDir(), { recursive: true });
  writeFileSync(seedMarker(), `${JSON.stringify({ seededAt: new Date().toISOString(), ...info }, null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error("Demodata kunne ikke lastes:", err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
