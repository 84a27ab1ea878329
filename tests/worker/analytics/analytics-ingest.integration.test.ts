// The analytics endpoints: what they accept and queue, what they refuse (validation, sizes, content
// type, origin, rate limit), and the sessions the server issues.
import { describe, expect, it } from "vitest";
import { osloDay } from "../../../domain/format";
import { RATE_RULES } from "../../../domain/rate-limits";
import { createListing, eventBody, sessionBody, viewBody } from "../../factories";
import { errorOf } from "../support/http";
import { rateLimitRows, inOneWindow } from "../support/rate-limits";
import { analyticsCookieOf, freshIp, LISTING, post, SESSION, sessionCookie, withAnalyticsSession } from "../support/analytics";

withAnalyticsSession();

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
