// The chat socket end to end: real WebSocket upgrades through exports.default.fetch (session, Origin,
// participation checked by the Worker), and sending through the ConversationRoom, its storage and its
// D1 mirror: acks, retries, concurrent sends, limits and hibernation (docs/product.md "Messages and
// chat", "States", "Validation", "Who may do what"; docs/security.md "Nothing lost";
// docs/decisions/028-live-chat.md, 107-chat-acknowledged-by-its-room.md).
import { env } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MESSAGE_MAX_LENGTH, type ChatMessage } from "../../../domain/chat";
import { MESSAGE_EMPTY_TEXT, MESSAGE_TOO_LONG_TEXT } from "../../../domain/schemas/chat";
import { RATE_RULES } from "../../../domain/rate-limits";
import { addMessages, createUser, signedInClient } from "../../factories";
import { allowConsoleError } from "../support/console-guard";
import { Client } from "../support/http";
import { mirrored, openChat, upgrade } from "../support/live";
import { ackFor, errorFor, messageFor, rows, sendOn, setup } from "../support/chat";

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
