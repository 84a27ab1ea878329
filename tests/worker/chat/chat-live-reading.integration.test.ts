// The chat socket end to end: reconnecting and catching up, read receipts, frames the ConversationRoom
// refuses, and the user's live inbox socket (docs/product.md "Messages and chat", "States",
// "Validation", "Who may do what"; docs/security.md "Nothing lost"; docs/decisions/028-live-chat.md,
// 107-chat-acknowledged-by-its-room.md).
import { describe, expect, it } from "vitest";
import type { RoomFrame } from "../../../domain/chat";
import { addMessages } from "../../factories";
import { Client } from "../support/http";
import { paidOrder } from "../support/orders";
import { openChat, upgrade } from "../support/live";
import { ackFor, type Err, errorFor, inboxRow, type InboxTabFrame, messageFor, rows, sendOn, setup } from "../support/chat";

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
