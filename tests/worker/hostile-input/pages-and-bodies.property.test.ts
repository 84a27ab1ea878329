// Hostile input through the Worker's real fetch (./rules.ts; docs/security.md; docs/decisions/061):
// the listing page's meta tags and JSON-LD whatever a listing says, JSON bodies over the limit on
// every route, and what a chat socket is sent (forged session headers, oversized frames). Every answer
// holds the suite's three rules: no 5xx, a refusal is a 4xx with a Norwegian message, and a refusal
// changes nothing stored.
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_CLIENT_FRAME_BYTES, SOCKET_CLOSE } from "../../../domain/chat";
import { createConversation, createListing, createUser, signedInClient } from "../../factories";
import { Client, isNorwegianMessage } from "../support/http";
import { LiveSocket, mirrored, openChat } from "../support/live";
import { stateChanges, storedState } from "../support/state";
import { judge, mutatingRoutes, text } from "./rules";

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

// ------------------------------------------------------------------------------------------------

describe("oversized bodies and WebSocket frames", () => {
  it("a JSON body over the limit on every JSON route: 413 with a Norwegian message, nothing changed", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await signedInClient(admin.id);
    const big = JSON.stringify({ padding: "x".repeat(70 * 1024) });
    // Photo uploads (listings, problem reports) take raw bytes with their own 5 MB limit; the
    // provider and carrier webhooks have their own limits and answer signatures first.
    const routes = mutatingRoutes().filter(
      (r) =>
        !r.path.startsWith("/api/images") &&
        !r.path.startsWith("/api/payments/webhooks") &&
        !r.path.startsWith("/api/shipping/webhooks") &&
        !r.path.endsWith("/photos"),
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
