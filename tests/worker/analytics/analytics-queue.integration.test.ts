// The analytics endpoints: the real queue from request to rollup (and what inflating a seller's views
// through it counts), the private bucket the queue writes that the image route never serves, and the
// local summary for the benchmark.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { osloDay } from "../../../domain/format";
import { app } from "../../../worker/app";
import { createListing, sessionBody, viewBody } from "../../factories";
import { Client, ORIGIN } from "../support/http";

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
  }, 60_000);
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
