// The room as the source of its messages (docs/decisions/107-chat-acknowledged-by-its-room.md): the
// sender's ack follows the room's own storage write, D1 gets each message exactly once from the
// mirror however often it runs, a moderator's removal and an account deletion reach the room's
// copy as well as D1's, and a suspension reaches the room, which refuses the sender with the
// suspension's own words. Real upgrades and requests through exports.default.fetch.
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { SYSTEM_USER_ID, CHAT_REFUSALS, MESSAGE_REMOVED_EVENT, type ChatMessage, type RoomFrame } from "../../../domain/chat";
import { REMOVED_MESSAGE_TEXT, suspensionMessage } from "../../../domain/moderation";
import type { ConversationRoom } from "../../../worker/features/chat/conversation-room";
import { createConversation, createUser, signedInClient } from "../../factories";
import { allowConsoleError } from "../support/console-guard";
import type { Client } from "../support/http";
import { mirrored, openChat, type LiveSocket } from "../support/live";

const PASSWORD = "hemmelig123";

type Ack = Extract<RoomFrame, { type: "ack" }>;
type Err = Extract<RoomFrame, { type: "error" }>;
type Event = Extract<RoomFrame, { type: "event" }>;

const roomOf = (conversationId: string) => env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conversationId));

function sendOn(socket: LiveSocket, content: string, id: string = crypto.randomUUID()) {
  socket.send({ type: "send", id, content });
  return id;
}

const ackFor = (socket: LiveSocket, id: string, ms?: number) => socket.waitFor<Ack>((f) => f.type === "ack" && f.id === id, ms);
const errorFor = (socket: LiveSocket, id: string) => socket.waitFor<Err>((f) => f.type === "error" && f.id === id);

async function d1Rows(conversationId: string) {
  const { results } = await env.DB.prepare("SELECT id, seq, content, read_at FROM messages WHERE conversation_id = ?1 ORDER BY seq")
    .bind(conversationId)
    .all<Pick<ChatMessage, "id" | "seq" | "content" | "read_at">>();
  return results;
}

async function history(client: Client, conversationId: string): Promise<ChatMessage[]> {
  const res = await client.get(`/api/conversations/${conversationId}/messages`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: ChatMessage[] }).messages;
}

async function setup(options: Parameters<typeof createConversation>[0] = {}) {
  const conv = await createConversation(options);
  return { conv, buyer: await signedInClient(conv.buyer.id), seller: await signedInClient(conv.seller.id) };
}

describe("the acknowledgement", () => {
  // The room sends the ack and the fan-out after the row's write with no await in between, so the
  // output gate holds them until the write is durable (docs/decisions/138). A frame sent before the
  // write, or whatever the write's outcome, would escape that gate: a failed write must send neither.
  it("follows the room's write: a write that fails sends no ack and no message, and the retry is stored once", async () => {
    allowConsoleError("ConversationRoom failure");
    const { conv, buyer, seller } = await setup();
    const a = await openChat(buyer, conv.id);
    const b = await openChat(seller, conv.id);
    await runInDurableObject(roomOf(conv.id), (room: ConversationRoom) => {
      const sql = (room as unknown as { sql: SqlStorage }).sql;
      const exec = sql.exec.bind(sql);
      vi.spyOn(sql, "exec").mockImplementation((query: string, ...bindings: unknown[]) => {
        if (/^\s*INSERT INTO messages/.test(query)) {
          vi.mocked(sql.exec).mockRestore();
          throw new Error("disk full");
        }
        return exec(query, ...bindings);
      });
    });
    const id = sendOn(a, "Lagret først");
    const refused = await errorFor(a, id);
    expect(refused.id).toBe(id);
    expect(a.ofType("ack")).toEqual([]);
    expect(b.ofType("message")).toEqual([]);
    expect(await history(seller, conv.id)).toEqual([]);
    // The client sends it again with the same id: stored once, acknowledged, delivered.
    sendOn(a, "Lagret først", id);
    const ack = await ackFor(a, id);
    await b.waitFor((f) => f.type === "message" && f.message.id === id);
    expect(await history(seller, conv.id)).toEqual([ack.message]);
    a.close();
    b.close();
  });
});

describe("the D1 mirror", () => {
  it("writes each message once even when it runs several times at once (the alarm twice, and a flush)", async () => {
    const { conv } = await setup();
    const room = roomOf(conv.id);
    const ids = Array.from({ length: 12 }, () => crypto.randomUUID());
    const counts = await runInDurableObject(room, async (instance: ConversationRoom, state) => {
      // Stored in the room, none mirrored yet: nothing in this callback yields to the alarm before the runs below start.
      for (const [i, id] of ids.entries()) {
        const posted = await instance.post({ conversationId: conv.id, senderId: conv.buyer.id, id, content: `Melding ${i}` });
        expect(posted.ok).toBe(true);
      }
      const waiting = state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM messages WHERE version > mirrored").one().n;
      await Promise.all([instance.alarm(), instance.alarm(), instance.mirror()]);
      return waiting;
    });
    expect(counts).toBe(ids.length);
    await runDurableObjectAlarm(room);
    const rows = await d1Rows(conv.id);
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows.map((r) => r.seq)).toEqual(ids.map((_, i) => i + 1));
    const convRow = await env.DB.prepare("SELECT last_seq FROM conversations WHERE id = ?1").bind(conv.id).first<{ last_seq: number }>();
    expect(convRow!.last_seq).toBe(ids.length);
    // Nothing left for a later run.
    expect(await mirrored(conv.id)).toBe(0);
  });

  it("a read mark reaches D1 once, however many mirrors run at once", async () => {
    const { conv, buyer, seller } = await setup();
    const a = await openChat(buyer, conv.id);
    const b = await openChat(seller, conv.id);
    const id = sendOn(a, "Les meg");
    await ackFor(a, id);
    b.send({ type: "read" });
    const receipt = await a.waitFor<Extract<RoomFrame, { type: "read" }>>((f) => f.type === "read");
    await Promise.all([mirrored(conv.id), mirrored(conv.id)]);
    expect(await d1Rows(conv.id)).toEqual([{ id, seq: 1, content: "Les meg", read_at: receipt.read_at }]);
    a.close();
    b.close();
  });

  it("a message whose id D1 holds for another conversation never overwrites it; the room withdraws its copy", async () => {
    // The seller takes part in two conversations and reuses, in the second, the id of a message from the first.
    const first = await setup();
    const second = await setup({ sellerUser: first.conv.seller });
    const a = await openChat(first.buyer, first.conv.id);
    const original = sendOn(a, "Originalen");
    await ackFor(a, original);
    await mirrored(first.conv.id);
    const s = await openChat(first.seller, second.conv.id);
    const other = await openChat(second.buyer, second.conv.id);
    sendOn(s, "Kapret id", original);
    await ackFor(s, original);
    await mirrored(second.conv.id);
    expect(await d1Rows(first.conv.id)).toEqual([{ id: original, seq: 1, content: "Originalen", read_at: null }]);
    expect(await d1Rows(second.conv.id)).toEqual([]);
    const withdrawn = await other.waitFor<Event>((f) => f.type === "event" && f.name === MESSAGE_REMOVED_EVENT);
    expect(withdrawn.data).toEqual({ id: original, seq: 1, content: REMOVED_MESSAGE_TEXT });
    expect((await history(second.buyer, second.conv.id)).map((m) => m.content)).toEqual([REMOVED_MESSAGE_TEXT]);
    [a, s, other].forEach((socket) => socket.close());
  });
});

describe("changes that reach both copies", () => {
  it("a moderator's removal reaches the room's copy, the open chats and D1, and a later mirror keeps it removed", async () => {
    const { conv, buyer, seller } = await setup();
    const a = await openChat(buyer, conv.id);
    const b = await openChat(seller, conv.id);
    const bad = sendOn(b, "Stygg melding");
    await ackFor(b, bad);
    await mirrored(conv.id); // reportable: moderation finds messages in D1
    const reporter = await signedInClient(conv.buyer.id);
    expect((await reporter.post("/api/reports", { target_type: "message", target_id: bad, reason: "Trakassering" })).status).toBe(201);
    const report = await env.DB.prepare("SELECT id FROM reports WHERE target_id = ?1").bind(bad).first<{ id: string }>();
    const moderator = await signedInClient((await createUser({ role: "moderator" })).id);
    expect((await moderator.post(`/api/moderation/reports/${report!.id}/actions`, { action: "delete" })).status).toBe(200);
    // Live in the open chat, in the room's history, and in D1.
    const event = await a.waitFor<Event>((f) => f.type === "event" && f.name === MESSAGE_REMOVED_EVENT);
    expect(event.data).toEqual({ id: bad, seq: 1, content: REMOVED_MESSAGE_TEXT });
    for (const client of [buyer, seller]) expect((await history(client, conv.id)).map((m) => m.content)).toEqual([REMOVED_MESSAGE_TEXT]);
    // Reading it afterwards mirrors the row again: the removal stays.
    a.send({ type: "read" });
    await b.waitFor((f) => f.type === "read");
    await mirrored(conv.id);
    expect((await d1Rows(conv.id)).map((r) => [r.content, r.read_at !== null])).toEqual([[REMOVED_MESSAGE_TEXT, true]]);
    a.close();
    b.close();
  });

  it("an account deletion reaches the room: the other party's next message is refused, the history and D1 keep every message", async () => {
    const { conv, buyer, seller } = await setup({ buyer: { password: PASSWORD } });
    const b = await openChat(seller, conv.id);
    const a = await openChat(buyer, conv.id);
    const before = sendOn(a, "Siste melding før jeg sletter kontoen");
    await ackFor(a, before);
    // The export (asked for right before deleting) has the message, mirrored or not.
    const exported = await buyer.post("/api/me/export", { password: PASSWORD });
    expect(exported.status).toBe(200);
    expect(((await exported.json()) as { messages: { id: string }[] }).messages.map((m) => m.id)).toContain(before);
    expect((await buyer.request("/api/me", { method: "DELETE", json: { password: PASSWORD } })).status).toBe(204);
    const refused = sendOn(b, "Hallo?");
    expect(await errorFor(b, refused)).toMatchObject({ code: "CONFLICT", message: CHAT_REFUSALS.recipientDeleted });
    expect((await history(seller, conv.id)).map((m) => m.id)).toEqual([before]);
    expect((await d1Rows(conv.id)).map((r) => r.id)).toEqual([before]);
    b.close();
  });
});

describe("a suspension reaches the room", () => {
  it("refuses the suspended sender with the suspension's message, and accepts them again once it is lifted", async () => {
    const { conv, buyer } = await setup();
    const first = await openChat(buyer, conv.id);
    await ackFor(first, sendOn(first, "Før utestengingen")); // the room has loaded the participants' standing
    const reporter = await signedInClient((await createUser()).id);
    expect((await reporter.post("/api/reports", { target_type: "user", target_id: conv.buyer.id, reason: "Trakassering" })).status).toBe(
      201,
    );
    const report = await env.DB.prepare("SELECT id FROM reports WHERE target_id = ?1").bind(conv.buyer.id).first<{ id: string }>();
    const moderator = await signedInClient((await createUser({ role: "moderator" })).id);
    const res = await moderator.post(`/api/moderation/reports/${report!.id}/actions`, { action: "hide", notes: "Trakassering i chat" });
    expect(res.status).toBe(200);
    const { suspended_until: until } = (await res.json()) as { suspended_until: string };
    await first.waitClosed();

    const again = await openChat(buyer, conv.id);
    const refused = sendOn(again, "Fortsatt her");
    expect(await errorFor(again, refused)).toMatchObject({
      code: "SUSPENDED",
      message: suspensionMessage(until, "Trakassering: Trakassering i chat"),
    });
    const http = await buyer.post(`/api/conversations/${conv.id}/messages`, { id: crypto.randomUUID(), content: "Over HTTP" });
    expect(http.status).toBe(403);
    expect((await history(buyer, conv.id)).map((m) => m.content)).toEqual(["Før utestengingen"]);

    expect((await moderator.post(`/api/moderation/targets/user/${conv.buyer.id}/unhide`, { notes: "Angret" })).status).toBe(200);
    await ackFor(again, sendOn(again, "Tilbake"));
    // A system message is never refused for a suspension: it is nobody's send.
    const system = await roomOf(conv.id).post({
      conversationId: conv.id,
      senderId: SYSTEM_USER_ID,
      id: crypto.randomUUID(),
      content: "Info",
    });
    expect(system.ok).toBe(true);
    again.close();
  });
});
