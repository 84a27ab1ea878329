// Conversations over HTTP (docs/product.md "Messages and chat", "States", "Validation", "Who may do what", "Server calls"; docs/security.md "How it is tested"): starting one
// from a listing, the inbox, the header, messages, read marking, unread count, the notification
// test endpoint, and what account deletion and export do to conversations.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  CHAT_REFUSALS,
  DELETED_USER_NAME,
  SYSTEM_USER_ID,
  type ConversationDetail,
  type ConversationSummary,
  type MessagePage,
} from "../../../domain/chat";
import { RATE_RULES } from "../../../domain/rate-limits";
import { app } from "../../../worker/app";
import { addMessages, createConversation, createListing, createUser, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import { openChat } from "../support/live";

async function snapshot(conversationId: string) {
  const conv = await env.DB.prepare("SELECT last_seq, updated_at FROM conversations WHERE id = ?1").bind(conversationId).first();
  const { results } = await env.DB.prepare("SELECT id, seq, content, read_at FROM messages WHERE conversation_id = ?1 ORDER BY seq")
    .bind(conversationId)
    .all();
  return { conv, messages: results };
}

describe("starting a conversation from a listing", () => {
  it("creates it once and reopens the same one afterwards", async () => {
    const listing = await createListing();
    const buyer = await createUser();
    const client = await signedInClient(buyer.id);
    const first = await client.post("/api/conversations", { listing_id: listing.id });
    expect(first.status).toBe(201);
    const { id } = (await first.json()) as { id: string };
    const again = await client.post("/api/conversations", { listing_id: listing.id });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ id });
    const row = await env.DB.prepare("SELECT listing_id, buyer_id, seller_id, last_seq FROM conversations WHERE id = ?1").bind(id).first();
    expect(row).toEqual({ listing_id: listing.id, buyer_id: buyer.id, seller_id: listing.userId, last_seq: 0 });
  });

  it("two starts at the same moment give one conversation", async () => {
    const listing = await createListing();
    const buyer = await createUser();
    const [c1, c2] = await Promise.all([signedInClient(buyer.id), signedInClient(buyer.id)]);
    const responses = await Promise.all([c1, c2, c1, c2].map((c) => c.post("/api/conversations", { listing_id: listing.id })));
    const ids = await Promise.all(responses.map(async (r) => ((await r.json()) as { id: string }).id));
    expect(new Set(ids).size).toBe(1);
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM conversations WHERE listing_id = ?1")
      .bind(listing.id)
      .first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it("refuses the owner ('Du kan ikke sende melding til deg selv'), a visitor, and listings the buyer cannot see", async () => {
    const owner = await createUser();
    const listing = await createListing({ userId: owner.id });
    const hidden = await createListing({ isHidden: true });
    const sold = await createListing({ status: "sold" });
    const ownerClient = await signedInClient(owner.id);
    const own = await ownerClient.post("/api/conversations", { listing_id: listing.id });
    expect(own.status).toBe(403);
    expect((await errorOf(own)).message).toBe("Du kan ikke sende melding til deg selv");
    expect((await new Client().post("/api/conversations", { listing_id: listing.id })).status).toBe(401);
    const buyer = await signedInClient((await createUser()).id);
    expect((await buyer.post("/api/conversations", { listing_id: hidden.id })).status).toBe(404);
    expect((await buyer.post("/api/conversations", { listing_id: sold.id })).status).toBe(404);
    expect((await buyer.post("/api/conversations", { listing_id: crypto.randomUUID() })).status).toBe(404);
    expect((await buyer.post("/api/conversations", { listing_id: "ikke-en-id" })).status).toBe(400);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM conversations WHERE listing_id IN (?1, ?2, ?3)")
      .bind(listing.id, hidden.id, sold.id)
      .first<{ n: number }>();
    expect(n?.n).toBe(0);
  });

  it("a reserved listing can still be asked about", async () => {
    const listing = await createListing({ status: "reserved" });
    const buyer = await signedInClient((await createUser()).id);
    expect((await buyer.post("/api/conversations", { listing_id: listing.id })).status).toBe(201);
  });
});

describe("permission matrix: only the two participants", () => {
  type Who = "visitor" | "third" | "moderator" | "buyer" | "seller";
  const CASES: { name: string; call: (c: Client, id: string) => Promise<Response>; ok: number }[] = [
    { name: "GET /api/conversations/:id", call: (c, id) => c.get(`/api/conversations/${id}`), ok: 200 },
    { name: "GET /api/conversations/:id/messages", call: (c, id) => c.get(`/api/conversations/${id}/messages`), ok: 200 },
    {
      name: "POST /api/conversations/:id/messages",
      call: (c, id) => c.post(`/api/conversations/${id}/messages`, { id: crypto.randomUUID(), content: "Hei" }),
      ok: 201,
    },
    { name: "POST /api/conversations/:id/read", call: (c, id) => c.post(`/api/conversations/${id}/read`, {}), ok: 200 },
  ];
  const expected: Record<Who, number | "ok"> = { visitor: 401, third: 404, moderator: 404, buyer: "ok", seller: "ok" };

  describe.each(CASES)("$name", ({ call, ok }) => {
    it.each(Object.keys(expected) as Who[])("as %s", async (who) => {
      const conv = await createConversation();
      await addMessages(conv.id, [
        { from: conv.buyer.id, content: "Kjøpers melding" },
        { from: conv.seller.id, content: "Selgers melding" },
      ]);
      const before = await snapshot(conv.id);
      const client =
        who === "visitor"
          ? new Client()
          : who === "buyer"
            ? await signedInClient(conv.buyer.id)
            : who === "seller"
              ? await signedInClient(conv.seller.id)
              : await signedInClient((await createUser({ role: who === "moderator" ? "moderator" : "user" })).id);
      const res = await call(client, conv.id);
      const want = expected[who];
      expect(res.status).toBe(want === "ok" ? ok : want);
      if (want !== "ok") {
        expect(await res.text()).not.toMatch(/Kjøpers melding|Selgers melding/);
        expect(await snapshot(conv.id)).toEqual(before);
      }
    });
  });
});

describe("sending to a conversation the sender is not in: the room refuses, as it does on the socket", () => {
  it("someone else's conversation, an id that names none and a malformed id are 404 with the same words, and nothing is stored", async () => {
    const conv = await createConversation();
    const before = await snapshot(conv.id);
    const third = await signedInClient((await createUser()).id);
    for (const id of [conv.id, crypto.randomUUID(), "ikke-en-samtale"]) {
      const res = await third.post(`/api/conversations/${id}/messages`, { id: crypto.randomUUID(), content: "Hei" });
      expect(res.status, id).toBe(404);
      expect((await errorOf(res)).message, id).toBe(CHAT_REFUSALS.conversationNotFound);
    }
    expect(await snapshot(conv.id)).toEqual(before);
    const page = await (await signedInClient(conv.buyer.id)).get(`/api/conversations/${conv.id}/messages`);
    expect(((await page.json()) as MessagePage).messages).toEqual([]);
  });
});

describe("reading", () => {
  it("the header names the listing, its price and the other party for each side", async () => {
    const conv = await createConversation({
      buyer: { displayName: "Ola" },
      seller: { displayName: "Kari" },
      listing: { title: "Brio togbane", price: 350 },
    });
    const asBuyer = (await (await (await signedInClient(conv.buyer.id)).get(`/api/conversations/${conv.id}`)).json()) as ConversationDetail;
    expect(asBuyer.listing).toMatchObject({ id: conv.listing.id, title: "Brio togbane", price: 350, is_free: false });
    expect(asBuyer.other_user).toEqual({ id: conv.seller.id, display_name: "Kari", deleted: false });
    const asSeller = (await (
      await (await signedInClient(conv.seller.id)).get(`/api/conversations/${conv.id}`)
    ).json()) as ConversationDetail;
    expect(asSeller.other_user.display_name).toBe("Ola");
  });

  it("a party without a name is 'Anonym'", async () => {
    const conv = await createConversation({ seller: { displayName: null } });
    const body = (await (await (await signedInClient(conv.buyer.id)).get(`/api/conversations/${conv.id}`)).json()) as ConversationDetail;
    expect(body.other_user.display_name).toBe("Anonym");
  });

  it("messages come newest page first, ascending within the page, with older pages on request", async () => {
    const conv = await createConversation();
    await addMessages(
      conv.id,
      Array.from({ length: 105 }, (_, i) => ({ from: i % 2 ? conv.buyer.id : conv.seller.id, content: `M${i + 1}` })),
    );
    const client = await signedInClient(conv.buyer.id);
    const page = (await (await client.get(`/api/conversations/${conv.id}/messages`)).json()) as MessagePage;
    expect(page.has_more).toBe(true);
    expect(page.messages.map((m) => m.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 6));
    const older = (await (await client.get(`/api/conversations/${conv.id}/messages?before=6`)).json()) as MessagePage;
    expect(older).toMatchObject({ has_more: false });
    expect(older.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it("the inbox: newest activity first, last message, unread count from the other party, no empty conversations", async () => {
    const me = await createUser();
    const older = await createConversation();
    // Re-point both fixtures at "me" as buyer and seller respectively.
    await env.DB.prepare("UPDATE conversations SET buyer_id = ?1 WHERE id = ?2").bind(me.id, older.id).run();
    const newer = await createConversation();
    await env.DB.prepare("UPDATE conversations SET seller_id = ?1 WHERE id = ?2").bind(me.id, newer.id).run();
    await env.DB.prepare("UPDATE listings SET user_id = ?1 WHERE id = ?2").bind(me.id, newer.listing.id).run();
    const empty = await createConversation();
    await env.DB.prepare("UPDATE conversations SET buyer_id = ?1 WHERE id = ?2").bind(me.id, empty.id).run();

    await addMessages(older.id, [
      { from: older.seller.id, content: "Gammel" },
      { from: me.id, content: "Mitt svar" },
    ]);
    await addMessages(newer.id, [
      { from: newer.buyer.id, content: "Ny 1" },
      { from: newer.buyer.id, content: "Ny 2" },
      { from: me.id, content: "Svar" },
      { from: newer.buyer.id, content: "Ny 3" },
    ]);

    const list = (await (await (await signedInClient(me.id)).get("/api/conversations")).json()) as ConversationSummary[];
    expect(list.map((c) => c.id)).toEqual([newer.id, older.id]);
    expect(list[0]).toMatchObject({ unread_count: 3, last_message: { content: "Ny 3", sender_id: newer.buyer.id } });
    expect(list[0].other_user.id).toBe(newer.buyer.id);
    expect(list[1]).toMatchObject({ unread_count: 1, last_message: { content: "Mitt svar", sender_id: me.id } });
    expect(list[1].other_user.id).toBe(older.seller.id);

    const unread = await (await signedInClient(me.id)).get("/api/conversations/unread-count");
    expect(await unread.json()).toEqual({ count: 4 });
  });

  it("read marking over HTTP marks only messages not sent by the reader", async () => {
    const conv = await createConversation();
    await addMessages(conv.id, [
      { from: conv.buyer.id, content: "K1" },
      { from: conv.seller.id, content: "S1" },
      { from: conv.buyer.id, content: "K2" },
    ]);
    const seller = await signedInClient(conv.seller.id);
    const res = await seller.post(`/api/conversations/${conv.id}/read`, {});
    expect(await res.json()).toEqual({ count: 2, up_to_seq: 3 });
    const { messages } = await snapshot(conv.id);
    expect(messages.map((m) => [m.content, m.read_at !== null])).toEqual([
      ["K1", true],
      ["S1", false],
      ["K2", true],
    ]);
    expect(await (await seller.get("/api/conversations/unread-count")).json()).toEqual({ count: 0 });
    expect(await (await (await signedInClient(conv.buyer.id)).get("/api/conversations/unread-count")).json()).toEqual({ count: 1 });
  });

  it("a deleted listing's photos are not offered (the chat shows the stock photo)", async () => {
    const conv = await createConversation({ listing: { images: ["x/1.jpg"], status: "deleted" } });
    const body = (await (await (await signedInClient(conv.buyer.id)).get(`/api/conversations/${conv.id}`)).json()) as ConversationDetail;
    expect(body.listing.images).toEqual([]);
  });
});

describe("account deletion and export", () => {
  // Both ask for the password again (docs/decisions/019-password-confirmation.md).
  const PASSWORD = "hemmelig-passord-1";

  it("the other party sees 'Slettet bruker', keeps the history, and can no longer write", async () => {
    const conv = await createConversation({ seller: { displayName: "Kari", password: PASSWORD } });
    await addMessages(conv.id, [{ from: conv.seller.id, content: "Hei fra Kari" }]);
    const seller = await signedInClient(conv.seller.id);
    expect((await seller.request("/api/me", { method: "DELETE", json: { password: PASSWORD } })).status).toBe(204);

    const buyer = await signedInClient(conv.buyer.id);
    const detail = (await (await buyer.get(`/api/conversations/${conv.id}`)).json()) as ConversationDetail;
    expect(detail.other_user).toEqual({ id: conv.seller.id, display_name: DELETED_USER_NAME, deleted: true });
    const list = (await (await buyer.get("/api/conversations")).json()) as ConversationSummary[];
    expect(list.find((c) => c.id === conv.id)?.other_user.display_name).toBe(DELETED_USER_NAME);
    const page = (await (await buyer.get(`/api/conversations/${conv.id}/messages`)).json()) as MessagePage;
    expect(page.messages.map((m) => m.content)).toEqual(["Hei fra Kari"]);
    const send = await buyer.post(`/api/conversations/${conv.id}/messages`, { id: crypto.randomUUID(), content: "Hallo?" });
    expect(send.status).toBe(409);
    expect((await errorOf(send)).message).toBe("Du kan ikke sende meldinger til en slettet bruker.");
  });

  it("the export lists the user's conversations and messages with their sequence", async () => {
    const conv = await createConversation({ buyer: { password: PASSWORD } });
    await addMessages(conv.id, [
      { from: conv.buyer.id, content: "Min melding" },
      { from: conv.seller.id, content: "Svar til meg" },
    ]);
    const exported = await (await signedInClient(conv.buyer.id)).post("/api/me/export", { password: PASSWORD });
    expect(exported.status).toBe(200);
    const data = (await exported.json()) as {
      conversations: { id: string }[];
      messages: { content: string; seq: number; sent_by_me: number }[];
    };
    expect(data.conversations.map((c) => c.id)).toContain(conv.id);
    expect(data.messages.map((m) => [m.seq, m.content, m.sent_by_me])).toEqual([
      [1, "Min melding", 1],
      [2, "Svar til meg", 0],
    ]);
  });
});

describe("notification test (local mode only)", () => {
  it("writes a message from the system user into the user's latest conversation", async () => {
    const conv = await createConversation();
    const buyer = await signedInClient(conv.buyer.id);
    const res = await buyer.post("/api/test-notifications", { content: "Test melding for notifikasjoner" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { conversation_id: string; message: { sender_id: string; seq: number } };
    expect(body).toMatchObject({ conversation_id: conv.id, message: { sender_id: SYSTEM_USER_ID, seq: 1 } });
    // Unread for the user who pressed the button only.
    expect(await (await buyer.get("/api/conversations/unread-count")).json()).toEqual({ count: 1 });
    expect(await (await (await signedInClient(conv.seller.id)).get("/api/conversations/unread-count")).json()).toEqual({ count: 0 });
  });

  it("reaches only the user who pressed it: the other participant's badge, inbox, messages, live room and read marks never see it", async () => {
    const conv = await createConversation();
    await addMessages(conv.id, [{ from: conv.seller.id, content: "Hei, den er ledig", readAt: new Date().toISOString() }]);
    const buyer = await signedInClient(conv.buyer.id);
    const seller = await signedInClient(conv.seller.id);
    // The inbox as its owner reads it; only the sequence counter may move (a gap they never see).
    const sellerInbox = async () =>
      ((await (await seller.get("/api/conversations")).json()) as (ConversationSummary & { last_seq?: number })[]).map(
        ({ last_seq: _, ...rest }) => rest,
      );
    const sellerInboxBefore = await sellerInbox();
    const sellerLive = await openChat(seller, conv.id);
    const buyerLive = await openChat(buyer, conv.id);
    const res = await buyer.post("/api/test-notifications", { content: "Bare til kjøperen" });
    expect(res.status).toBe(201);
    // The presser's open chat gets it live (and by then the other socket would have had it too).
    await buyerLive.waitFor((f) => f.type === "message");

    // The presser: badge, inbox preview and the message page have it.
    expect(await (await buyer.get("/api/conversations/unread-count")).json()).toEqual({ count: 1 });
    const buyerInbox = (await (await buyer.get("/api/conversations")).json()) as ConversationSummary[];
    expect(buyerInbox.find((c) => c.id === conv.id)).toMatchObject({
      unread_count: 1,
      last_message: { content: "Bare til kjøperen", sender_id: SYSTEM_USER_ID },
    });
    const buyerPage = (await (await buyer.get(`/api/conversations/${conv.id}/messages`)).json()) as MessagePage;
    expect(buyerPage.messages.map((m) => m.content)).toEqual(["Hei, den er ledig", "Bare til kjøperen"]);

    // The other participant: nothing changed, not even the inbox order or preview.
    expect(await (await seller.get("/api/conversations/unread-count")).json()).toEqual({ count: 0 });
    expect(await sellerInbox()).toEqual(sellerInboxBefore);
    const sellerPage = (await (await seller.get(`/api/conversations/${conv.id}/messages`)).json()) as MessagePage;
    expect(sellerPage.messages.map((m) => m.content)).toEqual(["Hei, den er ledig"]);
    // Their open chat got no frame, and a fresh catch-up does not bring it either.
    const late = await openChat(seller, conv.id);
    expect(late.ofType("sync").flatMap((f) => f.messages.map((m) => m.content))).toEqual(["Hei, den er ledig"]);
    expect(sellerLive.ofType("message")).toEqual([]);
    for (const socket of [sellerLive, buyerLive, late]) socket.close();
    // Marking the conversation read on their side does not read it for the presser.
    expect((await seller.post(`/api/conversations/${conv.id}/read`, {})).status).toBe(200);
    expect(await (await buyer.get("/api/conversations/unread-count")).json()).toEqual({ count: 1 });
  });

  it("in a conversation with no messages yet, the other participant's inbox does not list it", async () => {
    const conv = await createConversation();
    const buyer = await signedInClient(conv.buyer.id);
    expect((await buyer.post("/api/test-notifications", { content: "Test melding for notifikasjoner" })).status).toBe(201);
    const sellerInbox = (await (await (await signedInClient(conv.seller.id)).get("/api/conversations")).json()) as ConversationSummary[];
    expect(sellerInbox.map((c) => c.id)).not.toContain(conv.id);
    const buyerInbox = (await (await buyer.get("/api/conversations")).json()) as ConversationSummary[];
    expect(buyerInbox.map((c) => c.id)).toContain(conv.id);
  });

  it("is rate limited per user: the press after the limit answers 429 saying why and how long to wait, and writes nothing", async () => {
    const conv = await createConversation();
    const buyer = await signedInClient(conv.buyer.id);
    for (let i = 0; i < RATE_RULES.testNotification.limit; i++) {
      expect((await buyer.post("/api/test-notifications", { content: `Test ${i}` })).status).toBe(201);
    }
    const refused = await buyer.post("/api/test-notifications", { content: "En for mye" });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("Retry-After"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect((await errorOf(refused)).message).toBe(
      `Du kan lage høyst 10 test-meldinger i minuttet. Vent ${wait === 1 ? "1 sekund" : `${wait} sekunder`} og prøv igjen.`,
    );
    expect((await snapshot(conv.id)).messages).toHaveLength(RATE_RULES.testNotification.limit);
    // Per user: the other participant may still press.
    expect((await (await signedInClient(conv.seller.id)).post("/api/test-notifications", { content: "Hei" })).status).toBe(201);
  });

  it("answers 'Ingen samtaler funnet' without a conversation and 401 for a visitor", async () => {
    const lonely = await signedInClient((await createUser()).id);
    const res = await lonely.post("/api/test-notifications", { content: "Hei" });
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toBe("Ingen samtaler funnet");
    expect((await new Client().post("/api/test-notifications", { content: "Hei" })).status).toBe(401);
  });

  it("does not exist in production: endpoint and page are 404 and nothing is written", async () => {
    const conv = await createConversation();
    const buyer = await signedInClient(conv.buyer.id);
    const production = { ...env, APP_ENV: "production", JWT_SECRET: "x".repeat(40), APP_ORIGIN: "https://lekebytte.example" } as typeof env;
    const call = (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set("Cookie", [...buyer.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
      headers.set("Origin", "http://localhost");
      return app.fetch(new Request(`http://localhost${path}`, { ...init, headers }), production, {
        waitUntil() {},
        passThroughOnException() {},
        props: {},
      } as unknown as ExecutionContext);
    };
    expect((await call("/api/test-notifications")).status).toBe(404);
    const post = await call("/api/test-notifications", {
      method: "POST",
      body: JSON.stringify({ content: "Hei" }),
      headers: { "Content-Type": "application/json" },
    });
    expect(post.status).toBe(404);
    expect((await call("/test-notifications")).status).toBe(404);
    expect((await snapshot(conv.id)).messages).toEqual([]);
    // ...while the local app serves the page.
    expect((await exports.default.fetch(new Request("http://localhost/test-notifications"))).status).toBe(200);
  });
});
