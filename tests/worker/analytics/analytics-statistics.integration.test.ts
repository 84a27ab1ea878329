// The analytics endpoints: who may read a listing's statistics, and the figures get_listing_analytics
// gives.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { osloDay } from "../../../domain/format";
import type { Actor } from "../../../worker/env";
import { getListingAnalytics } from "../../../worker/features/analytics/stats";
import { createListing, createUser } from "../../factories";
import { Client, errorOf } from "../support/http";

describe("statistics: who may read them", () => {
  const PASSWORD = "hemmelig123";
  type Who = "anonymous" | "other" | "moderator" | "admin" | "owner";
  const clients = {} as Record<Who, Client>;
  let ownerId = "";

  beforeAll(async () => {
    clients.anonymous = new Client();
    for (const [who, role] of [
      ["owner", "user"],
      ["other", "user"],
      ["moderator", "moderator"],
      ["admin", "admin"],
    ] as const) {
      const user = await createUser({ password: PASSWORD, role });
      const client = new Client();
      expect((await client.post("/api/auth/signin", { email: user.email, password: PASSWORD })).status).toBe(200);
      clients[who] = client;
      if (who === "owner") ownerId = user.id;
    }
  });

  it.each([
    ["anonymous", 401],
    ["other", 404],
    ["moderator", 200],
    ["admin", 200],
    ["owner", 200],
  ] as const)("GET /api/analytics/listings/:id as %s → %d", async (who, status) => {
    const listing = await createListing({ userId: ownerId });
    await env.DB.prepare(
      "INSERT INTO listing_stats_daily (listing_id, day, views, unique_sessions, total_view_ms) VALUES (?1, ?2, 3, 2, 9000)",
    )
      .bind(listing.id, osloDay(new Date()))
      .run();
    const res = await clients[who].get(`/api/analytics/listings/${listing.id}`);
    expect(res.status).toBe(status);
    const body = (await res.json()) as Record<string, unknown>;
    if (status === 200) {
      expect(body).toMatchObject({ listing_id: listing.id, days_back: 30, totals: { views: 3, unique_sessions: 2, avg_view_ms: 3000 } });
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    } else {
      expect(JSON.stringify(body)).not.toMatch(/views/);
    }
  });

  it("answers 404 for a deleted listing (owner), an unknown id and a malformed id, and 400 for bad days", async () => {
    const deleted = await createListing({ userId: ownerId, status: "deleted" });
    expect((await clients.owner.get(`/api/analytics/listings/${deleted.id}`)).status).toBe(404);
    expect((await clients.owner.get(`/api/analytics/listings/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await clients.owner.get("/api/analytics/listings/lego")).status).toBe(404);
    const listing = await createListing({ userId: ownerId });
    const bad = await clients.owner.get(`/api/analytics/listings/${listing.id}?days=400`);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe("Antall dager må være et tall mellom 1 og 365");
    const week = (await (await clients.owner.get(`/api/analytics/listings/${listing.id}?days=7`)).json()) as { days: unknown[] };
    expect(week.days).toHaveLength(7);
  });

  it("GET /api/analytics/my-listings gives the signed-in user's own listings only", async () => {
    const mine = await createListing({ userId: ownerId });
    const theirs = await createListing();
    const today = osloDay(new Date());
    await env.DB.batch([
      env.DB.prepare("INSERT INTO listing_stats_daily (listing_id, day, views, unique_sessions) VALUES (?1, ?2, 5, 4)").bind(
        mine.id,
        today,
      ),
      env.DB.prepare("INSERT INTO listing_stats_daily (listing_id, day, views, unique_sessions) VALUES (?1, ?2, 7, 7)").bind(
        theirs.id,
        today,
      ),
    ]);
    expect((await clients.anonymous.get("/api/analytics/my-listings")).status).toBe(401);
    const rows = (await (await clients.owner.get("/api/analytics/my-listings")).json()) as { listing_id: string; views: number }[];
    expect(rows.find((r) => r.listing_id === mine.id)).toEqual({ listing_id: mine.id, views: 5, unique_sessions: 4 });
    expect(rows.some((r) => r.listing_id === theirs.id)).toBe(false);
  });
});

describe("get_listing_analytics figures", () => {
  it("fills every day, reads views from the rollups and favourites, conversations and offers from their rows, by Oslo day", async () => {
    const now = new Date("2026-11-20T12:00:00Z");
    const owner = await createUser();
    const buyer = await createUser();
    const listing = await createListing({ userId: owner.id, isTradeOffer: true });
    const offered = await createListing({ userId: buyer.id });
    const conversationId = crypto.randomUUID();
    const db = env.DB;
    await db.batch([
      db
        .prepare(
          "INSERT INTO listing_stats_daily (listing_id, day, views, unique_sessions, total_view_ms) VALUES (?1, '2026-11-20', 4, 3, 40000)",
        )
        .bind(listing.id),
      db
        .prepare(
          "INSERT INTO listing_stats_daily (listing_id, day, views, unique_sessions, total_view_ms) VALUES (?1, '2026-11-18', 2, 2, 10000)",
        )
        .bind(listing.id),
      // Outside a 3-day window.
      db
        .prepare(
          "INSERT INTO listing_stats_daily (listing_id, day, views, unique_sessions, total_view_ms) VALUES (?1, '2026-11-17', 9, 9, 9000)",
        )
        .bind(listing.id),
      // 23:30 UTC on the 18th is 00:30 on the 19th in Oslo.
      db
        .prepare("INSERT INTO favourites (user_id, listing_id, created_at) VALUES (?1, ?2, '2026-11-18T23:30:00.000Z')")
        .bind(buyer.id, listing.id),
      db
        .prepare("INSERT INTO favourites (user_id, listing_id, created_at) VALUES (?1, ?2, '2026-11-20T08:00:00.000Z')")
        .bind(owner.id, listing.id),
      db
        .prepare(
          "INSERT INTO conversations (id, listing_id, buyer_id, seller_id, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, '2026-11-20T09:00:00.000Z', '2026-11-20T09:00:00.000Z')",
        )
        .bind(conversationId, listing.id, buyer.id, owner.id),
      db
        .prepare(
          `INSERT INTO trade_offers (id, conversation_id, from_user_id, to_user_id, offered_listing_id, requested_listing_id, created_at, updated_at, expires_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, '2026-11-18T10:00:00.000Z', '2026-11-18T10:00:00.000Z', '2026-11-25T10:00:00.000Z')`,
        )
        .bind(crypto.randomUUID(), conversationId, buyer.id, owner.id, offered.id, listing.id),
    ]);
    const actor: Actor = {
      id: owner.id,
      email: owner.email,
      displayName: null,
      role: "user",
      suspended: false,
      sessionFamily: "f",
      accessExpiresAt: 0,
    };

    const stats = await getListingAnalytics(env.DB, actor, listing.id, 3, now);

    expect(stats.from).toBe("2026-11-18");
    expect(stats.to).toBe("2026-11-20");
    expect(stats.days).toEqual([
      { day: "2026-11-18", views: 2, unique_sessions: 2, avg_view_ms: 5000, favourites: 0, messages_started: 0, trade_offers: 1 },
      { day: "2026-11-19", views: 0, unique_sessions: 0, avg_view_ms: null, favourites: 1, messages_started: 0, trade_offers: 0 },
      { day: "2026-11-20", views: 4, unique_sessions: 3, avg_view_ms: 10000, favourites: 1, messages_started: 1, trade_offers: 0 },
    ]);
    expect(stats.totals).toEqual({ views: 6, unique_sessions: 5, avg_view_ms: 8333, favourites: 2, messages_started: 1, trade_offers: 1 });
  });

  it("steps whole Oslo days across the change to winter time", async () => {
    const owner = await createUser();
    const listing = await createListing({ userId: owner.id });
    const actor: Actor = {
      id: owner.id,
      email: owner.email,
      displayName: null,
      role: "user",
      suspended: false,
      sessionFamily: "f",
      accessExpiresAt: 0,
    };
    const stats = await getListingAnalytics(env.DB, actor, listing.id, 4, new Date("2026-10-26T00:30:00Z"));
    expect(stats.days.map((d) => d.day)).toEqual(["2026-10-23", "2026-10-24", "2026-10-25", "2026-10-26"]);
  });
});
