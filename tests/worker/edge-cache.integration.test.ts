// The edge cache for visitors (docs/decisions/101-edge-cache.md): anonymous first screens and their
// APIs come from caches.default the second time, sessions and cookies never touch it, and every change
// a visitor must see at once (decision 050) purges what showed it. caches.default is isolated per
// test file, and tests/worker/setup.ts empties it before each test (the factories write D1 directly
// and purge nothing), so the tests do not depend on their order.
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { setCookie } from "hono/cookie";
import { describe, expect, it, vi } from "vitest";
import type { AppEnv, Bindings } from "../../worker/env";
import { ALL_TAG, listingTag, purgeEdgeCache, REPLICA_LAG_ALLOWANCE_MS, userTag } from "../../worker/lib/edge-cache";
import { d1Usage } from "../../worker/db/usage";
import { withDb } from "../../worker/middleware/db";
import { edgeCache, purgeAfterWrites } from "../../worker/middleware/edge-cache";
import { createListing, createSale, createUser, signedInClient, type ListingRow } from "../factories";
import { allowConsoleError } from "./support/console-guard";
import { Client, ORIGIN } from "./support/http";
import { editFormOf } from "./support/listing-form";

/** A word no other listing has, so search finds exactly ours. */
const word = () => `kantine${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;

async function listing(title = `${word()} brannbil`): Promise<ListingRow> {
  const owner = await createUser({ displayName: "Selma Selger" });
  return createListing({ userId: owner.id, title, images: [`${owner.id}/1700000000000-bil.jpg`] });
}

/** Every page and API answer a visitor can see the listing on. */
const surfaces = (row: ListingRow) => {
  const q = encodeURIComponent(row.title.split(" ")[0]);
  return [
    "/",
    "/api/home",
    `/search?q=${q}`,
    `/api/search?q=${q}`,
    `/annonse/${row.seoSlug}`,
    `/listing/${row.id}`,
    `/api/listings/${row.id}`,
    `/api/listings/by-slug/${row.seoSlug}`,
    `/bruker/${row.userId}`,
    `/api/users/${row.userId}`,
  ];
};

async function look(path: string, client = new Client()) {
  const res = await client.get(path);
  return { path, status: res.status, edge: res.headers.get("X-Edge-Cache"), headers: res.headers, text: await res.text() };
}

/** What a visitor sees on every surface: status, whether the text is there, and where it came from. */
async function seen(row: ListingRow, text: string) {
  const out: string[] = [];
  for (const path of surfaces(row)) {
    const r = await look(path);
    out.push(`${path} ${r.status} ${r.status === 200 && r.text.includes(text) ? "shows" : "absent"}`);
  }
  return out;
}

const everywhere = (row: ListingRow) => surfaces(row).map((p) => `${p} 200 shows`);

describe("visitors are served from the edge cache", () => {
  it("a second anonymous GET of each page and API is a hit that does not ask D1", async () => {
    const row = await listing();
    const first = await Promise.all(surfaces(row).map((p) => look(p)));
    expect(first.map((r) => `${r.path} ${r.status} ${r.edge}`)).toEqual(surfaces(row).map((p) => `${p} 200 MISS`));
    // A second listing with the same word, written straight into D1 (no purge): an answer from D1
    // would show it; the cached one cannot.
    const later = await createListing({ userId: row.userId, title: `${row.title.split(" ")[0]} gravemaskin` });
    const second = await Promise.all(surfaces(row).map((p) => look(p)));
    expect(second.map((r) => `${r.path} ${r.status} ${r.edge}`)).toEqual(surfaces(row).map((p) => `${p} 200 HIT`));
    for (const [i, r] of second.entries()) {
      expect(r.text, r.path).toBe(first[i].text);
      expect(r.text, r.path).not.toContain(later.id);
    }
    // Signed in, the same addresses come from D1 and do show it.
    const owner = await signedInClient(row.userId);
    expect((await look(`/api/search?q=${encodeURIComponent(row.title.split(" ")[0])}`, owner)).text).toContain(later.id);
  });

  it("tells browsers to revalidate and the edge how long to keep it", async () => {
    const row = await listing();
    for (const path of [...surfaces(row), "/api/config"]) {
      for (const expected of ["MISS", "HIT"]) {
        const r = await look(path);
        expect(r.edge, path).toBe(expected);
        expect(r.headers.get("Cache-Control"), path).toBe(path === "/api/config" ? "public, max-age=300" : "public, no-cache");
        expect(r.headers.get("CDN-Cache-Control"), path).toMatch(/^public, s-maxage=\d+, stale-while-revalidate=\d+$/);
        expect(r.headers.has("Cache-Tag"), path).toBe(false);
        // The security headers are on a hit as on a miss.
        expect(r.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
      }
    }
  });

  it("stores its copy with the edge's lifetime and the tags a purge names", async () => {
    const row = await listing();
    for (const [path, seconds, tags] of [
      ["/api/search?q=lego", 60, "lb-all,lb-listings"],
      [`/annonse/${row.seoSlug}`, 300, `lb-all,lb-listing-${row.id},lb-user-${row.userId}`],
      [`/api/users/${row.userId}`, 300, `lb-all,lb-user-${row.userId}`],
    ] as const) {
      expect((await look(path)).edge, path).toBe("MISS");
      const stored = await caches.default.match(new Request(ORIGIN + path));
      expect([stored?.headers.get("Cache-Control"), stored?.headers.get("Cache-Tag")], path).toEqual([`public, s-maxage=${seconds}`, tags]);
      await stored?.body?.cancel();
    }
  });

  it("keys a search by its parameters in any order, and a page without tracking parameters", async () => {
    const row = await listing();
    const q = encodeURIComponent(row.title.split(" ")[0]);
    expect((await look(`/api/search?q=${q}&sort=newest`)).edge).toBe("MISS");
    expect((await look(`/api/search?sort=newest&q=${q}`)).edge).toBe("HIT");
    expect((await look(`/search?sort=newest&q=${q}`)).edge).toBe("MISS");
    expect((await look(`/search?utm_source=epost&q=${q}&sort=newest&fbclid=abc`)).edge).toBe("HIT");
    // A different query is a different answer.
    expect((await look(`/api/search?q=${q}&sort=price_asc`)).edge).toBe("MISS");
  });

  it("answers HEAD from a stored GET without a body and stores nothing for a HEAD", async () => {
    const row = await listing();
    const path = `/annonse/${row.seoSlug}`;
    const head = await new Client().request(path, { method: "HEAD" });
    expect(head.headers.get("X-Edge-Cache")).toBe("BYPASS");
    expect((await look(path)).edge).toBe("MISS");
    const again = await new Client().request(path, { method: "HEAD" });
    expect([again.status, again.headers.get("X-Edge-Cache"), await again.text()]).toEqual([200, "HIT", ""]);
  });

  it("never stores a 404, so a listing that appears later is not hidden behind one", async () => {
    const missing = `/annonse/finnes-ikke-${word()}`;
    for (let i = 0; i < 2; i++) {
      const r = await look(missing);
      expect([r.status, r.edge]).toEqual([404, "BYPASS"]);
    }
  });
});

describe("sessions never touch the edge cache", () => {
  it("a signed-in request is neither answered from the cache nor stored in it", async () => {
    const row = await listing();
    const signedIn = await signedInClient((await createUser()).id);
    for (const path of surfaces(row)) {
      // Stored for visitors first: the signed-in request must still not get it.
      expect((await look(path)).edge, path).toBe("MISS");
      const mine = await look(path, signedIn);
      expect([mine.edge, mine.headers.get("Cache-Control"), mine.headers.has("CDN-Cache-Control")], path).toEqual([
        "BYPASS",
        "private, no-store",
        false,
      ]);
    }
    await purgeEdgeCache(env as Bindings, [ALL_TAG]);
    for (const path of surfaces(row)) await look(path, signedIn);
    // Nothing the signed-in requests got was stored.
    for (const path of surfaces(row)) expect((await look(path)).edge, path).toBe("MISS");
  });

  it("a refresh cookie alone (any scheme's name) bypasses the cache too", async () => {
    await look("/api/home");
    for (const cookie of ["lb_refresh=x", "__Secure-lb_refresh=x", "__Host-lb_access=x", "lb_access=x"]) {
      const res = await new Client().get("/api/home", { headers: { Cookie: cookie } });
      expect(res.headers.get("X-Edge-Cache"), cookie).toBe("BYPASS");
      await res.body?.cancel();
    }
  });

  it("an answer with Set-Cookie or marked private is never stored", async () => {
    // The real middleware in front of handlers that answer with a cookie or a private header, on
    // addresses the edge cache serves.
    const app = new Hono<AppEnv>()
      .use(withDb)
      .use(edgeCache)
      .get("/api/home", (c) => {
        setCookie(c, "lb_consent", "ja");
        return c.json({ fresh: crypto.randomUUID() });
      })
      .get("/api/config", (c) => {
        c.header("Cache-Control", "private, max-age=60");
        return c.json({ fresh: crypto.randomUUID() });
      });
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
    for (const path of ["/api/home", "/api/config"]) {
      const answers: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await app.fetch(new Request(ORIGIN + path), env, ctx);
        expect(res.headers.get("X-Edge-Cache"), path).toBe("BYPASS");
        answers.push(await res.text());
      }
      expect(answers[0], path).not.toBe(answers[1]);
    }
  });
});

describe("a miss costs the page its one D1 statement", () => {
  it("the home page and its API", async () => {
    await listing();
    for (const path of ["/", "/api/home"]) {
      const before = d1Usage();
      expect((await look(path)).edge, path).toBe("MISS");
      const after = d1Usage();
      expect([after.roundTrips - before.roundTrips, after.statements - before.statements], path).toEqual([1, 1]);
    }
  });

  it("the listing's pages and APIs are tagged from what the handler read, not by asking D1 again", async () => {
    const row = await listing();
    for (const path of [
      `/annonse/${row.seoSlug}`,
      `/listing/${row.id}`,
      `/api/listings/${row.id}`,
      `/api/listings/by-slug/${row.seoSlug}`,
    ]) {
      const before = d1Usage();
      expect((await look(path)).edge, path).toBe("MISS");
      const after = d1Usage();
      expect([after.roundTrips - before.roundTrips, after.statements - before.statements], path).toEqual([1, 1]);
    }
    for (const path of [`/annonse/${row.seoSlug}`, `/listing/${row.id}`, `/api/listings/${row.id}`, `/api/listings/by-slug/${row.seoSlug}`])
      expect((await look(path)).edge, path).toBe("HIT");
    // …and the tags are right: the seller's change purges them.
    await purgeEdgeCache(env as Bindings, [userTag(row.userId)]);
    for (const path of [`/annonse/${row.seoSlug}`, `/listing/${row.id}`, `/api/listings/${row.id}`, `/api/listings/by-slug/${row.seoSlug}`])
      expect((await look(path)).edge, path).toBe("MISS");
    await purgeEdgeCache(env as Bindings, [listingTag(row.id)]);
    for (const path of [`/annonse/${row.seoSlug}`, `/listing/${row.id}`, `/api/listings/${row.id}`, `/api/listings/by-slug/${row.seoSlug}`])
      expect((await look(path)).edge, path).toBe("MISS");
  });
});

describe("a signed-in reader's listing costs D1 one statement besides the session's own check", () => {
  it("the API by id and by slug, for a party of the deal about a sold listing, and the slug page of a public one", async () => {
    const deal = await createSale();
    const sold = deal.listings[0];
    const buyer = await signedInClient(deal.b.id);
    const statements = async (path: string, client: Client) => {
      const before = d1Usage().statements;
      const res = await client.get(path, { headers: { Accept: path.startsWith("/api/") ? "application/json" : "text/html" } });
      expect(res.status, path).toBe(200);
      await res.body?.cancel();
      return d1Usage().statements - before;
    };
    // What the session's check costs on any route (an answer without D1 of its own).
    const session = await statements("/api/auth/session", buyer);
    expect(session).toBeGreaterThan(0);
    for (const path of [`/api/listings/${sold.id}`, `/api/listings/by-slug/${sold.seoSlug}`])
      expect(await statements(path, buyer), path).toBe(session + 1);
    // The edge page of a public listing is the visitors' one: no session is looked up for it.
    const row = await listing();
    expect(await statements(`/annonse/${row.seoSlug}`, buyer)).toBe(1);
  });
});

describe("the switch EDGE_CACHE=off", () => {
  it("takes the cache out of the path: every answer is the handler's, private, and nothing is stored", async () => {
    const { app } = await import("../../worker/app");
    const off = { ...(env as Bindings), EDGE_CACHE: "off" };
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
    const row = await listing();
    for (const path of surfaces(row)) {
      for (let i = 0; i < 2; i++) {
        const res = await app.fetch(new Request(ORIGIN + path), off, ctx);
        expect(
          [res.status, res.headers.get("X-Edge-Cache"), res.headers.get("Cache-Control"), res.headers.has("CDN-Cache-Control")],
          path,
        ).toEqual([200, "OFF", "private, no-store", false]);
        await res.body?.cancel();
      }
    }
    // Every surface but the shared home page is this listing's own, never asked for with the cache on:
    // nothing was stored while it was off.
    for (const path of surfaces(row).filter((p) => p !== "/" && p !== "/api/home")) expect((await look(path)).edge, path).toBe("MISS");
  });
});

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

describe("listing photos are served from the edge cache, to visitors and signed-in readers alike", () => {
  const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
  const putPhoto = (key: string) => env.IMAGES.put(key, JPEG, { httpMetadata: { contentType: "image/jpeg" } });

  /** A public listing whose photo is in R2, and the photo's address. */
  async function photographed(): Promise<{ row: ListingRow; path: string; key: string }> {
    const row = await listing();
    const key = row.images[0];
    await putPhoto(key);
    return { row, path: `/images/${key.split("/").map(encodeURIComponent).join("/")}`, key };
  }

  const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

  it("the second view asks neither D1 nor R2, signed in or not, and a browser's ETag gets a 304", async () => {
    const { path, key } = await photographed();
    const first = await new Client().get(path);
    expect([first.status, first.headers.get("X-Edge-Cache"), first.headers.get("Cache-Control")]).toEqual([
      200,
      "MISS",
      "public, max-age=3600",
    ]);
    expect(await bytesOf(first)).toEqual(JPEG);
    const etag = first.headers.get("ETag") ?? "";
    expect(etag).not.toBe("");
    // Gone from R2 and asked of no D1 statement: only the stored copy can answer now.
    await env.IMAGES.delete(key);
    const statements = d1Usage().statements;
    const signedIn = await signedInClient((await createUser()).id);
    for (const client of [new Client(), signedIn]) {
      const again = await client.get(path);
      expect([again.status, again.headers.get("X-Edge-Cache"), again.headers.get("Cache-Control")]).toEqual([
        200,
        "HIT",
        "public, max-age=3600",
      ]);
      expect(await bytesOf(again)).toEqual(JPEG);
    }
    const revalidated = await new Client().get(path, { headers: { "If-None-Match": etag } });
    expect([revalidated.status, revalidated.headers.get("X-Edge-Cache"), await revalidated.text()]).toEqual([304, "HIT", ""]);
    // Not even the signed-in reader's session: a public photo is the same for everyone.
    expect(d1Usage().statements - statements).toBe(0);
  });

  it("a photo only its owner may see is never stored: visitors still get 404 afterwards", async () => {
    const owner = await createUser();
    const key = `${owner.id}/1700000000000-skjult.jpg`;
    await createListing({ userId: owner.id, title: `${word()} skjult`, images: [key], isHidden: true });
    await putPhoto(key);
    const path = `/images/${key}`;
    const mine = await (await signedInClient(owner.id)).get(path);
    expect([mine.status, mine.headers.get("Cache-Control"), mine.headers.get("X-Edge-Cache")]).toEqual([
      200,
      "private, max-age=3600",
      "BYPASS",
    ]);
    await mine.body?.cancel();
    const visitor = await new Client().get(path);
    expect([visitor.status, visitor.headers.get("X-Edge-Cache")]).toEqual([404, "BYPASS"]);
    await visitor.body?.cancel();
  });

  it("a change to the listing that shows it purges it: deleted by its owner, hidden by moderation, the photo edited out", async () => {
    const mod = await signedInClient((await createUser({ role: "moderator" })).id);
    const changes: [string, (row: ListingRow) => Promise<number>][] = [
      ["deleted by its owner", async (row) => (await (await signedInClient(row.userId)).delete(`/api/listings/${row.id}`)).status],
      [
        "hidden by moderation",
        async (row) => {
          const reporter = await signedInClient((await createUser()).id);
          const reported = await reporter.post("/api/reports", { target_type: "listing", target_id: row.id, reason: "Falsk annonse" });
          const { id } = (await reported.json()) as { id: string };
          return (await mod.post(`/api/moderation/reports/${id}/actions`, { action: "hide", notes: "Regelbrudd" })).status;
        },
      ],
      [
        "the photo edited out",
        async (row) => {
          const other = `${row.userId}/1700000000001-annet.jpg`;
          await putPhoto(other);
          const owner = await signedInClient(row.userId);
          return (await owner.request(`/api/listings/${row.id}`, { method: "PUT", json: editFormOf(row, { images: [other] }) })).status;
        },
      ],
    ];
    for (const [change, make] of changes) {
      const { row, path } = await photographed();
      await (await new Client().get(path)).body?.cancel();
      expect((await new Client().get(path)).headers.get("X-Edge-Cache"), change).toBe("HIT");
      expect([200, 204], change).toContain(await make(row));
      const after = await new Client().get(path);
      expect([after.status, after.headers.get("X-Edge-Cache")], change).toEqual([404, "BYPASS"]);
      await after.body?.cancel();
    }
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
