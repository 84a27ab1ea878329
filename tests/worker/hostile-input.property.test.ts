// Hostile input through the Worker's real fetch (docs/security.md; docs/decisions/061): tables
// and fast-check properties for what the other suites do not already cover. Every property holds the
// same three rules: no 5xx, a refusal is a 4xx with a Norwegian message, and a refusal changes
// nothing stored (support/state.ts). Already covered elsewhere, and not repeated here: forged,
// re-signed, tampered, stale and replayed webhooks (payments-*-webhooks), alg:none, foreign-key,
// expired and tampered-claim JWTs (auth), cross-site POSTs and non-JSON bodies (auth), foreign-Origin
// WebSocket upgrades (chat-live), a 6 MB image and a text file as a photo (listings-api), 64 KB+ JSON
// bodies (auth, analytics), the FTS5 escaper (search-fts.property) and fixed escaping cases (seo).
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_CLIENT_FRAME_BYTES, SOCKET_CLOSE } from "../../domain/chat";
import { RATE_RULES } from "../../domain/rate-limits";
import { safeReturnPath, signInPath } from "../../domain/return-path";
import { GIVEAWAY_MESSAGE_REQUIRED_TEXT } from "../../domain/schemas/giveaways";
import { MESSAGE_EMPTY_TEXT } from "../../domain/schemas/chat";
import { app } from "../../worker/app";
import {
  createConversation,
  createListing,
  createUser,
  jpegPhoto,
  pngPhoto,
  signedInClient,
  type ListingRow,
  type TestUser,
} from "../factories";
import { asVisitor, Client, errorOf, isNorwegianMessage } from "./support/http";
import { countAttempts } from "./support/rate-limits";
import { moneyFor, paidOrder } from "./support/orders";
import { LiveSocket, mirrored, openChat } from "./support/live";
import { stateChanges, storedState, type StoredState } from "./support/state";

/** Few runs: the machine is shared and each run is a real request (fast-check's seed is printed on failure). */
const RUNS = { numRuns: 40 };

/** The three rules for one answer; returns the status. `before` given: a refusal must change nothing. */
async function judge(res: Response, before?: StoredState): Promise<number> {
  expect(res.status, `no 5xx (${res.status})`).toBeLessThan(500);
  if (res.status >= 400) {
    const type = res.headers.get("Content-Type") ?? "";
    if (type.includes("application/json")) {
      const error = await errorOf(res);
      expect(isNorwegianMessage(error.message), `a Norwegian message: ${JSON.stringify(error.message)}`).toBe(true);
    } else {
      await res.arrayBuffer();
    }
    if (before) expect(stateChanges(before, await storedState())).toEqual([]);
  } else {
    await res.arrayBuffer();
  }
  return res.status;
}

// Text that breaks naive code: markup, quotes, SQL and FTS syntax, path tricks, control and
// combining characters, emoji, very long runs.
const nasty = fc.constantFrom(
  "",
  " ",
  '"',
  "'",
  "`",
  "<",
  ">",
  "&",
  "</script>",
  "<script>alert(1)</script>",
  "<!--",
  "]]>",
  '"><img src=x onerror=alert(1)>',
  "\\",
  "\\u003c",
  "%",
  "%00",
  "%2e%2e%2f",
  "../",
  "..\\",
  "/etc/passwd",
  "//evil.example",
  "https://evil.example",
  "javascript:alert(1)",
  "' OR 1=1 --",
  "'; DROP TABLE listings; --",
  "NEAR(",
  "title:",
  "*",
  "^",
  "\u0000",
  "\u0007",
  "\u202e",
  "\u2028",
  "\ufeff",
  "e\u0301",
  "😀",
  "👨‍👩‍👧",
  "日本語",
  "Ærlig øl på å",
  "x".repeat(5000),
  "-1",
  "1e309",
  "NaN",
  "Infinity",
  "0x10",
  "[]",
  "{}",
  "null",
  "true",
);
const text = fc.oneof(
  nasty,
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.array(nasty, { maxLength: 4 }).map((p) => p.join("")),
);

// ------------------------------------------------------------------------------------------------

describe("search text, filters and sort", () => {
  const KEYS = [
    "q",
    "categories",
    "conditions",
    "ages",
    "min",
    "max",
    "free",
    "trade",
    "postal",
    "sort",
    "limit",
    "offset",
    "page",
    "category",
    "__proto__",
    "q[]",
  ];

  beforeAll(async () => {
    await createListing({ title: "Lego Duplo togbane" });
  });

  it("any query string: 200 or a Norwegian 4xx, never a 5xx, nothing stored", async () => {
    const before = await storedState();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...KEYS), text), { maxLength: 8 }), async (pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const status = await judge(await new Client().get(`/api/search?${query}`, asVisitor()));
        expect([200, 400]).toContain(status);
      }),
      RUNS,
    );
    expect(stateChanges(before, await storedState())).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------

describe("redirect targets", () => {
  let listing: ListingRow;
  beforeAll(async () => {
    listing = await createListing({ title: "Brio tog" });
  });

  /** A Location the browser resolves to our own origin. */
  function sameSite(location: string): boolean {
    if (!location.startsWith("/") || location.startsWith("//") || location.startsWith("/\\")) return false;
    return new URL(location, "http://localhost").origin === "http://localhost";
  }

  const PATHS = ["/", "/auth", "/auth/callback", "/search", "/profile", "/payment-success", "/betaling-fullfort", "/lagrede-sok/avmeld"];

  it("sign-in's way back (/auth?next=, resolved in the browser) is a path on this site or nothing", () => {
    const prefix = fc.constantFrom(
      "",
      "/",
      "//",
      "/\\",
      "\\",
      "/\t/",
      "https:",
      "http://evil.example",
      "javascript:",
      "/%2F/",
      "/auth",
      "/./",
      "/..//",
    );
    fc.assert(
      fc.property(prefix, text, (start, rest) => {
        const next = safeReturnPath(start + rest);
        if (next !== null) {
          expect(sameSite(next), next).toBe(true);
          expect(new URL(next, "http://localhost").pathname, next).not.toMatch(/^\/auth(\/|$)/);
          // What the browser would resolve it to is itself: nothing left for it to reinterpret.
          expect(safeReturnPath(next)).toBe(next);
        }
        const auth = new URL(signInPath(start + rest), "http://localhost");
        expect(auth.pathname).toBe("/auth");
      }),
      { numRuns: 400 },
    );
    for (const hostile of [
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "/auth?next=//evil.example",
    ]) {
      expect(safeReturnPath(hostile), hostile).toBeNull();
    }
    expect(safeReturnPath("/listing/abc?handling=melding")).toBe("/listing/abc?handling=melding");
  });

  it("no page sends the browser off the site, whatever ?next=, ?redirect= or the slug say", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc
            .tuple(fc.constantFrom(...PATHS), fc.constantFrom("next", "redirect", "returnTo", "return_url", "url", "to"), text)
            .map(([path, key, value]) => `${path}?${new URLSearchParams({ [key]: value })}`),
          // Old-slug redirects: anything before the listing's id prefix.
          text.map((prefix) => `/annonse/${encodeURIComponent(prefix)}-${listing.id.slice(0, 6)}`),
          text.map((slug) => `/annonse/${encodeURIComponent(slug)}`),
        ),
        async (path) => {
          const res = await new Client().get(path, { redirect: "manual", headers: { Accept: "text/html" } });
          await judge(res);
          const location = res.headers.get("Location");
          if (res.status >= 300 && res.status < 400) expect(location !== null && sameSite(location), `${path} → ${location}`).toBe(true);
        },
      ),
      RUNS,
    );
  });
});

// ------------------------------------------------------------------------------------------------

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

describe("meta tags and JSON-LD on the listing page", () => {
  /** The attribute value as a browser reads it. */
  const unescapeAttr = (v: string) =>
    v.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");

  it("whatever the title and description, the page's markup stays ours", async () => {
    const owner = await createUser();
    await fc.assert(
      fc.asyncProperty(text, text, async (title, description) => {
        const listing = await createListing({ userId: owner.id, title: `Leke ${title}`.slice(0, 120), description });
        const res = await new Client().get(`/annonse/${listing.seoSlug}`);
        expect(res.status).toBe(200);
        const html = await res.text();
        // Exactly the script elements of the shell plus ours: no text closed a script or opened one.
        const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)];
        for (const [, body] of scripts) expect(body.toLowerCase()).not.toContain("<script");
        const ld = scripts.find(([tag]) => tag.includes("application/ld+json"));
        expect(ld, "JSON-LD present").toBeDefined();
        expect(ld![1]).not.toMatch(/<\/?[a-z!]/i);
        expect((JSON.parse(ld![1]) as { name: string }).name).toBe(listing.title);
        const preloaded = scripts.find(([tag]) => tag.includes('id="preloaded-listing"'));
        expect((JSON.parse(preloaded![1]) as { title: string }).title).toBe(listing.title);
        // og:title's attribute holds the title (as the page names it) and nothing breaks out of it.
        const og = /<meta property="og:title" content="([^"]*)"/.exec(html);
        expect(og, "og:title present").not.toBeNull();
        expect(unescapeAttr(og![1])).toContain("Leke");
        expect(html).not.toMatch(/<img src=x onerror/i);
      }),
      { numRuns: 25 },
    );
  });
});

// ------------------------------------------------------------------------------------------------

describe("oversized bodies and WebSocket frames", () => {
  it("a JSON body over the limit on every JSON route: 413 with a Norwegian message, nothing changed", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await signedInClient(admin.id);
    const big = JSON.stringify({ padding: "x".repeat(70 * 1024) });
    // Photo uploads (listings, problem reports) take raw bytes with their own 5 MB limit.
    const routes = mutatingRoutes().filter(
      (r) => !r.path.startsWith("/api/images") && !r.path.startsWith("/api/payments/webhooks") && !r.path.endsWith("/photos"),
    );
    const before = await storedState();
    for (const route of routes) {
      const res = await client.request(route.path, { method: route.method, body: big, headers: { "Content-Type": "application/json" } });
      expect(res.status, `${route.method} ${route.path}`).toBe(413);
      await judge(res);
    }
    expect(stateChanges(before, await storedState())).toEqual([]);
  });

  it("internal session headers sent by a client on the upgrade are ignored: its own user, session and expiry rule the socket", async () => {
    const conv = await createConversation();
    const buyer = await signedInClient(conv.buyer.id, { accessTtlSeconds: 2 });
    const forged = { "X-Lekebytte-User": conv.seller.id, "X-Lekebytte-Session": crypto.randomUUID(), "X-Lekebytte-Expires": "9999999999" };
    const res = await buyer.request(`/api/conversations/${conv.id}/live?after=0`, { headers: { Upgrade: "websocket", ...forged } });
    expect(res.status).toBe(101);
    res.webSocket!.accept();
    const socket = new LiveSocket(res.webSocket!);
    await socket.waitFor((f) => f.type === "sync" && f.done);
    const id = crypto.randomUUID();
    socket.send({ type: "send", id, content: "Hvem er jeg?" });
    await socket.waitFor((f) => f.type === "ack");
    await mirrored(conv.id);
    expect(await env.DB.prepare("SELECT sender_id FROM messages WHERE id = ?1").bind(id).first()).toEqual({ sender_id: conv.buyer.id });
    // The real token's expiry, not the forged one, closes it.
    await new Promise((r) => setTimeout(r, 2_300));
    await runDurableObjectAlarm(env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conv.id)));
    expect(await socket.waitClosed()).toBe(SOCKET_CLOSE.expired);
  });

  it("a chat frame over the limit is answered with an error frame and stores nothing", async () => {
    const conv = await createConversation();
    const socket = await openChat(await signedInClient(conv.buyer.id), conv.id);
    const before = await storedState();
    socket.send({ type: "send", id: crypto.randomUUID(), content: "x".repeat(MAX_CLIENT_FRAME_BYTES + 1) });
    const error = await socket.waitFor((f) => f.type === "error");
    expect(isNorwegianMessage((error as { message: string }).message)).toBe(true);
    expect(stateChanges(before, await storedState())).toEqual([]);
    socket.close();
  });
});

// ------------------------------------------------------------------------------------------------

describe("user text is cleaned like a listing's (domain/schemas/user-text.ts, decision 081)", () => {
  // What a person may write, and what is stored: controls (NUL, ESC, bell), bidi overrides and the
  // BOM go; line breaks, tabs and the joiner inside an emoji stay.
  const CLEANED = [
    { input: "Hei\u0000 der", stored: "Hei der", oneLine: "Hei der" },
    { input: "Rød\u001b[2J bil\u0007", stored: "Rød[2J bil", oneLine: "Rød[2J bil" },
    { input: "\u202eevil\u202c tekst\u2066", stored: "evil tekst", oneLine: "evil tekst" },
    { input: "\ufeffHenter i morgen", stored: "Henter i morgen", oneLine: "Henter i morgen" },
    { input: "linje 1\r\nlinje 2\r\tinnrykk", stored: "linje 1\nlinje 2\n\tinnrykk", oneLine: "linje 1  linje 2  innrykk" },
    { input: "👨‍👩‍👧 til familien", stored: "👨‍👩‍👧 til familien", oneLine: "👨‍👩‍👧 til familien" },
  ];
  // Nothing visible is left after cleaning: that is an empty text.
  const INVISIBLE = ["\u200b", "\u200b\u200c\u200d", " \u2060\n\u200b ", "\u0000\u001b", "\u202e\u202c", "\ufeff\u00ad"];

  const column = async (sql: string, id: string) => (await env.DB.prepare(sql).bind(id).first<{ v: string | null }>())?.v;

  it.each(CLEANED)("a chat message over the socket and over HTTP: $stored", async ({ input, stored }) => {
    const conv = await createConversation();
    const client = await signedInClient(conv.buyer.id);
    const socket = await openChat(client, conv.id);
    const id = crypto.randomUUID();
    socket.send({ type: "send", id, content: input });
    await socket.waitFor((f) => f.type === "ack");
    await mirrored(conv.id);
    expect(await column("SELECT content AS v FROM messages WHERE id = ?1", id)).toBe(stored);
    const viaHttp = crypto.randomUUID();
    await judge(await client.post(`/api/conversations/${conv.id}/messages`, { id: viaHttp, content: input }));
    await mirrored(conv.id);
    expect(await column("SELECT content AS v FROM messages WHERE id = ?1", viaHttp)).toBe(stored);
    socket.close();
  });

  it.each(INVISIBLE)("an invisible chat message (%j) is empty: refused over the socket and HTTP, nothing stored", async (input) => {
    const conv = await createConversation();
    const client = await signedInClient(conv.buyer.id);
    const socket = await openChat(client, conv.id);
    const before = await storedState();
    const id = crypto.randomUUID();
    socket.send({ type: "send", id, content: input });
    expect(await socket.waitFor((f) => f.type === "error" && f.id === id)).toMatchObject({
      code: "VALIDATION",
      message: MESSAGE_EMPTY_TEXT,
    });
    const res = await client.post(`/api/conversations/${conv.id}/messages`, { id: crypto.randomUUID(), content: input });
    expect(await judge(res, before)).toBe(400);
    socket.close();
  });

  it.each(CLEANED)("a trade offer's message: $stored", async ({ input, stored }) => {
    const sender = await createUser();
    const wanted = await createListing({ userId: (await createUser()).id, isTradeOffer: true });
    const mine = await createListing({ userId: sender.id });
    const res = await (await signedInClient(sender.id)).post("/api/trade-offers", {
      requested_listing_id: wanted.id,
      offered_listing_id: mine.id,
      message: input,
    });
    expect(await judge(res.clone())).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(await column("SELECT message AS v FROM trade_offers WHERE id = ?1", id)).toBe(stored);
  });

  it.each(INVISIBLE)("an invisible trade offer message (%j) is no message", async (input) => {
    const sender = await createUser();
    const wanted = await createListing({ userId: (await createUser()).id, isTradeOffer: true });
    const mine = await createListing({ userId: sender.id });
    const res = await (await signedInClient(sender.id)).post("/api/trade-offers", {
      requested_listing_id: wanted.id,
      offered_listing_id: mine.id,
      message: input,
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(await column("SELECT message AS v FROM trade_offers WHERE id = ?1", id)).toBeNull();
  });

  it.each(CLEANED)("a give-away queue message: $stored", async ({ input, stored }) => {
    const listing = await createListing({ userId: (await createUser()).id, isFree: true });
    const taker = await createUser();
    expect(
      await judge(await (await signedInClient(taker.id)).post(`/api/giveaways/listings/${listing.id}/queue`, { message: input })),
    ).toBe(201);
    const row = await env.DB.prepare("SELECT message AS v FROM giveaway_queue WHERE listing_id = ?1 AND user_id = ?2")
      .bind(listing.id, taker.id)
      .first<{ v: string }>();
    expect(row?.v).toBe(stored);
  });

  it.each(INVISIBLE)("an invisible give-away message (%j) is empty: refused with the normal message", async (input) => {
    const listing = await createListing({ userId: (await createUser()).id, isFree: true });
    const client = await signedInClient((await createUser()).id);
    const before = await storedState();
    const res = await client.post(`/api/giveaways/listings/${listing.id}/queue`, { message: input });
    expect(await judge(res.clone(), before)).toBe(400);
    expect((await errorOf(res)).message).toBe(GIVEAWAY_MESSAGE_REQUIRED_TEXT);
  });

  it.each(CLEANED)("the contact form's name, subject (one line) and message: $stored", async ({ input, stored, oneLine }) => {
    const marker = crypto.randomUUID();
    const res = await new Client().post(
      "/api/contact",
      { name: `${input} ${marker}`, email: "ola@eksempel.no", subject: input, message: input },
      { headers: { "CF-Connecting-IP": `10.20.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` } },
    );
    expect(await judge(res)).toBe(201);
    const row = await env.DB.prepare("SELECT name, subject, message FROM contact_messages WHERE name LIKE ?1")
      .bind(`%${marker}`)
      .first<{ name: string; subject: string; message: string }>();
    expect(row).toEqual({ name: `${oneLine} ${marker}`, subject: oneLine, message: stored });
  });

  it.each(INVISIBLE)("an invisible contact message (%j) is empty: refused with the normal message", async (input) => {
    const before = await storedState();
    const res = await new Client().post("/api/contact", { name: "Ola", email: "ola@eksempel.no", subject: "Hei", message: input });
    expect(await judge(res.clone(), before)).toBe(400);
    expect((await errorOf(res)).message).toBe("Fyll ut melding");
  });
});

// ------------------------------------------------------------------------------------------------

describe("JWT tampering", () => {
  it("any change to a valid access token makes it a visitor's request, never a 5xx", async () => {
    const user = await createUser();
    const token = (await signedInClient(user.id)).cookies.get("lb_access")!;
    const b64 = (s: string) => btoa(s).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/"))) as Record<string, unknown>;
    const mutation = fc.oneof(
      // One character of the token replaced.
      fc
        .tuple(fc.nat(token.length - 1), fc.constantFrom(..."ABCabc019-_.=+/ "))
        .map(([i, c]) => token.slice(0, i) + c + token.slice(i + 1)),
      // A claim changed (or added) under the original signature.
      fc
        .tuple(
          fc.constantFrom("sub", "exp", "iss", "aud", "token_type", "sid", "role", "nbf"),
          fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        )
        .map(([k, v]) => `${header}.${b64(JSON.stringify({ ...claims, [k]: v }))}.${signature}`),
      // Another header: another algorithm, a key id, no signature.
      fc
        .constantFrom("none", "HS512", "RS256", "ES256", "HS256 ", "")
        .map((alg) => `${b64(JSON.stringify({ alg, typ: "JWT" }))}.${payload}.${alg === "none" ? "" : signature}`),
      // Structure broken.
      fc.constantFrom(`${header}.${payload}`, `${header}..${signature}`, `${token}.`, token.repeat(2), "", "a.b.c"),
    );
    await fc.assert(
      fc.asyncProperty(mutation, async (forged) => {
        fc.pre(forged !== token);
        const client = new Client();
        client.cookies.set("lb_access", forged);
        const res = await client.get("/api/me");
        expect(await judge(res)).toBe(401);
      }),
      RUNS,
    );
  });
});

// ------------------------------------------------------------------------------------------------

/** Every state-changing API route the app registers, with its parameters filled in. */
function mutatingRoutes(): { method: string; path: string }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string }[] = [];
  for (const r of app.routes) {
    if (!["POST", "PUT", "PATCH", "DELETE"].includes(r.method) || !r.path.startsWith("/api/")) continue;
    const path = r.path
      .replace(/:key\{[^}]*\}/, "x/y.jpg")
      .replace(/:type/, "listing")
      .replace(/:direction/, "sent")
      .replace(/:[A-Za-z]+/g, () => crypto.randomUUID());
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method, path });
  }
  return out;
}

describe("cross-site requests", () => {
  it("every state-changing route refuses another site's Origin and Sec-Fetch-Site, with a Norwegian 403, nothing changed", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await signedInClient(admin.id);
    const routes = mutatingRoutes().filter((r) => !r.path.startsWith("/api/payments/webhooks"));
    expect(routes.length).toBeGreaterThan(40);
    const before = await storedState();
    for (const route of routes) {
      const foreign: Record<string, string>[] = [
        { Origin: "https://evil.example" },
        { Origin: "null" },
        { Origin: "http://localhost.evil.example" },
        { "Sec-Fetch-Site": "cross-site" },
        { "Sec-Fetch-Site": "same-site" },
      ];
      for (const headers of foreign) {
        const res = await client.request(route.path, { method: route.method, json: {}, headers });
        expect(res.status, `${route.method} ${route.path} ${JSON.stringify(headers)}`).toBe(403);
        expect((await errorOf(res)).message).toBe("Forespørselen kom fra et annet nettsted og ble avvist.");
      }
    }
    expect(stateChanges(before, await storedState())).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------

describe("the client address header (decision 082)", () => {
  // Cloudflare sets CF-Connecting-IP, but nothing stops a request from carrying any value there
  // locally or through a misconfigured proxy: limits and auto-hide must take whatever it holds.
  const address = fc.oneof(
    fc.constantFrom(
      "",
      "::",
      ":::",
      "1.2.3.999",
      "01.2.3.4",
      "2001:db8::1::2",
      "::ffff:1.2.3.4",
      "fe80::1%eth0",
      "x".repeat(2000),
      "' OR 1=1 --",
      "local",
      "2001:db8:0:0:0:0:0:0:1",
    ),
    fc.stringMatching(/^[!-~]{1,80}$/),
    fc.ipV4(),
    fc.ipV6(),
  );

  it("any value: a report is filed (201) keeping only a 32-hex hash of the network, the contact form answers 201 or 429; never a 5xx", async () => {
    const listing = await createListing();
    await fc.assert(
      fc.asyncProperty(address, async (ip) => {
        const reporter = await createUser();
        const client = await signedInClient(reporter.id);
        const res = await client.post(
          "/api/reports",
          { target_type: "listing", target_id: listing.id, reason: "Annet" },
          { headers: { "CF-Connecting-IP": ip } },
        );
        expect(await judge(res)).toBe(201);
        const contact = await new Client().post(
          "/api/contact",
          { name: "Nina", email: "nina@test.no", subject: "Hei", message: "Et spørsmål." },
          { headers: { "CF-Connecting-IP": ip } },
        );
        expect([201, 429]).toContain(await judge(contact));
      }),
      RUNS,
    );
    const { results } = await env.DB.prepare("SELECT reporter_network FROM reports WHERE target_id = ?1")
      .bind(listing.id)
      .all<{ reporter_network: string }>();
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => /^[0-9a-f]{32}$/.test(r.reporter_network))).toBe(true);
  });
});

describe("analytics payloads", () => {
  const ENDPOINTS = ["/api/analytics/sessions", "/api/analytics/events", "/api/analytics/listing-views", "/api/analytics/searches"];
  const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      text,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(text, tie("value"), { maxKeys: 5 }),
    ),
  })).value;
  const field = fc.constantFrom(
    "sessionId",
    "events",
    "eventType",
    "metadata",
    "viewId",
    "listingId",
    "query",
    "filters",
    "resultCount",
    "userAgent",
    "deviceType",
    "scrollDepthPercent",
    "viewDurationMs",
    "__proto__",
    "constructor",
  );

  it("any JSON body: 202 or a Norwegian 400, never a 5xx, and nothing written to D1 or R2", async () => {
    let n = 0;
    const before = await storedState();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), fc.oneof(json, fc.dictionary(field, json, { maxKeys: 8 })), async (path, body) => {
        n += 1;
        const res = await new Client().post(path, body, { headers: { "CF-Connecting-IP": `10.61.0.${n % 250}` } });
        expect([202, 400]).toContain(await judge(res));
      }),
      RUNS,
    );
    // Accepted events go to the queue; none of these bodies is valid, so nothing was accepted either.
    expect(stateChanges(before, await storedState())).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------

describe("held money (decision 105)", () => {
  // A real held order, then any body on the buyer's "Meld fra om et problem" and a moderator's
  // decision: 200 or a Norwegian 4xx, never a 5xx; a refusal changes nothing, and whatever was
  // accepted moved the money at most once (the sandbox's own record).
  const reasons = fc.oneof(fc.constantFrom("not_received", "not_as_described", "damaged", "other"), text, fc.integer());
  // Photos: anything where the ids go (decision 108); no id names an upload of this buyer, so a
  // report that names any is refused.
  const photos = fc.oneof(
    fc.array(fc.oneof(fc.uuid(), text, fc.integer(), fc.constant(null)), { maxLength: 6 }),
    text,
    fc.constant(null),
    fc.constant({}),
  );
  const problemBody = fc.oneof(
    fc.record({ reason: reasons, text: fc.oneof(text, fc.integer(), fc.constant(null)), photos }, { requiredKeys: [] }),
    fc.constantFrom(null, [], "x", 5),
  );
  const amount = fc.oneof(
    fc.integer({ min: -10, max: 40_000 }),
    fc.double(),
    text,
    fc.constant(null),
    fc.constant(30_000),
    fc.constant(Number.POSITIVE_INFINITY),
  );
  const decisionBody = fc.oneof(
    fc.record(
      { action: fc.oneof(fc.constantFrom("refund", "partial_refund", "release_by_moderator", "release", ""), text), refund_amount: amount },
      { requiredKeys: [] },
    ),
    fc.constantFrom(null, [], "refund", 1),
  );

  it("any problem report and any decision: 200 or a Norwegian 4xx, a refusal changes nothing, money moved at most once", async () => {
    const order = await paidOrder("card");
    const mod = await signedInClient((await createUser({ role: "moderator" })).id);
    await fc.assert(
      fc.asyncProperty(problemBody, async (body) => {
        const before = await storedState();
        const res = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/problem`, body);
        expect([200, 400, 409]).toContain(await judge(res, before));
      }),
      RUNS,
    );
    await order.buyerClient.post(`/api/payments/orders/${order.orderId}/problem`, { reason: "other", text: "Leken kom aldri fram." });
    await fc.assert(
      fc.asyncProperty(decisionBody, async (body) => {
        const before = await storedState();
        const res = await mod.post(`/api/moderation/payment-cases/${order.orderId}/decision`, body);
        expect([200, 400, 409]).toContain(await judge(res, before));
      }),
      RUNS,
    );
    const moved = await moneyFor(order);
    expect(moved.transfers.length).toBeLessThanOrEqual(1);
    expect(moved.refunds.length).toBeLessThanOrEqual(1);
  });
});

// ------------------------------------------------------------------------------------------------

describe("webhook forgery", () => {
  // The fixed cases (another secret, a tampered body, a stale timestamp, replays) are in
  // payments-stripe-webhooks and payments-vipps-webhooks; here any header and body at all.
  const header = fc.oneof(
    text,
    fc.tuple(fc.integer(), text, text).map(([t, v1, v0]) => `t=${t},v1=${v1},v0=${v0}`),
  );

  it("any Stripe-Signature and body: a Norwegian 4xx, nothing stored", async () => {
    const before = await storedState();
    await fc.assert(
      fc.asyncProperty(
        fc.option(header),
        fc.oneof(text, fc.constant(JSON.stringify({ id: "evt_1", type: "checkout.session.completed", data: { object: { id: "cs_1" } } }))),
        async (signature, body) => {
          const headers = new Headers({ "Content-Type": "application/json" });
          if (signature !== null) {
            try {
              headers.set("Stripe-Signature", signature);
            } catch {
              // a value no HTTP client can send: the header stays away, which is a case of its own
            }
          }
          const res = await new Client().request("/api/payments/webhooks/stripe", { method: "POST", body, headers });
          expect(await judge(res)).toBeGreaterThanOrEqual(400);
        },
      ),
      RUNS,
    );
    expect(stateChanges(before, await storedState())).toEqual([]);
  });

  it("any Vipps authentication headers and body: a Norwegian 4xx, nothing stored", async () => {
    const before = await storedState();
    const names = fc.constantFrom("Authorization", "x-ms-date", "x-ms-content-sha256", "Merchant-Serial-Number", "x-ms-signature");
    await fc.assert(
      fc.asyncProperty(fc.dictionary(names, text, { maxKeys: 5 }), text, async (extra, body) => {
        const headers = new Headers({ "Content-Type": "application/json" });
        for (const [k, v] of Object.entries(extra)) {
          try {
            headers.set(k, v);
          } catch {
            // a value no HTTP client can send
          }
        }
        const res = await new Client().request("/api/payments/webhooks/vipps", { method: "POST", body, headers });
        expect(await judge(res)).toBeGreaterThanOrEqual(400);
      }),
      RUNS,
    );
    expect(stateChanges(before, await storedState())).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------

describe("device cookie tampering (decision 084)", () => {
  it("any change to a valid device cookie makes it an unknown device: refused while the account's limit is used up, never a 5xx", async () => {
    const user = await createUser({ password: "hemmelig123" });
    const other = await createUser();
    const client = new Client();
    expect((await client.post("/api/auth/signin", { email: user.email, password: "hemmelig123" })).status).toBe(200);
    const cookie = client.cookies.get("lb_device")!;
    const [userId, nonce, mac] = cookie.split(".");
    // Strangers have used up the account's allowance for unknown devices.
    await countAttempts(RATE_RULES.signinAccount, user.email);
    const mutation = fc.oneof(
      // One character replaced (the last one of the signature too: base64's unused bits).
      fc
        .tuple(fc.nat(cookie.length - 1), fc.constantFrom(..."ABCDEFabc019-_.=+/ "))
        .map(([i, c]) => cookie.slice(0, i) + c + cookie.slice(i + 1)),
      // Parts traded, dropped, repeated or moved to another account.
      fc.constantFrom(
        `${other.id}.${nonce}.${mac}`,
        `${userId}.${mac}.${nonce}`,
        `${userId}.${nonce}`,
        `${userId}.${nonce}.${mac}.${mac}`,
        `${userId}.${nonce}.${mac}=`,
        `${userId}..${mac}`,
        cookie.repeat(2),
        "",
      ),
      // Anything at all.
      text,
    );
    // The same signature spelled another way: the last character's unused low bits flipped.
    const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const respelled = `${userId}.${nonce}.${mac.slice(0, -1)}${ALPHABET[ALPHABET.indexOf(mac.at(-1)!) ^ 1]}`;
    await fc.assert(
      fc.asyncProperty(mutation, async (forged) => {
        fc.pre(forged !== cookie);
        const attacker = new Client();
        attacker.cookies.set("lb_device", encodeURIComponent(forged));
        const res = await attacker.post("/api/auth/signin", { email: user.email, password: "hemmelig123" });
        expect(await judge(res)).toBe(429);
      }),
      { ...RUNS, examples: [[respelled]] },
    );
  });
});

// ------------------------------------------------------------------------------------------------

describe("ids in the path", () => {
  // Every id the app makes is a UUID (worker/lib/uuid.ts); lookups answer any other string as an
  // unknown id without asking D1. Which message a refusal carries is the route's own (they differ).
  const MALFORMED = [
    "ikke-en-id",
    "' OR 1=1 --",
    "x".repeat(300),
    "0b7f6a9e3c1d4e2f8a5b9c0d1e2f3a4b",
    "0b7f6a9e-3c1d-4e2f-8a5b-9c0d1e2f3a4",
    "%00",
  ];
  const UNKNOWN = "0b7f6a9e-3c1d-4e2f-8a5b-9c0d1e2f3a4b";

  /** Every API route with an id in its path, the other parameters filled with values they accept. */
  function idRoutes(): { key: string; method: string; path: (id: string) => string }[] {
    const seen = new Set<string>();
    const out: { key: string; method: string; path: (id: string) => string }[] = [];
    for (const r of app.routes) {
      const key = `${r.method} ${r.path}`;
      if (r.method === "ALL" || !r.path.startsWith("/api/") || r.path.includes(":key{") || seen.has(key)) continue;
      const fixed = r.path
        .replace(/:type/, "listing")
        .replace(/:kind/, "sale")
        .replace(/:direction/, "sent");
      if (!/:[A-Za-z]+/.test(fixed)) continue;
      seen.add(key);
      out.push({ key, method: r.method, path: (id) => fixed.replace(/:[A-Za-z]+/g, encodeURIComponent(id)) });
    }
    return out;
  }

  it("a malformed id is answered exactly as an unknown one on every route: same status, same message, never a 5xx", async () => {
    const client = await signedInClient((await createUser({ role: "admin" })).id);
    const routes = idRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const answer = async (method: string, path: string) => {
      const res = await client.request(path, { method, json: method === "GET" ? undefined : {} });
      const status = await judge(res.clone());
      return `${status} ${await res.text()}`;
    };
    const differ: string[] = [];
    for (const route of routes) {
      const unknown = await answer(route.method, route.path(UNKNOWN));
      for (const id of MALFORMED) {
        const got = await answer(route.method, route.path(id));
        if (got !== unknown) differ.push(`${route.key} ${JSON.stringify(id.slice(0, 40))}: ${got} (unknown id: ${unknown})`);
      }
    }
    expect(differ).toEqual([]);
  });
});
