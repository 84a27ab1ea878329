// When the room copies to D1 (docs/decisions/140-mirror-window.md): at once whenever someone outside
// the room would see the difference (a reader away from the room, a read of a message D1 counts as
// unread, a moderator's removal, a participant leaving), otherwise within the mirror window, all of
// the window's messages in one batch. And which inboxes a mirror tells. Real sockets through
// exports.default.fetch; the room's alarm read with runInDurableObject.
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { ConversationRoom } from "../../../worker/features/chat/conversation-room";
import { inboxesToTell, MIRROR_RETRY_MS, MIRROR_WINDOW_MS, mirrorWindowMs } from "../../../worker/features/chat/room-mirror";
import type { RoomInfo, RoomRow } from "../../../worker/features/chat/room-store";
import { ackFor, type InboxTabFrame, messageFor, sendOn, setup } from "../support/chat";
import type { Client } from "../support/http";
import { mirrored, openChat, upgrade } from "../support/live";

const roomOf = (conversationId: string) => env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conversationId));

/** Milliseconds from now until the room's alarm (null: none set). */
function alarmIn(conversationId: string): Promise<number | null> {
  return runInDurableObject(roomOf(conversationId), async (_room: ConversationRoom, state) => {
    const at = await state.storage.getAlarm();
    return at === null ? null : at - Date.now();
  });
}

async function inD1(conversationId: string): Promise<{ id: string; read_at: string | null }[]> {
  const { results } = await env.DB.prepare("SELECT id, read_at FROM messages WHERE conversation_id = ?1 ORDER BY seq")
    .bind(conversationId)
    .all<{ id: string; read_at: string | null }>();
  return results;
}

/** A conversation with both participants' chats open: `a` the buyer's, `b` the seller's. */
async function bothInRoom() {
  const { conv, buyer, seller } = await setup();
  return { conv, buyer, seller, a: await openChat(buyer, conv.id), b: await openChat(seller, conv.id) };
}

/** A tab's badge socket, once it has its first count (0). */
async function badgeTab(client: Client) {
  const tab = (await upgrade<InboxTabFrame>(client, "/api/conversations/live")).socket!;
  await tab.waitFor((f) => f.type === "unread" && f.count === 0);
  return tab;
}

// The alarm's due time, not how fast anything runs: "at once" is due now (it may already have run),
// "within the window" is due no earlier than the window's shortest spread.
const AT_ONCE_MS = 1_000;
const WINDOW_MIN_MS = MIRROR_WINDOW_MS / 2;

describe("the D1 mirror's window", () => {
  it("messages both participants see live reach D1 within the window, together", async () => {
    const { conv, a, b } = await bothInRoom();
    const ids = [sendOn(a, "Hei!"), sendOn(b, "Hei, den er ledig."), sendOn(a, "Flott, jeg kommer i kveld.")];
    for (const id of ids) await ackFor(ids.indexOf(id) === 1 ? b : a, id);
    expect(await alarmIn(conv.id)).toBeGreaterThan(WINDOW_MIN_MS - AT_ONCE_MS);
    expect(await inD1(conv.id)).toEqual([]);
    // The window's alarm writes all three in one run.
    expect(await runDurableObjectAlarm(roomOf(conv.id))).toBe(true);
    expect((await inD1(conv.id)).map((r) => r.id)).toEqual(ids);
    a.close();
    b.close();
  });

  it("a room whose conversation D1 no longer has keeps its rows and stops asking, without an error", async () => {
    const { conv, a, b } = await bothInRoom();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let id = "";
    try {
      // D1 loses the conversation while the room is open (deleted, or restored to before it): first,
      // so no mirror can have copied the message before (the participants' leaving mirrors at once,
      // and on a loaded machine that alarm can run before the test's next statement).
      await env.DB.prepare("DELETE FROM conversations WHERE id = ?1").bind(conv.id).run();
      id = sendOn(a, "Hei!");
      await ackFor(a, id);
      a.close();
      b.close();
      // The alarm runs here, or has run already on its own.
      await runDurableObjectAlarm(roomOf(conv.id));
      await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining("D1 has no conversation for the room"), conv.id), {
        timeout: 10_000,
      });
    } finally {
      warn.mockRestore();
    }
    // No error logged (the console guard fails the test on one), no retry of the mirror (the alarm
    // left, if any, is the unread-message mail's, minutes away), the row still in the room.
    const due = await alarmIn(conv.id);
    if (due !== null) expect(due).toBeGreaterThan(10 * MIRROR_RETRY_MS);
    const kept = await runInDurableObject(roomOf(conv.id), (_room: ConversationRoom, state) =>
      state.storage.sql
        .exec<{ id: string }>("SELECT id FROM messages")
        .toArray()
        .map((r) => r.id),
    );
    expect(kept).toEqual([id]);
  });

  it("a message to a participant away from the room reaches D1 at once, and their inbox is told", async () => {
    const { conv, buyer, seller } = await setup();
    const tab = await badgeTab(seller);
    const a = await openChat(buyer, conv.id);
    const id = sendOn(a, "Er den fortsatt ledig?");
    await ackFor(a, id);
    const due = await alarmIn(conv.id);
    // null: the alarm has run already.
    if (due !== null) expect(due).toBeLessThan(AT_ONCE_MS);
    await tab.waitFor((f) => f.type === "unread" && f.count === 1);
    expect((await inD1(conv.id)).map((r) => r.id)).toEqual([id]);
    a.close();
    tab.close();
  });

  it("reading a message D1 has brings the mirror forward; reading one it lacks waits with it", async () => {
    const { conv, buyer, seller } = await setup();
    const a = await openChat(buyer, conv.id);
    const first = sendOn(a, "Første");
    await ackFor(a, first);
    await mirrored(conv.id); // the seller was away: D1 has it, unread
    const b = await openChat(seller, conv.id);
    b.send({ type: "read", up_to_seq: 1 });
    await a.waitFor((f) => f.type === "read" && f.up_to_seq === 1);
    const due = await alarmIn(conv.id);
    if (due !== null) expect(due).toBeLessThan(AT_ONCE_MS);
    // The alarm due now runs by itself (runDurableObjectAlarm would race it).
    await expect.poll(async () => (await inD1(conv.id))[0]?.read_at ?? null, { timeout: WINDOW_MIN_MS - AT_ONCE_MS }).not.toBeNull();

    // Both here now: a new message, read at once, reaches D1 within the window, already read.
    const second = sendOn(a, "Andre");
    await messageFor(b, second);
    b.send({ type: "read", up_to_seq: 2 });
    await a.waitFor((f) => f.type === "read" && f.up_to_seq === 2);
    expect(await alarmIn(conv.id)).toBeGreaterThan(WINDOW_MIN_MS - AT_ONCE_MS);
    expect(await runDurableObjectAlarm(roomOf(conv.id))).toBe(true);
    expect((await inD1(conv.id)).map((r) => [r.id, r.read_at !== null])).toEqual([
      [first, true],
      [second, true],
    ]);
    a.close();
    b.close();
  });

  it("a participant who leaves brings the pending mirror forward", async () => {
    const { conv, a, b } = await bothInRoom();
    const id = sendOn(a, "Ser deg i kveld");
    await messageFor(b, id);
    expect(await alarmIn(conv.id)).toBeGreaterThan(WINDOW_MIN_MS - AT_ONCE_MS);
    b.close();
    await expect.poll(() => inD1(conv.id), { timeout: WINDOW_MIN_MS - AT_ONCE_MS }).toHaveLength(1);
    a.close();
  });

  it("a reader in the room is not told of a message D1 got meanwhile, and is told when they leave", async () => {
    const { conv, buyer, seller } = await setup();
    const tab = await badgeTab(seller);
    const a = await openChat(buyer, conv.id);
    const b = await openChat(seller, conv.id);
    const id = sendOn(a, "Er den ledig?");
    await messageFor(b, id);
    // The window's alarm: D1 has it, unread; the seller is here and sees it live, so is not told.
    expect(await runDurableObjectAlarm(roomOf(conv.id))).toBe(true);
    expect(await inD1(conv.id)).toHaveLength(1);
    expect(tab.ofType("unread")).toHaveLength(1);
    b.close();
    await tab.waitFor((f) => f.type === "unread" && f.count === 1);
    a.close();
    tab.close();
  });

  it("a message reported the moment it arrives, before D1 has it, is reported (its room copies first)", async () => {
    const { conv, buyer, a, b } = await bothInRoom();
    const bad = sendOn(b, "Stygg melding");
    await messageFor(a, bad);
    expect(await inD1(conv.id)).toEqual([]);
    const res = await buyer.post("/api/reports", { target_type: "message", target_id: bad, reason: "Trakassering" });
    expect(res.status, await res.clone().text()).toBe(201);
    // A message that is nowhere is still not found.
    const none = await buyer.post("/api/reports", { target_type: "message", target_id: crypto.randomUUID(), reason: "Trakassering" });
    expect(none.status).toBe(404);
    a.close();
    b.close();
  });

  it("is spread between half and one and a half times its length", () => {
    expect(mirrorWindowMs(() => 0)).toBe(MIRROR_WINDOW_MS / 2);
    expect(mirrorWindowMs(() => 0.999_999)).toBeCloseTo(MIRROR_WINDOW_MS * 1.5, -1);
  });
});

describe("the inboxes a mirror tells", () => {
  const info = { conversationId: "c", buyerId: "buyer", sellerId: "seller" } as RoomInfo;
  const row = (sender: string, read: boolean, recipient: string | null = null) =>
    ({ sender_id: sender, recipient_id: recipient, read_at: read ? "2026-11-29T12:00:00.000Z" : null }) as RoomRow;

  it.each([
    { rows: [row("buyer", false)], here: [], told: ["seller"], why: "an unread message to a reader who is away" },
    { rows: [row("buyer", false)], here: ["seller"], told: [], why: "an unread message to a reader in the room (seen live)" },
    { rows: [row("buyer", true)], here: ["seller"], told: ["seller"], why: "a message read since (their count fell)" },
    { rows: [row("buyer", false), row("seller", false)], here: ["buyer"], told: ["seller"], why: "each row by its own reader" },
    { rows: [row("system", false, "buyer")], here: ["seller"], told: ["buyer"], why: "a notice for one participant, away" },
  ])("$why", ({ rows, here, told }) => {
    expect(inboxesToTell(info, rows, (id) => here.includes(id)).sort()).toEqual(told);
  });
});
