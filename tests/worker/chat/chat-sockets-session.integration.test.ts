// A socket lives no longer than its session (docs/decisions/080): signing out, a revoked
// family (refresh-token reuse), a password change, a suspension and account deletion close that
// session's chat and inbox sockets at once; an expired access token closes them too (the client
// refreshes and reconnects); and one user cannot hold more than a few sockets per room or inbox.
// Real upgrades through exports.default.fetch, the real revocation routes, the real objects.
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { INBOX_SOCKETS_PER_USER, ROOM_SOCKETS_PER_USER, SOCKET_CLOSE, type InboxFrame, type RoomFrame } from "../../../domain/chat";
import type { ConversationRoom } from "../../../worker/features/chat/conversation-room";
import { revokeAllSessions } from "../../../worker/features/auth/auth";
import { createConversation, createUser, signedInClient } from "../../factories";
import { Client } from "../support/http";
import { openChat, upgrade, type LiveSocket } from "../support/live";

const PASSWORD = "hemmelig123";

type Msg = Extract<RoomFrame, { type: "message" }>;

async function openInbox(client: Client): Promise<LiveSocket<InboxFrame>> {
  const { res, socket } = await upgrade<InboxFrame>(client, "/api/conversations/live");
  if (!socket) throw new Error(`inbox upgrade refused: ${res.status}`);
  await socket.waitFor((f) => f.type === "unread");
  return socket;
}

/** The buyer with a chat socket and an inbox socket; the seller with a chat socket. */
async function connected(buyer: Client, conv: Awaited<ReturnType<typeof createConversation>>) {
  const seller = await signedInClient(conv.seller.id);
  return { seller, chat: await openChat(buyer, conv.id), inbox: await openInbox(buyer), sellerChat: await openChat(seller, conv.id) };
}

/** A message from the seller now reaches the seller's own socket but not the closed ones. */
async function deliveredAfter(conv: { id: string }, seller: Client, sellerChat: LiveSocket, buyerChat: LiveSocket) {
  const id = crypto.randomUUID();
  expect((await seller.post(`/api/conversations/${conv.id}/messages`, { id, content: "Er du der?" })).status).toBe(201);
  await sellerChat.waitFor<Msg>((f) => f.type === "message" && f.message.id === id);
  return buyerChat.ofType("message").some((f) => f.message.id === id);
}

async function stored(conversationId: string, content: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?1 AND content = ?2")
    .bind(conversationId, content)
    .first<{ n: number }>();
  return row!.n;
}

/** Signs in through the real route (a refresh cookie too), as the browser does. */
async function signIn(email: string): Promise<Client> {
  const client = new Client();
  expect((await client.post("/api/auth/signin", { email, password: PASSWORD })).status).toBe(200);
  return client;
}

describe("a session's end closes its sockets at once", () => {
  it("signing out closes that session's chat and inbox sockets, not another session's or the other party's", async () => {
    const conv = await createConversation();
    const buyer = await signedInClient(conv.buyer.id);
    const otherDevice = await signedInClient(conv.buyer.id);
    const { seller, chat, inbox, sellerChat } = await connected(buyer, conv);
    const kept = await openChat(otherDevice, conv.id);

    expect((await buyer.post("/api/auth/signout")).status).toBe(204);
    expect(await chat.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await inbox.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await deliveredAfter(conv, seller, sellerChat, chat)).toBe(false);
    // The other device's session is untouched and still hears the seller.
    expect(kept.closed).toBe(false);
    expect(kept.ofType("message")).toHaveLength(1);
    // And the signed-out browser cannot simply reconnect.
    expect((await upgrade(buyer, `/api/conversations/${conv.id}/live`)).res.status).toBe(401);
    [kept, sellerChat].forEach((s) => s.close());
  });

  it("refresh-token reuse revokes the family: the thief's and the owner's sockets of it close", async () => {
    const conv = await createConversation({ buyer: { password: PASSWORD } });
    const owner = await signIn(conv.buyer.email);
    const stolen = owner.cookies.get("lb_refresh")!;
    const thief = new Client();
    thief.cookies.set("lb_refresh", stolen);
    expect((await thief.post("/api/auth/refresh")).status).toBe(200); // the thief rotates first
    const { seller, chat: thiefChat, inbox: thiefInbox, sellerChat } = await connected(thief, conv);
    const ownerChat = await openChat(owner, conv.id);

    // Past the two-tab grace, the owner presents the rotated token: reuse, the family is revoked.
    await new Promise((r) => setTimeout(r, 10_500));
    expect((await owner.post("/api/auth/refresh")).status).toBe(401);
    for (const socket of [thiefChat, thiefInbox, ownerChat]) expect(await socket.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await deliveredAfter(conv, seller, sellerChat, thiefChat)).toBe(false);
    sellerChat.close();
  }, 60_000);

  it("a password change (every session revoked) closes every session's sockets", async () => {
    const conv = await createConversation();
    const phone = await signedInClient(conv.buyer.id);
    const laptop = await signedInClient(conv.buyer.id);
    const { seller, chat, inbox, sellerChat } = await connected(phone, conv);
    const laptopChat = await openChat(laptop, conv.id);

    // What the password change calls (there is no password-change route yet; decision 080).
    await revokeAllSessions(env, conv.buyer.id);
    for (const socket of [chat, inbox, laptopChat]) expect(await socket.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await deliveredAfter(conv, seller, sellerChat, laptopChat)).toBe(false);
    expect(sellerChat.closed).toBe(false);
    sellerChat.close();
  });

  it("a suspension closes the user's sockets, and nothing more is accepted from them", async () => {
    const conv = await createConversation();
    const buyer = await signedInClient(conv.buyer.id);
    const { seller, chat, inbox, sellerChat } = await connected(buyer, conv);
    const reporter = await signedInClient((await createUser()).id);
    expect((await reporter.post("/api/reports", { target_type: "user", target_id: conv.buyer.id, reason: "Trakassering" })).status).toBe(
      201,
    );
    const report = await env.DB.prepare("SELECT id FROM reports WHERE target_id = ?1").bind(conv.buyer.id).first<{ id: string }>();
    const moderator = await signedInClient((await createUser({ role: "moderator" })).id);
    expect(
      (await moderator.post(`/api/moderation/reports/${report!.id}/actions`, { action: "hide", notes: "Trakassering i chat" })).status,
    ).toBe(200);

    expect(await chat.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await inbox.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await deliveredAfter(conv, seller, sellerChat, chat)).toBe(false);
    // Reconnecting to read is allowed; sending is refused while the suspension lasts.
    const again = await openChat(buyer, conv.id);
    again.send({ type: "send", id: crypto.randomUUID(), content: "Fortsatt her" });
    expect((await again.waitFor((f) => f.type === "error")) as { code: string }).toMatchObject({ code: "SUSPENDED" });
    expect(await stored(conv.id, "Fortsatt her")).toBe(0);
    [again, sellerChat].forEach((s) => s.close());
  });

  it("deleting the account closes its sockets", async () => {
    const conv = await createConversation({ buyer: { password: PASSWORD } });
    const buyer = await signedInClient(conv.buyer.id);
    const { seller, chat, inbox, sellerChat } = await connected(buyer, conv);
    expect((await buyer.request("/api/me", { method: "DELETE", json: { password: PASSWORD } })).status).toBe(204);
    expect(await chat.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await inbox.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    // The conversation takes no more messages (a deleted participant); the seller's own socket stays.
    expect((await seller.post(`/api/conversations/${conv.id}/messages`, { id: crypto.randomUUID(), content: "Hallo?" })).status).toBe(409);
    expect(sellerChat.closed).toBe(false);
    sellerChat.close();
  });
});

// Each test waits for its own token to expire (5 s), on its own conversation and users: side by
// side they wait once, not four times.
describe.concurrent("an expired access token", () => {
  // Long enough for the sockets to connect on a busy machine (a 2 s token ran out while its sockets
  // were still connecting), and the wait counts from when the token was made.
  const TTL_SECONDS = 5;
  const expiringClient = async (userId: string) => {
    const client = await signedInClient(userId, { accessTtlSeconds: TTL_SECONDS });
    // Measured after the token exists, so the wait always ends after it has expired.
    const expiresBy = Date.now() + TTL_SECONDS * 1000 + 300;
    return { client, expired: () => new Promise((r) => setTimeout(r, Math.max(0, expiresBy - Date.now()))) };
  };

  it("closes an idle chat and inbox socket (the alarm) with the code that tells the client to refresh", async () => {
    const conv = await createConversation();
    const { client: buyer, expired } = await expiringClient(conv.buyer.id);
    const { seller, chat, inbox, sellerChat } = await connected(buyer, conv);
    await expired();
    // The alarms are due now; run them rather than wait for the runtime's timer.
    await runDurableObjectAlarm(env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conv.id)));
    await runDurableObjectAlarm(env.USER_INBOX.get(env.USER_INBOX.idFromName(conv.buyer.id)));
    expect(await chat.waitClosed()).toBe(SOCKET_CLOSE.expired);
    expect(await inbox.waitClosed()).toBe(SOCKET_CLOSE.expired);
    expect(await deliveredAfter(conv, seller, sellerChat, chat)).toBe(false);
    expect(sellerChat.closed).toBe(false);
    sellerChat.close();
  });

  // Fault injection: the room's alarm is removed, so only the checks on the frame and on the
  // fan-out stand between an expired socket and the conversation.
  const withoutAlarm = (conversationId: string) =>
    runInDurableObject(env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conversationId)), (_room: ConversationRoom, state) =>
      state.storage.deleteAlarm(),
    );

  it("a frame sent on an expired socket is not accepted; the socket is closed (even if the alarm is late)", async () => {
    const conv = await createConversation();
    const { client: buyer, expired } = await expiringClient(conv.buyer.id);
    const chat = await openChat(buyer, conv.id);
    await withoutAlarm(conv.id);
    await expired();
    expect(chat.closed).toBe(false);
    chat.send({ type: "send", id: crypto.randomUUID(), content: "For sent" });
    expect(await chat.waitClosed()).toBe(SOCKET_CLOSE.expired);
    expect(chat.ofType("ack")).toEqual([]);
    expect(await stored(conv.id, "For sent")).toBe(0);
  });

  it("an expired socket receives nothing more (even if the alarm is late)", async () => {
    const conv = await createConversation();
    const { client: buyer, expired } = await expiringClient(conv.buyer.id);
    const seller = await signedInClient(conv.seller.id);
    const chat = await openChat(buyer, conv.id);
    const sellerChat = await openChat(seller, conv.id);
    await withoutAlarm(conv.id);
    await expired();
    expect(chat.closed).toBe(false);
    expect(await deliveredAfter(conv, seller, sellerChat, chat)).toBe(false);
    expect(await chat.waitClosed()).toBe(SOCKET_CLOSE.expired);
    sellerChat.close();
  });

  it("a fresh token reconnects and catches up on what was missed", async () => {
    const conv = await createConversation();
    const seller = await signedInClient(conv.seller.id);
    const { client: expiring, expired } = await expiringClient(conv.buyer.id);
    const chat = await openChat(expiring, conv.id);
    await expired();
    await runDurableObjectAlarm(env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conv.id)));
    expect(await chat.waitClosed()).toBe(SOCKET_CLOSE.expired);
    expect(
      (await seller.post(`/api/conversations/${conv.id}/messages`, { id: crypto.randomUUID(), content: "Mens du fornyet" })).status,
    ).toBe(201);
    expect((await upgrade(expiring, `/api/conversations/${conv.id}/live`)).res.status).toBe(401);
    const renewed = await openChat(await signedInClient(conv.buyer.id), conv.id, 0);
    expect(renewed.ofType("sync").flatMap((f) => f.messages.map((m) => m.content))).toEqual(["Mens du fornyet"]);
    renewed.close();
  });
});

describe("sockets per user", () => {
  it(`a room takes at most ${ROOM_SOCKETS_PER_USER} of one user's sockets at once; the rest are refused before any catch-up`, async () => {
    const conv = await createConversation();
    const buyer = await signedInClient(conv.buyer.id);
    const seller = await signedInClient(conv.seller.id);
    const sellerChat = await openChat(seller, conv.id);
    const tries = await Promise.all(
      Array.from({ length: ROOM_SOCKETS_PER_USER + 3 }, () => upgrade(buyer, `/api/conversations/${conv.id}/live`)),
    );
    const sockets = tries.map((t) => t.socket!);
    await Promise.all(sockets.map((s) => s.waitFor((f) => f.type === "sync" && f.done).catch(() => undefined)));
    const refused = sockets.filter((s) => s.closed);
    expect(refused).toHaveLength(3);
    for (const s of refused) {
      expect(s.closeCode).toBe(SOCKET_CLOSE.tooMany);
      expect(s.closeReason).toBe("too many connections");
      expect(s.frames).toEqual([]); // no history replayed to a refused socket
    }
    // The other party is not affected; a place frees up when one closes.
    expect((await openChat(await signedInClient(conv.seller.id), conv.id)).closed).toBe(false);
    const open = sockets.filter((s) => !s.closed);
    open[0].close();
    await expect
      .poll(async () => {
        const next = await upgrade(buyer, `/api/conversations/${conv.id}/live`);
        const ok = await next
          .socket!.waitFor((f) => f.type === "sync")
          .then(
            () => true,
            () => false,
          );
        next.socket!.close();
        return ok;
      })
      .toBe(true);
    [...open, sellerChat].forEach((s) => s.close());
  });

  it(`the inbox takes at most ${INBOX_SOCKETS_PER_USER} sockets of its user`, async () => {
    const user = await createUser();
    const client = await signedInClient(user.id);
    const tries = await Promise.all(
      Array.from({ length: INBOX_SOCKETS_PER_USER + 2 }, () => upgrade<InboxFrame>(client, "/api/conversations/live")),
    );
    const sockets = tries.map((t) => t.socket!);
    await Promise.all(sockets.map((s) => s.waitFor((f) => f.type === "unread").catch(() => undefined)));
    const refused = sockets.filter((s) => s.closed);
    expect(refused).toHaveLength(2);
    expect(refused.map((s) => s.closeCode)).toEqual([SOCKET_CLOSE.tooMany, SOCKET_CLOSE.tooMany]);
    sockets.forEach((s) => s.close());
  });
});
