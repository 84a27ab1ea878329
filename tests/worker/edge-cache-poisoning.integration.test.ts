// Nobody can put a broken page into the edge cache (docs/security.md "Edge cache"): an attacker with
// no account sends every page address the cache serves with headers that make an asset server answer
// something other than the whole shell (a validator of the shell's own, a range), then another visitor
// reads the same address and must get the whole page. And a conditional request is answered from the
// stored page's own validator: its ETag gets 304, any other ETag the page with its body.
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv, Bindings } from "../../worker/env";
import { ALL_TAG, purgeEdgeCache } from "../../worker/lib/edge-cache";
import { withDb } from "../../worker/middleware/db";
import { edgeCache } from "../../worker/middleware/edge-cache";
import { createListing, createUser, signedInClient, type ListingRow } from "../factories";
import { allowConsoleError } from "./support/console-guard";
import { Client, ORIGIN } from "./support/http";

const word = () => `poison${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;

async function listing(): Promise<ListingRow> {
  const owner = await createUser({ displayName: "Petra Poisson" });
  return createListing({ userId: owner.id, title: `${word()} brannbil`, images: [`${owner.id}/1700000000000-bil.jpg`] });
}

/** Every page address the edge cache stores, for one listing, and what each must show. */
function pages(row: ListingRow): { path: string; shows: string }[] {
  const q = encodeURIComponent(row.title.split(" ")[0]);
  return [
    { path: `/annonse/${row.seoSlug}`, shows: row.title },
    { path: `/bruker/${row.userId}`, shows: "Petra Poisson" },
    { path: "/", shows: '<div id="root"' },
    { path: `/search?q=${q}`, shows: row.title },
    { path: `/listing/${row.id}`, shows: row.title },
  ];
}

/**
 * The shell's validator, as the asset server gives it. No address shows it any more (a missing file
 * is the Worker's 404, decision 164), but it did once, and it does not change between deploys of the
 * same shell: the attacker is assumed to know it.
 */
async function shellEtag(): Promise<string> {
  const res = await env.ASSETS.fetch(new Request(new URL("/", ORIGIN), { headers: { Accept: "text/html" } }));
  await res.body?.cancel();
  const etag = res.headers.get("ETag");
  expect(etag, "the asset server gives the shell a validator").toBeTruthy();
  return etag!;
}

/** Whole page: 200, the page's own text, the document's end. */
async function whole(res: Response, shows: string): Promise<string> {
  const text = await res.text();
  return `${res.status} ${text.includes(shows) ? "shows" : "missing"} ${/<\/html>\s*$/.test(text) ? "complete" : "cut"}`;
}

describe("an attacker cannot store a broken page for other visitors", () => {
  it("headers that change the shell's answer (its ETag, a date, a range), on every page, with and without a tracking parameter", async () => {
    const row = await listing();
    const etag = await shellEtag();
    const attacks: Record<string, string>[] = [
      { "If-None-Match": etag },
      { "If-None-Match": "*" },
      { "If-Modified-Since": new Date(Date.now() + 86_400_000).toUTCString() },
      { Range: "bytes=0-20" },
    ];
    const broken: string[] = [];
    for (const { path, shows } of pages(row)) {
      for (const headers of attacks) {
        for (const address of [path, `${path}${path.includes("?") ? "&" : "?"}utm_source=${word()}`]) {
          await (await new Client().get(address, { headers })).body?.cancel();
          // Another visitor, at the clean address and at the one the attacker used.
          for (const read of [path, address]) {
            const seen = await whole(await new Client().get(read), shows);
            if (seen !== "200 shows complete") broken.push(`${read} after ${address} with ${JSON.stringify(headers)}: ${seen}`);
          }
          // Each attack on a clean cache: the next one must not find this one's page stored.
          await purgeEdgeCache(env as Bindings, [ALL_TAG]);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("the attacker's own answer is the whole page too, never an empty 200", async () => {
    const row = await listing();
    const etag = await shellEtag();
    for (const { path, shows } of pages(row)) {
      const res = await new Client().get(path, { headers: { "If-None-Match": etag } });
      expect(await whole(res, shows), path).toBe("200 shows complete");
    }
  });
});

describe("the cache keeps only whole answers", () => {
  it("a page route's empty, cut or non-HTML 200 is answered once and never stored", async () => {
    // The real middleware in front of handlers that answer broken pages at addresses it stores.
    const answers: Record<string, () => Response> = {
      "/": () => new Response("", { headers: { "Content-Type": "text/html; charset=utf-8" } }),
      "/search": () => new Response("<!doctype html><html><head><title>Lekebytte</title>", { headers: { "Content-Type": "text/html" } }),
      "/bruker/x": () => new Response('{"page":"no"}', { headers: { "Content-Type": "application/json" } }),
      "/api/home": () => new Response("", { headers: { "Content-Type": "application/json" } }),
    };
    const app = new Hono<AppEnv>().use(withDb).use(edgeCache);
    for (const [path, answer] of Object.entries(answers)) app.get(path, () => answer());
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
    const log = allowConsoleError("Edge cache: an incomplete answer was not stored");
    for (const path of Object.keys(answers)) {
      for (let i = 0; i < 2; i++) {
        const res = await app.fetch(new Request(ORIGIN + path), env, ctx);
        expect([res.status, res.headers.get("X-Edge-Cache"), res.headers.get("Cache-Control")], path).toEqual([
          200,
          "BYPASS",
          "private, no-store",
        ]);
        await res.body?.cancel();
      }
      expect(await caches.default.match(new Request(ORIGIN + path)), path).toBeUndefined();
    }
    expect(log.calls()).toHaveLength(8);
  });
});

describe("conditional requests are answered from the stored page's own validator", () => {
  it("its own ETag gets 304 without a body; a stale or foreign one gets 200 with the page", async () => {
    const row = await listing();
    const foreign = await shellEtag();
    for (const { path, shows } of pages(row)) {
      const first = await new Client().get(path);
      const etag = first.headers.get("ETag");
      expect([first.status, first.headers.get("X-Edge-Cache"), (etag ?? "").length > 0], path).toEqual([200, "MISS", true]);
      const text = await first.text();
      expect(text, path).toContain(shows);

      const same = await new Client().get(path, { headers: { "If-None-Match": etag! } });
      expect([same.status, same.headers.get("X-Edge-Cache"), same.headers.get("ETag"), await same.text()], path).toEqual([
        304,
        "HIT",
        etag,
        "",
      ]);
      // Among several validators, one of them its own.
      const listed = await new Client().get(path, { headers: { "If-None-Match": `"x", ${etag}` } });
      expect(listed.status, path).toBe(304);
      await listed.body?.cancel();

      for (const other of [foreign, '"stale"', `W/${etag}x`]) {
        const res = await new Client().get(path, { headers: { "If-None-Match": other } });
        expect([res.status, res.headers.get("ETag")], `${path} ${other}`).toEqual([200, etag]);
        expect(await res.text(), `${path} ${other}`).toBe(text);
      }
    }
  });

  it("a page that changed gets a new ETag, so the browser's old one gets the new page", async () => {
    const row = await listing();
    const path = `/annonse/${row.seoSlug}`;
    const first = await new Client().get(path);
    await first.body?.cancel();
    const old = first.headers.get("ETag")!;
    const owner = await signedInClient(row.userId);
    expect((await owner.post(`/api/listings/${row.id}/status`, { status: "reserved" })).status).toBe(200);
    const after = await new Client().get(path, { headers: { "If-None-Match": old } });
    expect([after.status, after.headers.get("X-Edge-Cache")]).toEqual([200, "MISS"]);
    expect(after.headers.get("ETag")).not.toBe(old);
    expect(await after.text()).toContain("Reservert");
  });
});
