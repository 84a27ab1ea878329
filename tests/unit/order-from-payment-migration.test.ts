// Migration 0027 rebuilds `orders` without the columns its payment holds (docs/decisions/141). D1
// enforces foreign keys in every migration, and `problem_photos` refers to orders: here the migration
// runs as D1 runs it (one transaction, foreign keys on) on a database with an order that has a
// problem photo, and every order and photo comes through, with its payment's facts still one join away.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";

const dir = path.resolve(import.meta.dirname, "../../migrations");
const MIGRATION = "0027_order_from_payment.sql";

function statements(file: string): string[] {
  return readFileSync(path.join(dir, file), "utf8")
    .split("--> statement-breakpoint")
    .filter((s) => s.trim());
}

function databaseBefore(): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  db.exec("PRAGMA foreign_keys = ON");
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql") && f < MIGRATION)
    .sort())
    for (const statement of statements(file)) db.exec(statement);
  return db;
}

function withOrder(db: DatabaseSync): void {
  const now = "2026-11-29T12:00:00.000Z";
  db.exec(`
    INSERT INTO users (id, email, password_hash) VALUES ('seller', 's@example.no', 'x'), ('buyer', 'b@example.no', 'x');
    INSERT INTO listings (id, user_id, title, description, category, age_range, condition_rating, price, postal_code, images, status, seo_slug, created_at, updated_at)
      VALUES ('listing', 'seller', 'Duplo-tog', 'Et tog', 'lego-og-bygg', '3-5', 'good', 250, '0150', '[]', 'sold', 'duplo-tog', '${now}', '${now}');
    INSERT INTO payments (id, listing_id, seller_id, buyer_id, provider, provider_ref, amount, status, platform_fee, created_at, updated_at)
      VALUES ('payment', 'listing', 'seller', 'buyer', 'stripe', 'cs_test_1', 25000, 'completed', 1250, '${now}', '${now}');
    INSERT INTO orders (id, payment_id, listing_id, seller_id, buyer_id, amount, currency, stripe_session_id, paid_at, platform_fee, state, problem_at)
      VALUES ('order', 'payment', 'listing', 'seller', 'buyer', 25000, 'NOK', 'cs_test_1', '${now}', 1250, 'problem', '${now}');
    INSERT INTO problem_photos (id, order_id, uploader_id, r2_key, content_type, attached_at, position)
      VALUES ('photo', 'order', 'buyer', 'problem-photos/buyer/a.webp', 'image/webp', '${now}', 0);
  `);
}

function migrate(db: DatabaseSync): void {
  db.exec("BEGIN");
  for (const statement of statements(MIGRATION)) db.exec(statement);
  db.exec("COMMIT");
}

describe(`migration ${MIGRATION}`, () => {
  it("keeps every order and problem photo under D1's foreign keys, and the order's facts are its payment's", () => {
    const db = databaseBefore();
    withOrder(db);
    migrate(db);
    expect(db.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    expect(
      db
        .prepare(
          `SELECT o.id, o.state, o.problem_at, p.listing_id, p.seller_id, p.buyer_id, p.amount, p.currency, p.platform_fee, p.provider_ref
           FROM orders o JOIN payments p ON p.id = o.payment_id`,
        )
        .all(),
    ).toEqual([
      {
        id: "order",
        state: "problem",
        problem_at: "2026-11-29T12:00:00.000Z",
        listing_id: "listing",
        seller_id: "seller",
        buyer_id: "buyer",
        amount: 25000,
        currency: "NOK",
        platform_fee: 1250,
        provider_ref: "cs_test_1",
      },
    ]);
    expect(db.prepare("SELECT id, order_id, position FROM problem_photos").all()).toEqual([
      { id: "photo", order_id: "order", position: 0 },
    ]);
    const columns = db.prepare("SELECT name FROM pragma_table_info('orders')").all() as { name: string }[];
    expect(columns.map((c) => c.name)).not.toContain("listing_id");
    // The foreign keys still hold afterwards: a photo of an order that does not exist is refused.
    expect(() =>
      db.exec(
        "INSERT INTO problem_photos (id, order_id, uploader_id, r2_key, content_type) VALUES ('p2', 'nope', 'buyer', 'k', 'image/webp')",
      ),
    ).toThrow(/FOREIGN KEY/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '\\_\\_%' ESCAPE '\\'").all()).toEqual([]);
  });
});
