// The chat socket end to end: real WebSocket upgrades through exports.default.fetch (session,
// Origin, participation checked by the Worker), the ConversationRoom, its storage and its D1 mirror
// (docs/product.md "Messages and chat", "States", "Validation", "Who may do what"; docs/security.md
// "Nothing lost"; docs/decisions/028-live-chat.md, 107-chat-acknowledged-by-its-room.md).
import { env } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MESSAGE_MAX_LENGTH, type ChatMessage, type ConversationSummary, type RoomFrame } from "../../../domain/chat";
import { MESSAGE_EMPTY_TEXT, MESSAGE_TOO_LONG_TEXT } from "../../../domain/schemas/chat";
import { RATE_RULES } from "../../../domain/rate-limits";
import { addMessages, createConversation, createUser, signedInClient } from "../../factories";
import { allowConsoleError } from "../support/console-guard";
import { Client } from "../support/http";
import { paidOrder } from "../support/orders";
import { mirrored, openChat, upgrade, type LiveSocket } from "../support/live";

type Ack = Extract<RoomFrame, { type: "ack" }>;
type Msg = Extract<RoomFrame, { type: "message" }>;
type Err = Extract<RoomFrame, { type: "error" }>;

async function setup() {
  const conv = await createConversation();
  const buyer = await signedInClient(conv.buyer.id);
  const seller = await signedInClient(conv.seller.id);
  return { conv, buyer, seller };
}

/** D1's copy once the room's mirror has run (its alarm runs it moments after each write). */
async function rows(conversationId: string) {
  await mirrored(conversationId);
  const { results } = await env.DB.prepare(
    "SELECT id, sender_id, seq, content, read_at FROM messages WHERE conversation_id = ?1 ORDER BY seq",
  )
    .bind(conversationId)
    .all<Pick<ChatMessage, "id" | "sender_id" | "seq" | "content" | "read_at">>();
  return results;
}

function sendOn(socket: LiveSocket, content: string, id: string = crypto.randomUUID()) {
  socket.send({ type: "send", id, content });
  return id;
}

const ackFor = (socket: LiveSocket, id: string) => socket.waitFor<Ack>((f) => f.type === "ack" && f.id === id);
const errorFor = (socket: LiveSocket, id: string) => socket.waitFor<Err>((f) => f.type === "error" && f.id === id);
const messageFor = (socket: LiveSocket, id: string) => socket.waitFor<Msg>((f) => f.type === "message" && f.message.id === id);

type InboxTabFrame = { type: string; count?: number };

/** The conversation's row in `client`'s inbox (GET /api/conversations), read now. */
async function inboxRow(client: Client, conversationId: string): Promise<ConversationSummary> {
  const res = await client.get("/api/conversations");
  expect(res.status).toBe(200);
  const row = ((await res.json()) as ConversationSummary[]).find((c) => c.id === conversationId);
  expect(row).toBeDefined();
  return row!;
}

describe("who may open a conversation's socket", () => {
  it.each([
    { who: "a visitor", status: 401, origin: "http://localhost" },
    { who: "a third user", status: 404, origin: "http://localhost" },
    { who: "a participant from a foreign Origin", status: 403, origin: "https://evil.example" },
    { who: "a participant without an Origin", status: 403, origin: null },
  ])("$who gets $status and not a byte of the conversation", async ({ who, status, origin }) => {
    const { conv, buyer } = await setup();
    await addMessages(conv.id, [{ from: conv.seller.id, content: "Hemmelig hentested: Storgata 5" }]);
    const client = who === "a visitor" ? new Client() : who === "a third user" ? await signedInClient((await createUser()).id) : buyer;
    const { res, socket } = await upgrade(client, `/api/conversations/${conv.id}/live`, { origin });
    expect(res.status).toBe(status);
    expect(socket).toBeNull();
    expect(await res.text()).not.toContain("Storgata");
  });

  it("an unknown conversation is 404 for a signed-in user", async () => {
    const { buyer } = await setup();
    const { res } = await upgrade(buyer, `/api/conversations/${crypto.randomUUID()}/live`);
    expect(res.status).toBe(404);
  });

  it("a plain GET (no upgrade) is refused", async () => {
    const { conv, buyer } = await setup();
    expect((await buyer.get(`/api/conversations/${conv.id}/live`)).status).toBe(400);
  });
});

describe("sending", () => {
  it("is stored in the room before the ack, then reaches the other participant and D1; content is trimmed", async () => {
    const { conv, buyer, seller } = await setup();
    const a = await openChat(buyer, conv.id);
    const b = await openChat(seller, conv.id);
    const id = sendOn(a, "  Hei! Er den ledig?  \n");
    const ack = await ackFor(a, id);
    // The history (served by the room) has it at the moment the ack is seen, mirrored or not.
    const page = (await (await seller.get(`/api/conversations/${conv.id}/messages`)).json()) as { messages: ChatMessage[] };
    expect(page.messages).toEqual([ack.message]);
    const stored = await rows(conv.id);
    expect(stored).toEqual([{ id, sender_id: conv.buyer.id, seq: 1, content: "Hei! Er den ledig?", read_at: null }]);
    expect(ack.message).toMatchObject({ id, seq: 1, content: "Hei! Er den ledig?" });
    expect((await messageFor(b, id)).message).toEqual(ack.message);
    const convRow = await env.DB.prepare("SELECT last_seq, updated_at FROM conversations WHERE id = ?1")
      .bind(conv.id)
      .first<{ last_seq: number; updated_at: string }>();
    expect(convRow).toEqual({ last_seq: 1, updated_at: ack.message.created_at });
    a.close();
    b.close();
  });

  it("a message whose D1 mirror fails is acknowledged from the room and reaches D1 once the mirror succeeds", async () => {
    const { conv, buyer, seller } = await setup();
    allowConsoleError("ConversationRoom mirror to D1 failed");
    // Fault injection: D1 refuses this one insert (a test-only trigger), as when D1 is unreachable.
    await env.DB.prepare(
      `CREATE TRIGGER IF NOT EXISTS test_fail_insert BEFORE INSERT ON messages WHEN NEW.content = 'feiler' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    ).run();
    let dropped = false;
    try {
      const a = await openChat(buyer, conv.id);
      const b = await openChat(seller, conv.id);
      const failing = sendOn(a, "feiler");
      await ackFor(a, failing);
      await messageFor(b, failing);
      await expect(mirrored(conv.id)).rejects.toThrow();
      const direct = await env.DB.prepare("SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?1")
        .bind(conv.id)
        .first<{ n: number }>();
      expect(direct!.n).toBe(0); // one batch: nothing of it reached D1, not even the conversation's seq
      await env.DB.prepare("DROP TRIGGER IF EXISTS test_fail_insert").run();
      dropped = true;
      const next = sendOn(a, "Andre melding");
      await ackFor(a, next);
      expect((await rows(conv.id)).map((r) => [r.seq, r.content])).toEqual([
        [1, "feiler"],
        [2, "Andre melding"],
      ]);
      a.close();
      b.close();
    } finally {
      if (!dropped) await env.DB.prepare("DROP TRIGGER IF EXISTS test_fail_insert").run();
    }
  });

  it("the same client id sent twice at once lands once, both tries get the same ack, the other side sees it once", async () => {
    const { conv, buyer, seller } = await setup();
    const a1 = await openChat(buyer, conv.id);
    const a2 = await openChat(buyer, conv.id); // the retry comes from a new socket after a reconnect
    const b = await openChat(seller, conv.id);
    const id = crypto.randomUUID();
    await Promise.all([a1.send({ type: "send", id, content: "Bare én gang" }), a2.send({ type: "send", id, content: "Bare én gang" })]);
    const [ack1, ack2] = await Promise.all([ackFor(a1, id), ackFor(a2, id)]);
    expect(ack1.message).toEqual(ack2.message);
    await messageFor(b, id);
    // A later message proves nothing else was on its way to the seller.
    const later = sendOn(a1, "Neste");
    await messageFor(b, later);
    expect(b.ofType("message").map((f) => f.message.id)).toEqual([id, later]);
    expect((await rows(conv.id)).map((r) => r.id)).toEqual([id, later]);
    [a1, a2, b].forEach((s) => s.close());
  });

  it("a retry over HTTP of a message sent on the socket returns the stored message", async () => {
    const { conv, buyer, seller } = await setup();
    const a = await openChat(buyer, conv.id);
    const id = sendOn(a, "Først på socket");
    const ack = await ackFor(a, id);
    const res = await buyer.post(`/api/conversations/${conv.id}/messages`, { id, content: "Først på socket" });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual(ack.message);
    expect(await rows(conv.id)).toHaveLength(1);
    // The other party's id cannot be used to read or overwrite someone else's message.
    const stolen = await seller.post(`/api/conversations/${conv.id}/messages`, { id, content: "Kapret" });
    expect(stolen.status).toBe(409);
    expect((await rows(conv.id)).map((r) => r.content)).toEqual(["Først på socket"]);
    a.close();
  });

  it("both participants sending at once get consecutive seqs, and each sees the other's in order", async () => {
    const { conv, buyer, seller } = await setup();
    const a = await openChat(buyer, conv.id);
    const b = await openChat(seller, conv.id);
    const fromA = Array.from({ length: 8 }, (_, i) => ({ socket: a, id: crypto.randomUUID(), content: `A${i}` }));
    const fromB = Array.from({ length: 8 }, (_, i) => ({ socket: b, id: crypto.randomUUID(), content: `B${i}` }));
    await Promise.all([...fromA, ...fromB].map(({ socket, id, content }) => socket.send({ type: "send", id, content })));
    await Promise.all([...fromA, ...fromB].map(({ socket, id }) => ackFor(socket, id)));
    const stored = await rows(conv.id);
    expect(stored.map((r) => r.seq)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    await messageFor(b, fromA[7].id);
    await messageFor(a, fromB[7].id);
    const seenByB = b.ofType("message").map((f) => f.message.seq);
    const seenByA = a.ofType("message").map((f) => f.message.seq);
    expect(seenByB).toEqual([...seenByB].sort((x, y) => x - y));
    expect(seenByA).toEqual([...seenByA].sort((x, y) => x - y));
    expect(b.ofType("message").map((f) => f.message.content)).toEqual(fromA.map((m) => m.content));
    a.close();
    b.close();
  });

  it.each([
    { name: "empty", content: "", ok: false },
    { name: "only whitespace", content: " \n\t ", ok: false },
    { name: "exactly the cap", content: "x".repeat(MESSAGE_MAX_LENGTH), ok: true },
    { name: "the cap counted in characters, not code units", content: "🧸".repeat(MESSAGE_MAX_LENGTH), ok: true },
    { name: "one over the cap", content: "x".repeat(MESSAGE_MAX_LENGTH + 1), ok: false },
    { name: "the cap after trimming", content: `  ${"x".repeat(MESSAGE_MAX_LENGTH)}  `, ok: true },
  ])("length: $name", async ({ content, ok }) => {
    const { conv, buyer } = await setup();
    const a = await openChat(buyer, conv.id);
    const id = sendOn(a, content);
    if (ok) {
      expect((await ackFor(a, id)).message.content).toBe(content.trim());
    } else {
      const err = await errorFor(a, id);
      expect(err.code).toBe("VALIDATION");
      expect(err.message).toBe(content.trim() ? MESSAGE_TOO_LONG_TEXT : MESSAGE_EMPTY_TEXT);
      expect(await rows(conv.id)).toEqual([]);
    }
    // The HTTP path applies the same rule.
    const res = await buyer.post(`/api/conversations/${conv.id}/messages`, { id: crypto.randomUUID(), content });
    expect(res.status).toBe(ok ? 201 : 400);
    a.close();
  });

  it("a sender over the rate limit is refused with a retry time and nothing is stored", async () => {
    const { conv, buyer, seller } = await setup();
    const a = await openChat(buyer, conv.id);
    const b = await openChat(seller, conv.id);
    // Use up the allowance of the sliding window (the room counts the sender's messages).
    const rule = RATE_RULES.messageSend;
    const allowed = Array.from({ length: rule.limit }, (_, i) => sendOn(a, `Melding ${i}`));
    await Promise.all(allowed.map((id) => ackFor(a, id)));
    const id = sendOn(a, "En for mye");
    const err = await errorFor(a, id);
    expect(err.code).toBe("RATE_LIMITED");
    expect(err.retry_after).toBeGreaterThan(0);
    const http = await buyer.post(`/api/conversations/${conv.id}/messages`, { id: crypto.randomUUID(), content: "Også for mye" });
    expect(http.status).toBe(429);
    expect(http.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await rows(conv.id)).toHaveLength(rule.limit);
    // The limit is per sender: the seller can still write.
    const other = sendOn(b, "Jeg kan fortsatt skrive");
    await ackFor(b, other);
    a.close();
    b.close();
  });

  it("an HTTP send is fanned out to the open sockets of both participants", async () => {
    const { conv, buyer, seller } = await setup();
    const a = await openChat(buyer, conv.id);
    const b = await openChat(seller, conv.id);
    const id = crypto.randomUUID();
    const res = await buyer.post(`/api/conversations/${conv.id}/messages`, { id, content: "Uten socket" });
    expect(res.status).toBe(201);
    await messageFor(b, id);
    await messageFor(a, id); // the sender's other tab
    a.close();
    b.close();
  });

  it("keeps working after the room hibernates: the user id survives in the attachment", async () => {
    const { conv, buyer, seller } = await setup();
    const a = await openChat(buyer, conv.id);
    const b = await openChat(seller, conv.id);
    await evictDurableObject(env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conv.id)), { webSockets: "hibernate" });
    const id = sendOn(b, "Etter dvalen");
    await ackFor(b, id);
    expect((await messageFor(a, id)).message.sender_id).toBe(conv.seller.id);
    a.close();
    b.close();
  });

  it("answers the heartbeat", async () => {
    const { conv, buyer } = await setup();
    const a = await openChat(buyer, conv.id);
    a.send("ping");
    await a.waitFor((f) => (f as { type: string }).type === "pong");
    a.close();
  });
});

describe("reconnecting", () => {
  it("gets exactly what it missed, in order, then live messages; nothing doubled", async () => {
    const { conv, buyer, seller } = await setup();
    const a = await openChat(buyer, conv.id);
    const b = await openChat(seller, conv.id);
    const first = sendOn(a, "Før brudd");
    await messageFor(b, first);
    const lastSeen = (await messageFor(b, first)).message.seq;
    b.close();
    const missed = ["Mens du var borte 1", "Mens du var borte 2", "Mens du var borte 3"];
    for (const content of missed) await ackFor(a, sendOn(a, content));

    const { socket } = await upgrade(seller, `/api/conversations/${conv.id}/live?after=${lastSeen}`);
    const b2 = socket!;
    const sync = await b2.waitFor<Extract<RoomFrame, { type: "sync" }>>((f) => f.type === "sync" && f.done);
    expect(sync.messages.map((m) => m.content)).toEqual(missed);
    expect(sync.messages.map((m) => m.seq)).toEqual([2, 3, 4]);
    expect(sync.last_seq).toBe(4);
    const live = sendOn(a, "Tilbake live");
    expect((await messageFor(b2, live)).message.seq).toBe(5);
    expect(b2.ofType("message").map((f) => f.message.id)).toEqual([live]);
    a.close();
    b2.close();
  });

  it("a message stored while the socket was still catching up arrives once", async () => {
    const { conv, buyer, seller } = await setup();
    await addMessages(
      conv.id,
      Array.from({ length: 30 }, (_, i) => ({ from: conv.buyer.id, content: `Gammel ${i}` })),
    );
    const a = await openChat(buyer, conv.id, 30);
    // Connect and send at the same moment: the new message is either in the catch-up or live, never both.
    const [{ socket }, id] = await Promise.all([
      upgrade(seller, `/api/conversations/${conv.id}/live?after=0`),
      Promise.resolve(sendOn(a, "Samtidig")),
    ]);
    const b = socket!;
    await ackFor(a, id);
    const later = sendOn(a, "Etterpå");
    await messageFor(b, later);
    const received = [...b.ofType("sync").flatMap((f) => f.messages), ...b.ofType("message").map((f) => f.message)].map((m) => m.seq);
    expect(received).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    a.close();
    b.close();
  });

  it("sends the read horizon of the user's own messages with the catch-up", async () => {
    const { conv, buyer } = await setup();
    const read = new Date().toISOString();
    await addMessages(conv.id, [{ from: conv.buyer.id, readAt: read }, { from: conv.buyer.id, readAt: read }, { from: conv.buyer.id }]);
    const { socket } = await upgrade(buyer, `/api/conversations/${conv.id}/live?after=3`);
    const sync = await socket!.waitFor<Extract<RoomFrame, { type: "sync" }> & { read_up_to: number }>((f) => f.type === "sync" && f.done);
    expect(sync.messages).toEqual([]);
    expect(sync.read_up_to).toBe(2);
    socket!.close();
  });
});

describe("read receipts", () => {
  it("marks only the other party's messages, and the sender sees them read live", async () => {
    const { conv, buyer, seller } = await setup();
    const a = await openChat(buyer, conv.id);
    const b = await openChat(seller, conv.id);
    const fromBuyer = sendOn(a, "Fra kjøper");
    await messageFor(b, fromBuyer);
    const fromSeller = sendOn(b, "Fra selger");
    await messageFor(a, fromSeller);

    b.send({ type: "read" });
    const receipt = await a.waitFor<Extract<RoomFrame, { type: "read" }>>((f) => f.type === "read");
    expect(receipt).toMatchObject({ reader_id: conv.seller.id, up_to_seq: 1 });
    const after = await rows(conv.id);
    expect(after.find((r) => r.id === fromBuyer)?.read_at).toBe(receipt.read_at);
    expect(after.find((r) => r.id === fromSeller)?.read_at).toBeNull();
    a.close();
    b.close();
  });

  it("reading up to a seq leaves later messages unread", async () => {
    const { conv, seller } = await setup();
    await addMessages(conv.id, [{ from: conv.buyer.id }, { from: conv.buyer.id }, { from: conv.buyer.id }]);
    const b = await openChat(seller, conv.id);
    b.send({ type: "read", up_to_seq: 2 });
    await b.waitFor((f) => f.type === "read");
    expect((await rows(conv.id)).map((r) => r.read_at === null)).toEqual([false, false, true]);
    b.close();
  });
});

describe("frames the room refuses", () => {
  it("a frame with a wrong-typed field is refused whole: a read up to a seq given as text marks nothing read", async () => {
    const { conv, seller } = await setup();
    await addMessages(conv.id, [{ from: conv.buyer.id }, { from: conv.buyer.id }]);
    const b = await openChat(seller, conv.id);
    b.send({ type: "read", up_to_seq: "1" });
    expect(await b.waitFor<Err>((f) => f.type === "error")).toMatchObject({ code: "VALIDATION", message: "Ugyldig melding." });
    expect((await rows(conv.id)).map((r) => r.read_at)).toEqual([null, null]);
    b.close();
  });

  it("a send whose content is not text is refused with its id, and nothing is stored", async () => {
    const { conv, buyer } = await setup();
    const a = await openChat(buyer, conv.id);
    const id = crypto.randomUUID();
    a.send({ type: "send", id, content: 42 });
    expect(await errorFor(a, id)).toMatchObject({ code: "VALIDATION", message: "Ugyldig melding." });
    a.send({ type: "typing" });
    expect(await a.waitFor<Err>((f) => f.type === "error" && f.id === undefined)).toMatchObject({
      code: "VALIDATION",
      message: "Ukjent meldingstype.",
    });
    expect(await rows(conv.id)).toEqual([]);
    a.close();
  });
});

describe("the user's live inbox socket", () => {
  it("pushes the new unread count to every open tab of the recipient", async () => {
    const { conv, buyer, seller } = await setup();
    const tab1 = (await upgrade<{ type: string; count?: number }>(seller, "/api/conversations/live")).socket!;
    const tab2 = (await upgrade<{ type: string; count?: number }>(seller, "/api/conversations/live")).socket!;
    await tab1.waitFor((f) => f.type === "unread" && f.count === 0);
    const res = await buyer.post(`/api/conversations/${conv.id}/messages`, { id: crypto.randomUUID(), content: "Ding!" });
    expect(res.status).toBe(201);
    await Promise.all([
      tab1.waitFor((f) => f.type === "unread" && f.count === 1),
      tab2.waitFor((f) => f.type === "unread" && f.count === 1),
    ]);
    // Reading brings it down again on both tabs.
    expect((await seller.post(`/api/conversations/${conv.id}/read`, {})).status).toBe(200);
    await Promise.all([
      tab1.waitFor((f) => f.type === "unread" && f.count === 0 && tab1.frames.indexOf(f) > 1),
      tab2.waitFor((f) => f.type === "unread" && f.count === 0 && tab2.frames.indexOf(f) > 1),
    ]);
    tab1.close();
    tab2.close();
  });

  // The room acknowledges before D1 has a message (decision 107); the count it raises is pushed only
  // after the mirror, so an inbox read when the badge rises already shows the message.
  it("the count a message raises is pushed once D1 has it: the inbox read at that frame shows the message", async () => {
    const { conv, buyer, seller } = await setup();
    const tab = (await upgrade<InboxTabFrame>(seller, "/api/conversations/live")).socket!;
    await tab.waitFor((f) => f.type === "unread" && f.count === 0);
    const chat = await openChat(buyer, conv.id);
    const id = sendOn(chat, "Er den fortsatt ledig?");
    await ackFor(chat, id);
    await tab.waitFor((f) => f.type === "unread" && f.count === 1);
    expect(await inboxRow(seller, conv.id)).toMatchObject({
      unread_count: 1,
      last_message: { content: "Er den fortsatt ledig?", sender_id: conv.buyer.id },
    });
    expect(await (await seller.get("/api/conversations/unread-count")).json()).toEqual({ count: 1 });
    chat.close();
    tab.close();
  });

  it("a held-money system message (the seller's handover) raises the buyer's count the same way, with the message in the inbox", async () => {
    const order = await paidOrder("card");
    const tab = (await upgrade<InboxTabFrame>(order.buyerClient, "/api/conversations/live")).socket!;
    const before = (await tab.waitFor((f) => f.type === "unread")).count!;
    const handed = await order.sellerClient.post(`/api/payments/orders/${order.orderId}/handed-over`);
    expect(handed.status, await handed.clone().text()).toBe(200);
    await tab.waitFor((f) => f.type === "unread" && f.count === before + 1);
    const row = await inboxRow(order.buyerClient, order.conversationId);
    expect(row.unread_count).toBe(before + 1);
    expect(row.last_message?.content).toMatch(/^Selgeren har markert varen som overlevert\./);
    tab.close();
  });

  it.each([
    { who: "a visitor", status: 401, origin: "http://localhost" },
    { who: "a user from a foreign Origin", status: 403, origin: "https://evil.example" },
  ])("$who gets $status", async ({ who, status, origin }) => {
    const { buyer } = await setup();
    const { res, socket } = await upgrade(who === "a visitor" ? new Client() : buyer, "/api/conversations/live", { origin });
    expect(res.status).toBe(status);
    expect(socket).toBeNull();
  });
});
