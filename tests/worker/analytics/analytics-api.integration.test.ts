// The analytics endpoints: what they accept and queue, what they refuse (validation, sizes, content
// type, origin, rate limit), the real queue from request to rollup, and who may read statistics.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { osloDay } from "../../../domain/format";
import { app } from "../../../worker/app";
import type { Actor } from "../../../worker/env";
import { RATE_RULES } from "../../../domain/rate-limits";
import { getListingAnalytics } from "../../../worker/features/analytics/stats";
import { createListing, createUser, eventBody, sessionBody, viewBody } from "../../factories";
import { Client, errorOf, ORIGIN } from "../support/http";
import { rateLimitRows, inOneWindow } from "../support/rate-limits";

interface Sent {
  body: unknown;
  options?: QueueSendOptions;
}

let ipCounter = 0;
/** Each test its own IP, so rate-limit windows never leak between tests. */
const freshIp = () => `192.0.2.${++ipCounter}`;

/** POST through the app with a queue that records what would be sent; by default under SESSION's signed cookie. */
async function post(path: string, body: string | unknown, headers: Record<string, string> = {}) {
  if (path !== "/api/analytics/sessions" && !("Cookie" in headers)) headers = { Cookie: sessionCookie, ...headers };
  const sent: Sent[] = [];
  const queue = {
    send: async (message: unknown, options?: QueueSendOptions) => {
      sent.push({ body: message, options });
    },
    sendBatch: async () => {
      throw new Error("not used");
    },
  } as unknown as Queue;
  const request = new Request(ORIGIN + path, {
    method: "POST",
    headers: { Origin: ORIGIN, "Content-Type": "application/json", "CF-Connecting-IP": freshIp(), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const res = await app.fetch(request, { ...env, ANALYTICS_QUEUE: queue }, createExecutionContext());
  return { res, sent };
}

const SESSION = "3f2a9c1e-7b4d-4e2a-9c3b-1234567890ab";
const LISTING = "1a2a9c1e-7b4d-4e2a-9c3b-1234567890ab";

/** The `name=value` of the analytics cookie a response sets, or null. */
function analyticsCookieOf(res: Response): string | null {
  const line = res.headers.getSetCookie().find((l) => l.startsWith("lb_analytics="));
  return line ? line.split(";")[0] : null;
}

/** SESSION's signed cookie, as /sessions gives it to a consenting browser; LISTING exists. */
let sessionCookie = "";
beforeAll(async () => {
  const { res } = await post("/api/analytics/sessions", sessionBody(SESSION));
  expect(res.status).toBe(202);
  sessionCookie = analyticsCookieOf(res)!;
  await createListing({ id: LISTING });
});

describe("ingest endpoints", () => {
  it.each([
    ["/api/analytics/sessions", () => sessionBody(SESSION), "session"],
    [
      "/api/analytics/events",
      () => ({ sessionId: SESSION, events: [eventBody(SESSION), eventBody(SESSION, { eventType: "search", eventCategory: "search" })] }),
      "events",
    ],
    ["/api/analytics/listing-views", () => viewBody({ listingId: LISTING, sessionId: SESSION }), "listing_view"],
    ["/api/analytics/searches", () => ({ sessionId: SESSION, query: "lego", filters: { free: "true" }, resultCount: 3 }), "search"],
  ] as const)("%s answers 202 and queues one message with the server's time and day", async (path, body, kind) => {
    const before = Date.now();
    const { res, sent } = await post(path, { ...body(), userId: "someone-else", role: "admin" });
    expect(res.status).toBe(202);
    expect(sent).toHaveLength(1);
    const message = sent[0].body as Record<string, unknown>;
    expect(message).toMatchObject({ v: 1, kind });
    expect(Date.parse(message.receivedAt as string)).toBeGreaterThanOrEqual(before);
    expect(message.day).toBe(osloDay(new Date()));
    expect(JSON.stringify(message)).not.toMatch(/someone-else|"role"/);
    expect(sent[0].options).toEqual({ contentType: "json" });
  });

  it.each([
    [
      "an unknown event type",
      "/api/analytics/events",
      { sessionId: SESSION, events: [eventBody(SESSION, { eventType: "purchase" })] },
      "Ukjent hendelsestype",
      "events.0.eventType",
    ],
    [
      "too many events",
      "/api/analytics/events",
      { sessionId: SESSION, events: Array.from({ length: 51 }, () => eventBody(SESSION)) },
      "Høyst 50 hendelser per forespørsel",
      "events",
    ],
    [
      "a scroll depth over 100",
      "/api/analytics/listing-views",
      { ...viewBody({ listingId: LISTING }), scrollDepthPercent: 150 },
      undefined,
      "scrollDepthPercent",
    ],
    ["an unknown device type", "/api/analytics/sessions", { ...sessionBody(), deviceType: "tv" }, "Ukjent enhetstype", "deviceType"],
    [
      "a search text over 200 characters",
      "/api/analytics/searches",
      { sessionId: SESSION, query: "x".repeat(201), filters: {}, resultCount: 0 },
      "Teksten kan ikke være lengre enn 200 tegn",
      "query",
    ],
  ])("refuses %s with 400 and a Norwegian message, and queues nothing", async (_name, path, body, message, field) => {
    const { res, sent } = await post(path, body);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe("VALIDATION");
    expect(error.fields).toHaveProperty(field);
    if (message) expect(error.message).toBe(message);
    expect(sent).toEqual([]);
  });

  it("refuses a body over 64 KB (413), another content type (415) and another site (403)", async () => {
    const big = await post("/api/analytics/events", {
      sessionId: SESSION,
      events: [eventBody(SESSION, { eventLabel: "x".repeat(70_000) })],
    });
    expect(big.res.status).toBe(413);
    expect((await errorOf(big.res)).message).toBe("Forespørselen er for stor.");
    const text = await post("/api/analytics/events", "{}", { "Content-Type": "text/plain", "Content-Length": "2" });
    expect(text.res.status).toBe(415);
    const crossSite = await post("/api/analytics/listing-views", viewBody({ listingId: LISTING }), { Origin: "https://evil.example" });
    expect(crossSite.res.status).toBe(403);
    expect([...big.sent, ...text.sent, ...crossSite.sent]).toEqual([]);
  });

  it("rate limits per address on the Rate Limiting binding, before validating: 429 with Retry-After, and no rate-limit row in D1", async () => {
    const rule = RATE_RULES.analyticsAddress;
    const rows = await rateLimitRows();
    // The address's whole allowance, used by real requests: bodies that fail validation, which
    // the limit counts first (fifty at a time, as a busy household's browsers would send them).
    const { statuses, limited } = await inOneWindow(rule, 10_000, async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < rule.limit; i += 50)
        statuses.push(
          ...(await Promise.all(
            Array.from(
              { length: Math.min(50, rule.limit - i) },
              async () => (await post("/api/analytics/events", { sessionId: "x" }, { "CF-Connecting-IP": ip })).res.status,
            ),
          )),
        );
      const limited = await post("/api/analytics/listing-views", viewBody({ listingId: LISTING }), { "CF-Connecting-IP": ip });
      return { statuses, limited };
    });
    expect(statuses).toEqual(Array(rule.limit).fill(400));
    expect(limited.res.status).toBe(429);
    expect(limited.res.headers.get("Retry-After")).toBe(String(rule.periodSeconds));
    expect((await errorOf(limited.res)).message).toBe("For mange forsøk. Vent litt og prøv igjen.");
    expect(limited.sent).toEqual([]);

    const other = await post("/api/analytics/listing-views", viewBody({ listingId: LISTING }));
    expect(other.res.status).toBe(202);
    // The point of the binding: none of these requests wrote to D1's single writer.
    expect(await rateLimitRows()).toBe(rows);
  }, 60_000);
});

describe("sessions the server issued (decision 038)", () => {
  it("/sessions sets a signed SameSite=Strict cookie for a day (readable, so withdrawing consent deletes it); a browser that has one keeps it and records no second session", async () => {
    const first = await post("/api/analytics/sessions", sessionBody());
    expect(first.res.status).toBe(202);
    const line = first.res.headers.getSetCookie().find((l) => l.startsWith("lb_analytics="))!;
    expect(line).toMatch(/SameSite=Strict/);
    expect(line).toMatch(/Max-Age=86400/);
    expect(line).toMatch(/Path=\//);
    expect(first.sent).toHaveLength(1);
    const again = await post("/api/analytics/sessions", sessionBody(), { Cookie: analyticsCookieOf(first.res)! });
    expect(again.res.status).toBe(202);
    expect(analyticsCookieOf(again.res)).toBeNull();
    expect(again.sent).toEqual([]);
  });

  it.each([
    ["no cookie", ""],
    ["a made-up cookie", `lb_analytics=${SESSION}.9999999999.${"A".repeat(43)}`],
    ["another session's id under SESSION's signature", () => sessionCookie.replace(SESSION, crypto.randomUUID())],
  ])("events, listing views and searches with %s: 403 in Norwegian, nothing queued", async (_name, cookie) => {
    const Cookie = typeof cookie === "function" ? cookie() : cookie;
    for (const [path, body] of [
      ["/api/analytics/events", { sessionId: SESSION, events: [eventBody(SESSION)] }],
      ["/api/analytics/listing-views", viewBody({ listingId: LISTING, sessionId: SESSION })],
      ["/api/analytics/searches", { sessionId: SESSION, query: "lego", filters: {}, resultCount: 1 }],
    ] as const) {
      const { res, sent } = await post(path, body, { Cookie });
      expect(res.status).toBe(403);
      expect((await errorOf(res)).message).toBe("Analyseøkten mangler eller er utløpt. Last siden på nytt.");
      expect(sent).toEqual([]);
    }
  });

  it("the cookie's session is what is queued, whatever session id the body names", async () => {
    const other = crypto.randomUUID();
    const view = await post("/api/analytics/listing-views", viewBody({ listingId: LISTING, sessionId: other }));
    expect((view.sent[0].body as { view: { sessionId: string } }).view.sessionId).toBe(SESSION);
    const events = await post("/api/analytics/events", { sessionId: other, events: [eventBody(other)] });
    const message = events.sent[0].body as { sessionId: string; events: { metadata: { sessionId: string } }[] };
    expect([message.sessionId, message.events[0].metadata.sessionId]).toEqual([SESSION, SESSION]);
  });

  it("one address gets at most 10 new sessions an hour (429 after)", async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await post("/api/analytics/sessions", sessionBody(), { "CF-Connecting-IP": ip })).res.status);
    expect(statuses).toEqual([...Array(10).fill(202), 429, 429]);
  });

  it("refuses a view of a listing that does not exist or is not listed (404), and queues nothing", async () => {
    const hidden = await createListing({ isHidden: true });
    const deleted = await createListing({ status: "deleted" });
    for (const listingId of [crypto.randomUUID(), hidden.id, deleted.id]) {
      const { res, sent } = await post("/api/analytics/listing-views", viewBody({ listingId }));
      expect(res.status).toBe(404);
      expect((await errorOf(res)).message).toBe("Annonse ikke funnet");
      expect(sent).toEqual([]);
    }
  });
});

describe("inflating a seller's views (through the real queue)", () => {
  it("300 made-up session ids signed out, 300 minted sessions from one address and 300 views under one session count 12 views, not 900", async () => {
    const listing = await createListing();
    const send = (client: Client, ip: string, path: string, body: unknown) =>
      client.post(path, body, { headers: { "CF-Connecting-IP": ip } });

    // 1. Signed out with made-up session ids and no server-issued session: refused.
    const anonymous = new Client();
    const refused = [];
    for (let i = 0; i < 300; i++)
      refused.push((await send(anonymous, "198.51.100.1", "/api/analytics/listing-views", viewBody({ listingId: listing.id }))).status);
    expect(new Set(refused)).toEqual(new Set([403]));

    // 2. A script minting a fresh session for every view from one address: 10 sessions an hour.
    let minted = 0;
    for (let i = 0; i < 300; i++) {
      const bot = new Client();
      if ((await send(bot, "198.51.100.2", "/api/analytics/sessions", sessionBody())).status !== 202) continue;
      minted += 1;
      expect((await send(bot, "198.51.100.2", "/api/analytics/listing-views", viewBody({ listingId: listing.id }))).status).toBe(202);
    }
    expect(minted).toBe(10);

    // 3. One real session reporting 300 different visits: accepted, but at most 2 count.
    const reloader = new Client();
    expect((await send(reloader, "198.51.100.3", "/api/analytics/sessions", sessionBody())).status).toBe(202);
    for (let i = 0; i < 300; i++)
      expect((await send(reloader, "198.51.100.3", "/api/analytics/listing-views", viewBody({ listingId: listing.id }))).status).toBe(202);

    // The consumer takes the 310 accepted reports in batches of up to 100 (5 s each).
    const deadline = Date.now() + 60_000;
    let stored = 0;
    while (Date.now() < deadline && stored < 310) {
      await new Promise((r) => setTimeout(r, 500));
      stored = (await env.DB.prepare("SELECT COUNT(*) AS n FROM analytics_listing_views WHERE listing_id = ?1")
        .bind(listing.id)
        .first<{ n: number }>())!.n;
    }
    expect(stored).toBe(310);
    const rollup = await env.DB.prepare("SELECT views, unique_sessions FROM listing_stats_daily WHERE listing_id = ?1")
      .bind(listing.id)
      .first();
    expect(rollup).toEqual({ views: 12, unique_sessions: 11 });
  }, 90_000);
});

describe("through the real queue", () => {
  it("a listing view sent to the endpoint ends in R2 and in the listing's rollup", async () => {
    const listing = await createListing();
    const view = viewBody({ listingId: listing.id, viewDurationMs: 12_000 });
    const client = new Client();
    expect((await client.post("/api/analytics/sessions", sessionBody())).status).toBe(202);
    const res = await client.post("/api/analytics/listing-views", view);
    expect(res.status).toBe(202);

    // The consumer gets the batch after max_batch_timeout (5 s).
    const deadline = Date.now() + 20_000;
    let row: { views: number; total_view_ms: number } | null = null;
    while (Date.now() < deadline && !row) {
      await new Promise((r) => setTimeout(r, 250));
      row = await env.DB.prepare("SELECT views, total_view_ms FROM listing_stats_daily WHERE listing_id = ?1").bind(listing.id).first();
    }
    expect(row).toEqual({ views: 1, total_view_ms: 12_000 });
    const objects = await env.PRIVATE.list({ prefix: `analytics/raw/day=${osloDay(new Date())}/` });
    const lines = (
      await Promise.all(objects.objects.map(async (o) => (await (await env.PRIVATE.get(o.key))!.text()).trim().split("\n")))
    ).flat();
    expect(lines.map((l) => JSON.parse(l) as { viewId?: string }).some((l) => l.viewId === view.viewId)).toBe(true);
  }, 30_000);
});

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

describe("the private bucket", () => {
  it("is never served by the image route", async () => {
    const day = osloDay(new Date());
    const keys = [`analytics/raw/day=${day}/abc.ndjson`, `analytics/dead-letter/day=${day}/x.json`];
    for (const key of keys) {
      await env.PRIVATE.put(key, '{"sessionId":"hemmelig"}\n');
      const res = await new Client().get(`/images/${key}`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("hemmelig");
      const encoded = await new Client().get(`/images/${encodeURIComponent(key)}`);
      expect(encoded.status).toBe(404);
    }
  });
});

describe("the local summary for the benchmark", () => {
  it("exists in local mode only", async () => {
    const request = () => new Request(`${ORIGIN}/api/dev/analytics/summary`);
    const local = await app.fetch(request(), env, createExecutionContext());
    expect(local.status).toBe(200);
    expect(await local.json()).toMatchObject({ records: expect.any(Number), rollups: expect.any(Object) });
    const production = await app.fetch(
      request(),
      { ...env, APP_ENV: "production", JWT_SECRET: "x".repeat(40), APP_ORIGIN: "https://lekebytte.example" },
      createExecutionContext(),
    );
    expect(production.status).toBe(404);
  });
});
