// Hostile input through the Worker's real fetch (./rules.ts; docs/security.md; docs/decisions/061):
// bodies no photo upload may store, for listing photos and for the photos of a problem report, and
// file names or paths that try to choose or reach another key. Every answer holds the suite's three
// rules: no 5xx, a refusal is a 4xx with a Norwegian message, and a refusal changes nothing stored.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, jpegPhoto, pngPhoto, signedInClient, type TestUser } from "../../factories";
import { Client } from "../support/http";
import { paidOrder } from "../support/orders";
import { storedState } from "../support/state";
import { judge } from "./rules";

const enc = (s: string) => new TextEncoder().encode(s);
const SVG = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>';
/** Bodies no photo upload may store (listing photos and problem photos alike). */
const CASES: { name: string; body: () => Uint8Array; type: string; headers?: Record<string, string> }[] = [
  { name: "an SVG with a script, sent as image/svg+xml", body: () => enc(SVG), type: "image/svg+xml" },
  { name: "an SVG sent as image/png", body: () => enc(SVG), type: "image/png" },
  { name: "HTML sent as image/jpeg", body: () => enc("<!doctype html><script>alert(1)</script>"), type: "image/jpeg" },
  {
    name: "a JPEG start followed by HTML",
    body: () => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...enc("<html><script>alert(1)</script>")]),
    type: "image/jpeg",
  },
  {
    name: "a PNG signature and nothing else",
    body: () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    type: "image/png",
  },
  { name: "a GIF", body: () => enc("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), type: "image/gif" },
  { name: "an empty body", body: () => new Uint8Array(), type: "image/jpeg" },
  { name: "a ZIP", body: () => new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]), type: "application/zip" },
];

describe("uploads", () => {
  let owner: TestUser;
  let client: Client;
  beforeAll(async () => {
    owner = await createUser();
    client = await signedInClient(owner.id);
  });

  it.each(CASES)("$name: refused with a Norwegian 4xx, nothing stored", async ({ body, type, headers }) => {
    const before = await storedState();
    const res = await client.request("/api/images", { method: "POST", body: body(), headers: { "Content-Type": type, ...headers } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    await judge(res, before);
  });

  it("a body larger than its Content-Length says is refused before it is stored", async () => {
    const before = await storedState();
    const res = await client.request("/api/images", {
      method: "POST",
      body: new Uint8Array(6 * 1024 * 1024),
      headers: { "Content-Type": "image/jpeg", "Content-Length": "1000" },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    await judge(res, before);
  });

  it("a file name with path tricks cannot choose the key: the server's key under the owner", async () => {
    const res = await client.request("/api/images", {
      method: "POST",
      body: await pngPhoto(),
      headers: {
        "Content-Type": "image/png",
        "Content-Disposition": 'attachment; filename="../../sitemaps/sitemap.xml"',
        "X-File-Name": "../../x.png",
      },
    });
    expect(res.status).toBe(201);
    const { key } = (await res.json()) as { key: string };
    expect(key).toMatch(new RegExp(`^${owner.id}/[0-9]+-[0-9a-f]{12}\\.png$`));
  });

  it("deleting with path tricks reaches no one else's object", async () => {
    const victim = await createUser();
    const key = `${victim.id}/${crypto.randomUUID()}.jpg`;
    await env.IMAGES.put(key, jpegPhoto());
    const tricks = [
      `${owner.id}/../${key}`,
      `${owner.id}/%2e%2e/${key}`,
      `${owner.id}%2F..%2F${key}`,
      `./${key}`,
      `${owner.id}/..%5c${key}`,
      encodeURIComponent(key),
      `${owner.id}/${"../".repeat(5)}sitemaps/sitemap.xml`,
    ];
    for (const trick of tricks) {
      const before = await storedState();
      const res = await client.request(`/api/images/${trick}`, { method: "DELETE" });
      expect(res.status, trick).toBeGreaterThanOrEqual(400);
      await judge(res, before);
    }
    expect(await env.IMAGES.head(key)).not.toBeNull();
  });
});

describe("problem photo uploads (decision 108): the same checks as listing photos", () => {
  it("every hostile body is refused with a Norwegian 4xx and nothing is stored; a lying Content-Length too", async () => {
    const order = await paidOrder("card");
    const path = `/api/payments/orders/${order.orderId}/photos`;
    for (const { name, body, type, headers } of [
      ...CASES,
      { name: "JSON", body: () => enc('{"photos":["../../x"]}'), type: "application/json" },
    ]) {
      const before = await storedState();
      const res = await order.buyerClient.request(path, { method: "POST", body: body(), headers: { "Content-Type": type, ...headers } });
      expect(res.status, name).toBeGreaterThanOrEqual(400);
      await judge(res, before);
    }
    const before = await storedState();
    const big = await order.buyerClient.request(path, {
      method: "POST",
      body: new Uint8Array(6 * 1024 * 1024),
      headers: { "Content-Type": "image/jpeg", "Content-Length": "1000" },
    });
    expect(big.status).toBe(413);
    await judge(big, before);
  });

  it("a file name cannot choose the key, and path tricks on the photo's address reach nothing else", async () => {
    const order = await paidOrder("card");
    const res = await order.buyerClient.request(`/api/payments/orders/${order.orderId}/photos`, {
      method: "POST",
      body: await pngPhoto(),
      headers: {
        "Content-Type": "image/png",
        "Content-Disposition": 'attachment; filename="../../sitemaps/sitemap.xml"',
        "X-File-Name": "../x.png",
      },
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const key = (await env.DB.prepare("SELECT r2_key FROM problem_photos WHERE id = ?1").bind(id).first<{ r2_key: string }>())!.r2_key;
    expect(key).toMatch(new RegExp(`^problem-photos/${order.buyer.id}/[0-9]+-[0-9a-f]{12}\\.png$`));
    const base = `/api/payments/orders/${order.orderId}/photos`;
    for (const trick of [
      `${id}/..`,
      `..%2F..%2Fimages%2F${encodeURIComponent(key)}`,
      encodeURIComponent(key),
      `${id}%00`,
      `${id}.png`,
      "..",
      "%2e%2e",
    ]) {
      const got = await order.buyerClient.get(`${base}/${trick}`);
      expect(got.status, trick).toBeGreaterThanOrEqual(400);
      expect(got.status, trick).toBeLessThan(500);
    }
    // Through the public photo route the key is nobody's.
    expect((await new Client().get(`/images/${key}`)).status).toBe(404);
  });
});

// ------------------------------------------------------------------------------------------------
