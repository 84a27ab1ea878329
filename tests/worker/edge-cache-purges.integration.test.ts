// The edge cache for visitors (docs/decisions/101-edge-cache.md): every change a visitor must see at
// once (decision 050) purges what showed it, and in production the purge goes by tag to every data
// centre, again after the replicas' lag. tests/worker/setup.ts empties caches.default before each test
// (the factories write D1 directly and purge nothing), so the tests do not depend on their order.
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import type { AppEnv, Bindings } from "../../worker/env";
import { ALL_TAG, purgeEdgeCache, REPLICA_LAG_ALLOWANCE_MS } from "../../worker/lib/edge-cache";
import { purgeAfterWrites } from "../../worker/middleware/edge-cache";
import { createListing, createSale, createUser, signedInClient, type ListingRow } from "../factories";
import { allowConsoleError } from "./support/console-guard";
import { editFormOf } from "./support/listing-form";
import { everywhere, listing, look, seen, surfaces, word } from "./support/edge-cache";

describe("a change a visitor must see at once purges what showed it", () => {
  /** Every surface stored, showing the listing. */
  async function cached(row: ListingRow) {
    expect(await seen(row, row.id)).toEqual(everywhere(row));
    for (const path of surfaces(row)) expect((await look(path)).edge, path).toBe("HIT");
  }

  async function moderatorActs(targetType: "listing" | "user", targetId: string, action: "hide" | "delete") {
    // Reported through the API (the moderator acts on a report), then decided.
    const reporter = await signedInClient((await createUser()).id);
    const reported = await reporter.post("/api/reports", { target_type: targetType, target_id: targetId, reason: "Falsk annonse" });
    expect(reported.status).toBe(201);
    const { id } = (await reported.json()) as { id: string };
    const mod = await signedInClient((await createUser({ role: "moderator" })).id);
    const res = await mod.post(`/api/moderation/reports/${id}/actions`, { action, notes: "Regelbrudd" });
    expect(res.status).toBe(200);
    await res.body?.cancel();
  }

  it("hidden by moderation: gone from home, search, its pages and the seller's profile; back when unhidden", async () => {
    const row = await listing();
    await cached(row);
    await moderatorActs("listing", row.id, "hide");
    const gone = await seen(row, row.id);
    expect(gone.filter((l) => l.endsWith("shows"))).toEqual([]);
    const mod = await signedInClient((await createUser({ role: "moderator" })).id);
    const unhide = await mod.post(`/api/moderation/targets/listing/${row.id}/unhide`, { notes: "Feil" });
    expect(unhide.status).toBe(200);
    expect(await seen(row, row.id)).toEqual(everywhere(row));
  });

  it("deleted by its owner", async () => {
    const own = await listing();
    await cached(own);
    const owner = await signedInClient(own.userId);
    expect((await owner.delete(`/api/listings/${own.id}`)).status).toBe(204);
    expect((await seen(own, own.id)).filter((l) => l.endsWith("shows"))).toEqual([]);
  });

  it("deleted by a moderator", async () => {
    const reported = await listing();
    await cached(reported);
    await moderatorActs("listing", reported.id, "delete");
    expect((await seen(reported, reported.id)).filter((l) => l.endsWith("shows"))).toEqual([]);
  });

  it("sold, and reserved (the status a visitor sees changes)", async () => {
    const row = await listing();
    await cached(row);
    const owner = await signedInClient(row.userId);
    const reserve = await owner.post(`/api/listings/${row.id}/status`, { status: "reserved" });
    expect(reserve.status).toBe(200);
    for (const path of [`/api/listings/${row.id}`, `/annonse/${row.seoSlug}`]) {
      const r = await look(path);
      expect([r.edge, r.text.includes('"status":"reserved"')], path).toEqual(["MISS", true]);
    }
    expect((await owner.post(`/api/listings/${row.id}/status`, { status: "sold" })).status).toBe(200);
    // Sold: gone from home, search and the seller's profile; its own pages show it as sold (decision 117).
    expect((await seen(row, row.id)).filter((l) => l.endsWith("shows"))).toEqual(
      surfaces(row)
        .filter((p) => /listing|annonse/.test(p))
        .map((p) => `${p} 200 shows`),
    );
    for (const path of [`/api/listings/${row.id}`, `/annonse/${row.seoSlug}`])
      expect((await look(path)).text, path).toContain('"status":"sold"');
  });

  it("edited: the new title shows on every surface", async () => {
    const row = await listing();
    await cached(row);
    const owner = await signedInClient(row.userId);
    const title = `${row.title.split(" ")[0]} ombygd veteranbil`;
    const res = await owner.request(`/api/listings/${row.id}`, { method: "PUT", json: editFormOf(row, { title }) });
    expect(res.status).toBe(200);
    const edited = { ...row, seoSlug: ((await res.json()) as { seo_slug: string }).seo_slug };
    expect(await seen(edited, "ombygd veteranbil")).toEqual(everywhere(edited));
    // The old address no longer answers with the old title.
    const old = await look(`/annonse/${row.seoSlug}`);
    expect(old.status === 200 && old.text.includes(row.title)).toBe(false);
  });

  it("the seller suspended: everything stored about them is asked again", async () => {
    const row = await listing();
    await cached(row);
    await moderatorActs("user", row.userId, "hide");
    for (const path of surfaces(row)) expect((await look(path)).edge, path).toBe("MISS");
  });

  it("the seller's account deleted: their profile and listings are gone", async () => {
    const owner = await createUser({ password: "riktig-passord-123" });
    const row = await createListing({ userId: owner.id, title: `${word()} dukkehus`, images: [`${owner.id}/1700000000000-hus.jpg`] });
    await cached(row);
    const client = await signedInClient(owner.id);
    const res = await client.request("/api/me", { method: "DELETE", json: { password: "riktig-passord-123" } });
    expect(res.status).toBeLessThan(300);
    expect((await seen(row, row.id)).filter((l) => l.endsWith("shows"))).toEqual([]);
  });

  it("a review that shows on a profile: the profile and the seller's listing pages show it at once", async () => {
    const deal = await createSale({ listing: { status: "active", title: `${word()} dukkevogn` } });
    const [listingRow] = deal.listings;
    const seller = [`/bruker/${deal.a.id}`, `/api/users/${deal.a.id}`, `/api/listings/${listingRow.id}`];
    for (const path of seller) expect((await look(path)).edge, path).toBe("MISS");
    const text = `Rask og hyggelig ${word()}`;
    const review = (rating: number, t: string) => ({ deal_kind: deal.kind, deal_id: deal.id, rating, text: t });
    expect((await (await signedInClient(deal.b.id)).post("/api/reviews", review(5, text))).status).toBe(201);
    expect((await (await signedInClient(deal.a.id)).post("/api/reviews", review(4, "Takk for handelen."))).status).toBe(201);
    // Both have written: the review is shown, on the profile at once; the listing's seller card counts it.
    for (const path of seller.slice(0, 2)) {
      const r = await look(path);
      expect([r.edge, r.text.includes(text)], path).toEqual(["MISS", true]);
    }
    const card = await look(`/api/listings/${listingRow.id}`);
    expect([card.edge, (JSON.parse(card.text) as { seller: { rating: unknown } }).seller.rating]).toEqual([
      "MISS",
      { count: 1, average: 5 },
    ]);
  });

  it("another listing's change leaves this listing's page stored", async () => {
    const row = await listing();
    await cached(row);
    const other = await listing();
    const owner = await signedInClient(other.userId);
    expect((await owner.post(`/api/listings/${other.id}/status`, { status: "sold" })).status).toBe(200);
    // Lists may show any listing: asked again. This listing's own pages and its seller's profile: kept.
    const after = await Promise.all(surfaces(row).map(async (p) => `${p} ${(await look(p)).edge}`));
    expect(after).toEqual(surfaces(row).map((p) => `${p} ${/^\/(\?|$)|^\/api\/home|^\/search|^\/api\/search/.test(p) ? "MISS" : "HIT"}`));
  });
});

describe("production purges by tag in every data centre", () => {
  const tags = Array.from({ length: 150 }, (_, i) => `lb-listing-${i}`);

  it("sends the tags to Cloudflare's purge API, at most 100 per request, with the token", async () => {
    const calls: { url: string; auth: string | null; tags: string[] }[] = [];
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      calls.push({
        url: request.url,
        auth: request.headers.get("Authorization"),
        tags: ((await request.json()) as { tags: string[] }).tags,
      });
      return Response.json({ success: true });
    });
    try {
      const production = { ...env, APP_ENV: "production", CACHE_PURGE_ZONE_ID: "zone123", CACHE_PURGE_TOKEN: "secret-token" } as Bindings;
      await purgeEdgeCache(production, tags);
    } finally {
      fetchSpy.mockRestore();
    }
    expect(calls.map((c) => [c.url, c.auth, c.tags.length])).toEqual([
      ["https://api.cloudflare.com/client/v4/zones/zone123/purge_cache", "Bearer secret-token", 100],
      ["https://api.cloudflare.com/client/v4/zones/zone123/purge_cache", "Bearer secret-token", 50],
    ]);
    expect(calls.flatMap((c) => c.tags)).toEqual(tags);
  });

  it("says so in the log when it is not configured, and still purges this data centre", async () => {
    const row = await listing();
    expect((await look(`/api/listings/${row.id}`)).edge).toBe("MISS");
    const log = allowConsoleError("CACHE_PURGE_ZONE_ID");
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      await purgeEdgeCache({ ...env, APP_ENV: "production" } as Bindings, [ALL_TAG]);
    } finally {
      fetchSpy.mockRestore();
    }
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(log.calls()).toHaveLength(1);
    expect((await look(`/api/listings/${row.id}`)).edge).toBe("MISS");
  });

  it("is repeated after the replicas' lag, so an old answer a lagging replica gave a miss in between goes too", async () => {
    const calls: string[][] = [];
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      calls.push(((await new Request(input, init).json()) as { tags: string[] }).tags);
      return Response.json({ success: true });
    });
    const later: Promise<unknown>[] = [];
    const context = { waitUntil: (task: Promise<unknown>) => void later.push(task) };
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      const production = { ...env, APP_ENV: "production", CACHE_PURGE_ZONE_ID: "zone123", CACHE_PURGE_TOKEN: "secret-token" } as Bindings;
      await purgeEdgeCache(production, ["lb-listing-1", "lb-lists"], context);
      expect(calls).toEqual([["lb-listing-1", "lb-lists"]]);
      await vi.advanceTimersByTimeAsync(REPLICA_LAG_ALLOWANCE_MS - 1);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      await Promise.all(later);
      expect(calls).toEqual([
        ["lb-listing-1", "lb-lists"],
        ["lb-listing-1", "lb-lists"],
      ]);
    } finally {
      vi.useRealTimers();
      fetchSpy.mockRestore();
    }
  });

  it("a write through the API schedules the repeat in its own request's context", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json({ success: true }));
    const later: Promise<unknown>[] = [];
    const context = { waitUntil: (task: Promise<unknown>) => void later.push(task), passThroughOnException: () => {}, props: {} };
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      const app = new Hono<AppEnv>().use(purgeAfterWrites).post("/api/reviews", (c) => c.json({}, 201));
      const production = { ...env, APP_ENV: "production", CACHE_PURGE_ZONE_ID: "zone123", CACHE_PURGE_TOKEN: "secret-token" } as Bindings;
      expect((await app.request("/api/reviews", { method: "POST" }, production, context as ExecutionContext)).status).toBe(201);
      expect(fetchSpy).toHaveBeenCalledTimes(1);
      expect(later).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(REPLICA_LAG_ALLOWANCE_MS);
      await Promise.all(later);
      expect(fetchSpy).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
      fetchSpy.mockRestore();
    }
  });

  it("is not repeated locally, where the database has no replicas", async () => {
    const later: Promise<unknown>[] = [];
    await purgeEdgeCache(env as Bindings, [ALL_TAG], { waitUntil: (task: Promise<unknown>) => void later.push(task) });
    expect(later).toEqual([]);
  });

  it("a failed purge request is logged and never throws into the change that asked for it", async () => {
    const log = allowConsoleError("Edge cache purge failed");
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("rate limited", { status: 429 }));
    try {
      const production = { ...env, APP_ENV: "production", CACHE_PURGE_ZONE_ID: "zone123", CACHE_PURGE_TOKEN: "secret-token" } as Bindings;
      await expect(purgeEdgeCache(production, [ALL_TAG])).resolves.toBeUndefined();
    } finally {
      fetchSpy.mockRestore();
    }
    expect(log.calls().map((args) => args[1])).toEqual([429]);
  });
});
