// The edge cache for visitors (docs/decisions/101-edge-cache.md): anonymous first screens and their
// APIs come from caches.default the second time, a miss costs its one D1 statement, sessions and
// cookies never touch it, and EDGE_CACHE=off takes it out of the path. tests/worker/setup.ts empties
// caches.default before each test (the factories write D1 directly and purge nothing), so the tests do
// not depend on their order.
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { setCookie } from "hono/cookie";
import { describe, expect, it } from "vitest";
import type { AppEnv, Bindings } from "../../worker/env";
import { ALL_TAG, edgeCacheKey, listingTag, purgeEdgeCache, userTag } from "../../worker/lib/edge-cache";
import { watchRequestD1 } from "./support/request-d1";
import { withDb } from "../../worker/middleware/db";
import { edgeCache } from "../../worker/middleware/edge-cache";
import { createListing, createSale, createUser, signedInClient } from "../factories";
import { asVisitor, Client, ORIGIN } from "./support/http";
import { listing, look, surfaces, word } from "./support/edge-cache";

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
      // A page is stored under the deployed version.
      const key = edgeCacheKey(new URL(ORIGIN + path), { page: !path.startsWith("/api/"), version: env.CF_VERSION_METADATA.id });
      const stored = await caches.default.match(key);
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
    const d1 = watchRequestD1();
    try {
      for (const path of ["/", "/api/home"]) {
        const seen = await look(path);
        expect(seen.edge, path).toBe("MISS");
        expect(d1.of(seen), path).toEqual({ roundTrips: 1, statements: 1 });
      }
    } finally {
      d1.stop();
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
      const d1 = watchRequestD1();
      try {
        const seen = await look(path);
        expect(seen.edge, path).toBe("MISS");
        expect(d1.of(seen), path).toEqual({ roundTrips: 1, statements: 1 });
      } finally {
        d1.stop();
      }
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
      const d1 = watchRequestD1();
      try {
        const res = await client.get(path, { headers: { Accept: path.startsWith("/api/") ? "application/json" : "text/html" } });
        expect(res.status, path).toBe(200);
        await res.body?.cancel();
        return d1.statementsOf(res);
      } finally {
        d1.stop();
      }
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

describe("a deploy", () => {
  it("never serves a page the version before it stored (its HTML names that build's scripts); an API answer stays", async () => {
    const { app } = await import("../../worker/app");
    const pending: Promise<unknown>[] = [];
    const ctx = {
      waitUntil: (p: Promise<unknown>) => pending.push(p),
      passThroughOnException: () => {},
      props: {},
    } as unknown as ExecutionContext;
    const deployed = (id: string) => ({ ...(env as Bindings), CF_VERSION_METADATA: { ...env.CF_VERSION_METADATA, id } });
    const visit = async (path: string, version: string) => {
      const res = await app.fetch(new Request(ORIGIN + path, asVisitor()), deployed(version), ctx);
      await res.body?.cancel();
      await Promise.all(pending.splice(0));
      return res.headers.get("X-Edge-Cache");
    };
    const row = await listing();
    for (const path of ["/", `/annonse/${row.seoSlug}`, "/search?q=lego"]) {
      expect([await visit(path, "first"), await visit(path, "first")], path).toEqual(["MISS", "HIT"]);
      expect(await visit(path, "second"), `${path} after the deploy`).toBe("MISS");
    }
    expect([await visit("/api/home", "first"), await visit("/api/home", "second")]).toEqual(["MISS", "HIT"]);
  });
});
