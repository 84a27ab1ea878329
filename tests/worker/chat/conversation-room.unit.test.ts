// Inside the ConversationRoom (runInDurableObject, runDurableObjectAlarm): what a socket carries
// across hibernation, and the e-mail to a participant who has been away for 15 minutes, at most
// one per conversation per hour (docs/decisions/030-offline-mail.md).
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OFFLINE_MAIL_AFTER_MS, OFFLINE_MAIL_INTERVAL_MS, SYSTEM_USER_ID, type RoomFrame } from "../../../domain/chat";
import { ROOM_AFTER_HEADER, ROOM_CONVERSATION_HEADER, type ConversationRoom } from "../../../worker/features/chat/conversation-room";
import { postSystemMessage } from "../../../worker/features/chat/live";
import { mailDueAt } from "../../../worker/features/chat/room-presence";
import type { Bindings } from "../../../worker/env";
import { sessionHeaders } from "../../../worker/features/chat/socket-session";
import { addMessages, createConversation, createListing, createUser, signedInClient } from "../../factories";
import { openChat } from "../support/live";

const roomOf = (conversationId: string) => env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conversationId));

async function mailsTo(email: string) {
  const { results } = await env.DB.prepare("SELECT subject, text_body FROM dev_outbox WHERE to_address = ?1 ORDER BY created_at")
    .bind(email)
    .all<{
      subject: string;
      text_body: string;
    }>();
  return results;
}

type Presence = Record<string, { lastSeen?: number; lastMailed?: number; pending?: boolean; quietUntil?: number }>;

async function presence(conversationId: string): Promise<Presence> {
  return runInDurableObject(roomOf(conversationId), (_room: ConversationRoom, state) => state.storage.kv.get<Presence>("presence") ?? {});
}

async function setPresence(conversationId: string, value: Presence): Promise<void> {
  await runInDurableObject(roomOf(conversationId), (_room: ConversationRoom, state) => state.storage.kv.put("presence", value));
}

async function send(client: Awaited<ReturnType<typeof signedInClient>>, conversationId: string, content: string) {
  const res = await client.post(`/api/conversations/${conversationId}/messages`, { id: crypto.randomUUID(), content });
  expect(res.status).toBe(201);
}

/** A system message (a notice of some event) through the chat's one write path. */
async function postSystemNotice(conversationId: string, content: string) {
  await postSystemMessage(env as Bindings, conversationId, content);
}

/**
 * The room's alarm. Polled: the mirror's alarm, set to "now" by a send, may fire by itself; while
 * that run is under way the alarm reads null (runDurableObjectAlarm then has nothing to run) until
 * it re-arms itself.
 */
function alarmOf(conversationId: string): Promise<number | null> {
  return runInDurableObject(roomOf(conversationId), (_room: ConversationRoom, state) => state.storage.getAlarm());
}

describe("sockets in the room", () => {
  it("carry the authenticated user id, session family and token expiry as tag and attachment, not anything the client sent", async () => {
    const conv = await createConversation();
    const buyer = await signedInClient(conv.buyer.id);
    const socket = await openChat(buyer, conv.id);
    const seen = await runInDurableObject(roomOf(conv.id), (_room: ConversationRoom, state) =>
      state.getWebSockets().map((ws) => ({ tags: state.getTags(ws), attachment: ws.deserializeAttachment() })),
    );
    const session = await env.DB.prepare("SELECT family_id FROM sessions WHERE user_id = ?1")
      .bind(conv.buyer.id)
      .first<{ family_id: string }>();
    const { expires_at } = (await (await buyer.get("/api/auth/session")).json()) as { expires_at: number };
    expect(seen).toEqual([
      {
        tags: [conv.buyer.id],
        attachment: { userId: conv.buyer.id, family: session!.family_id, expiresAt: expires_at, conversationId: conv.id, ready: true },
      },
    ]);
    socket.close();
  });
});

describe("ordering between a new socket's catch-up and writes", () => {
  it("a write queued before the socket's catch-up reaches the socket once (in the catch-up, not also live)", async () => {
    const conv = await createConversation();
    const frames = await runInDurableObject(roomOf(conv.id), async (room: ConversationRoom) => {
      // Force the interleaving: hold the room's write queue, queue a write, then connect a socket.
      const internals = room as unknown as { serial<T>(task: () => Promise<T>): Promise<T> };
      let release!: () => void;
      void internals.serial(() => new Promise<void>((resolve) => (release = resolve)));
      const write = room.post({ conversationId: conv.id, senderId: SYSTEM_USER_ID, id: crypto.randomUUID(), content: "I køen" });
      const res = await room.fetch(
        new Request("https://room.internal/connect", {
          headers: {
            Upgrade: "websocket",
            ...sessionHeaders({ userId: conv.buyer.id, family: crypto.randomUUID(), expiresAt: Math.floor(Date.now() / 1000) + 900 }),
            [ROOM_CONVERSATION_HEADER]: conv.id,
            [ROOM_AFTER_HEADER]: "0",
          },
        }),
      );
      const ws = res.webSocket!;
      const got: RoomFrame[] = [];
      ws.accept();
      ws.addEventListener("message", (e) => got.push(JSON.parse(e.data as string) as RoomFrame));
      release();
      expect(await write).toMatchObject({ ok: true });
      await internals.serial(async () => undefined); // the catch-up has run
      await new Promise((r) => setTimeout(r, 50));
      ws.close();
      return got;
    });
    const seqs = frames.flatMap((f) => (f.type === "sync" ? f.messages.map((m) => m.seq) : f.type === "message" ? [f.message.seq] : []));
    expect(seqs).toEqual([1]);
  });

  it("a write that starts while a socket is catching up reaches it once, after the catch-up", async () => {
    const conv = await createConversation();
    await addMessages(conv.id, [{ from: conv.seller.id, content: "Gammel" }]);
    const frames = await runInDurableObject(roomOf(conv.id), async (room: ConversationRoom) => {
      const res = await room.fetch(
        new Request("https://room.internal/connect", {
          headers: {
            Upgrade: "websocket",
            ...sessionHeaders({ userId: conv.buyer.id, family: crypto.randomUUID(), expiresAt: Math.floor(Date.now() / 1000) + 900 }),
            [ROOM_CONVERSATION_HEADER]: conv.id,
            [ROOM_AFTER_HEADER]: "0",
          },
        }),
      );
      // No await in between: the write's D1 batch is queued while the catch-up is reading.
      const write = room.post({ conversationId: conv.id, senderId: SYSTEM_USER_ID, id: crypto.randomUUID(), content: "Akkurat nå" });
      const ws = res.webSocket!;
      const got: RoomFrame[] = [];
      ws.accept();
      ws.addEventListener("message", (e) => got.push(JSON.parse(e.data as string) as RoomFrame));
      expect(await write).toMatchObject({ ok: true });
      await new Promise((r) => setTimeout(r, 100));
      ws.close();
      return got;
    });
    const seqs = frames.flatMap((f) => (f.type === "sync" ? f.messages.map((m) => m.seq) : f.type === "message" ? [f.message.seq] : []));
    expect(seqs).toEqual([1, 2]);
  });
});

describe("the room's own checks (behind the Worker's)", () => {
  it("refuses a sender or reader who is not a participant, and changes nothing", async () => {
    const conv = await createConversation();
    const stranger = await createUser();
    await addMessages(conv.id, [{ from: conv.buyer.id, content: "Til selger" }]);
    const room = roomOf(conv.id);
    const post = await room.post({ conversationId: conv.id, senderId: stranger.id, id: crypto.randomUUID(), content: "Inntrenger" });
    expect(post).toMatchObject({ ok: false, code: "NOT_FOUND" });
    const read = await room.read({ conversationId: conv.id, readerId: stranger.id });
    expect(read).toEqual({ ok: true, value: { count: 0, up_to_seq: 0 } });
    const { results } = await env.DB.prepare("SELECT content, read_at FROM messages WHERE conversation_id = ?1").bind(conv.id).all();
    expect(results).toEqual([{ content: "Til selger", read_at: null }]);
    const last = await env.DB.prepare("SELECT last_seq FROM conversations WHERE id = ?1").bind(conv.id).first();
    expect(last).toEqual({ last_seq: 1 });
  });
});

describe("e-mail to a participant who is away", () => {
  it("mails the recipient who has not been here, with a link to the chat, and not the sender", async () => {
    const conv = await createConversation({ listing: { title: "Brio togbane" } });
    const buyer = await signedInClient(conv.buyer.id);
    await send(buyer, conv.id, "Er den ledig?");
    // Never seen here: due at once, so the alarm may already have run by itself.
    await runDurableObjectAlarm(roomOf(conv.id));
    await expect.poll(() => mailsTo(conv.seller.email)).toHaveLength(1);
    const mails = await mailsTo(conv.seller.email);
    expect(mails[0].subject).toBe("Du har en ny melding om «Brio togbane»");
    expect(mails[0].text_body).toContain(`/chat/${conv.id}`);
    expect(await mailsTo(conv.buyer.email)).toEqual([]);
  });

  it("names the one who wrote, and the site once", async () => {
    const conv = await createConversation({ listing: { title: "Brio togbane" }, buyer: { displayName: "Ola Hansen" } });
    await send(await signedInClient(conv.buyer.id), conv.id, "Er den ledig?");
    await runDurableObjectAlarm(roomOf(conv.id));
    await expect.poll(() => mailsTo(conv.seller.email)).toHaveLength(1);
    const [mail] = await mailsTo(conv.seller.email);
    expect(mail.text_body).toContain("Ola Hansen har sendt deg en ny melding om «Brio togbane» på Lekebytte.\n");
  });

  it("a reservation's system message: no mail in the same moment as its own notice; one later if still unread, from Lekebytte named once", async () => {
    const giver = await createUser({ displayName: "Gro Giver" });
    const taker = await createUser({ displayName: "Tor Taker" });
    const listing = await createListing({ userId: giver.id, isFree: true, price: null, title: "Dukkehus" });
    const takerClient = await signedInClient(taker.id);
    expect((await takerClient.post(`/api/giveaways/listings/${listing.id}/queue`, { message: "Vi vil gjerne ha den" })).status).toBe(201);
    const reserved = await (await signedInClient(giver.id)).post(`/api/giveaways/listings/${listing.id}/reserve`, {});
    expect(reserved.status).toBe(200);
    const conversationId = ((await reserved.json()) as { queue: { conversation_id: string | null }[] }).queue[0].conversation_id!;
    // The room's alarm runs now (the mirror's): nobody is mailed about the notice yet.
    await runDurableObjectAlarm(roomOf(conversationId));
    for (const who of [giver, taker]) expect(await mailsTo(who.email), who.email).toEqual([]);
    const held = (await presence(conversationId))[taker.id];
    expect(held.pending).toBe(true);
    expect(mailDueAt(held)).toBe(held.quietUntil);
    expect(held.quietUntil! - Date.now()).toBeGreaterThan(OFFLINE_MAIL_AFTER_MS - 60_000);
    await expect.poll(() => alarmOf(conversationId)).toBe(held.quietUntil);

    // 15 minutes on, still unread: one mail, which names the site once.
    const later = await presence(conversationId);
    for (const p of Object.values(later)) if (p.quietUntil) p.quietUntil -= OFFLINE_MAIL_AFTER_MS;
    await setPresence(conversationId, later);
    await runDurableObjectAlarm(roomOf(conversationId));
    const mails = await mailsTo(taker.email);
    expect(mails.map((m) => m.subject)).toEqual(["Du har en ny melding om «Dukkehus»"]);
    expect(mails[0].text_body).toContain("\n\nLekebytte har sendt deg en ny melding om «Dukkehus».\n\n");
    expect(mails[0].text_body.split("\n\n")[1]).not.toMatch(/på Lekebytte/);
  });

  it("a person's message right after a system message waits with it: one mail about both, not two", async () => {
    const conv = await createConversation();
    await postSystemNotice(conv.id, "Bytteforslaget ble akseptert.");
    await send(await signedInClient(conv.buyer.id), conv.id, "Når passer det å bytte?");
    await runDurableObjectAlarm(roomOf(conv.id));
    expect(await mailsTo(conv.seller.email)).toEqual([]);
    const p = (await presence(conv.id))[conv.seller.id];
    await setPresence(conv.id, { ...(await presence(conv.id)), [conv.seller.id]: { ...p, quietUntil: Date.now() - 1 } });
    await runDurableObjectAlarm(roomOf(conv.id));
    const mails = await mailsTo(conv.seller.email);
    expect(mails.map((m) => m.subject)).toHaveLength(1);
    expect(mails[0].subject).toMatch(/^Du har 2 nye meldinger/);
  });

  it("sends at most one mail per conversation per hour", async () => {
    const conv = await createConversation();
    const buyer = await signedInClient(conv.buyer.id);
    await send(buyer, conv.id, "Første");
    await runDurableObjectAlarm(roomOf(conv.id));
    await expect.poll(() => mailsTo(conv.seller.email)).toHaveLength(1);
    await send(buyer, conv.id, "Andre");
    await send(buyer, conv.id, "Tredje");
    // The alarm runs now, before the hour has passed: it only re-arms itself.
    await runDurableObjectAlarm(roomOf(conv.id));
    expect(await mailsTo(conv.seller.email)).toHaveLength(1);
    const p = (await presence(conv.id))[conv.seller.id];
    expect(p.pending).toBe(true);
    expect(mailDueAt(p)).toBe(p.lastMailed! + OFFLINE_MAIL_INTERVAL_MS);
    await expect.poll(() => alarmOf(conv.id)).toBe(p.lastMailed! + OFFLINE_MAIL_INTERVAL_MS);

    // An hour later, still unread: one more mail, counting all unread.
    await setPresence(conv.id, {
      ...(await presence(conv.id)),
      [conv.seller.id]: { ...p, lastMailed: p.lastMailed! - OFFLINE_MAIL_INTERVAL_MS },
    });
    await runDurableObjectAlarm(roomOf(conv.id));
    const mails = await mailsTo(conv.seller.email);
    expect(mails).toHaveLength(2);
    expect(mails[1].subject).toMatch(/^Du har 3 nye meldinger/);
  });

  it("waits 15 minutes after the recipient left the conversation", async () => {
    const conv = await createConversation();
    const buyer = await signedInClient(conv.buyer.id);
    const seller = await signedInClient(conv.seller.id);
    const sellerSocket = await openChat(seller, conv.id);
    await send(buyer, conv.id, "Mens du er her");
    // Present: no e-mail check at all.
    expect((await presence(conv.id))[conv.seller.id]).toBeUndefined();

    sellerSocket.close();
    await expect.poll(async () => (await presence(conv.id))[conv.seller.id]?.pending).toBe(true);
    const left = (await presence(conv.id))[conv.seller.id];
    await runDurableObjectAlarm(roomOf(conv.id));
    expect(await mailsTo(conv.seller.email)).toEqual([]);
    await expect.poll(() => alarmOf(conv.id)).toBe(left.lastSeen! + OFFLINE_MAIL_AFTER_MS);

    // 16 minutes later the message is still unread: mail.
    await setPresence(conv.id, { [conv.seller.id]: { ...left, lastSeen: left.lastSeen! - 16 * 60_000 } });
    await runDurableObjectAlarm(roomOf(conv.id));
    expect(await mailsTo(conv.seller.email)).toHaveLength(1);
  });

  it("does not mail when the messages were read in the meantime", async () => {
    const conv = await createConversation();
    const buyer = await signedInClient(conv.buyer.id);
    const seller = await signedInClient(conv.seller.id);
    // The seller was here a moment ago, so the check is 15 minutes away.
    (await openChat(seller, conv.id)).close();
    await expect.poll(async () => (await presence(conv.id))[conv.seller.id]?.pending).toBe(true);
    await send(buyer, conv.id, "Hei");
    expect((await seller.post(`/api/conversations/${conv.id}/read`, {})).status).toBe(200);
    const p = (await presence(conv.id))[conv.seller.id];
    await setPresence(conv.id, { [conv.seller.id]: { ...p, lastSeen: p.lastSeen! - 16 * 60_000 } });
    await runDurableObjectAlarm(roomOf(conv.id));
    expect(await mailsTo(conv.seller.email)).toEqual([]);
    expect((await presence(conv.id))[conv.seller.id].pending).toBe(false);
  });
});
