// "Innlogget på", "Logg ut" per device, "Logg ut alle andre" and "Endre passord" (docs/decisions/
// 125-account-recovery.md, 080): each device's session with its browser, system, place and last
// seen; ending a session closes its chat and inbox sockets at once, and the session that asked stays.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CREDENTIAL_MESSAGES } from "../../../domain/credentials";
import { SOCKET_CLOSE, type InboxFrame } from "../../../domain/chat";
import { RATE_RULES } from "../../../domain/rate-limits";
import type { Device } from "../../../worker/features/auth/devices";
import { createConversation, createUser } from "../../factories";
import { PASSWORD, signedInAs, waitForMail } from "../support/accounts";
import { Client, errorOf } from "../support/http";
import { openChat, upgrade } from "../support/live";
import { countAttempts } from "../support/rate-limits";

/** Each test signs in with real password hashing (scrypt) a few times: generous on a busy machine. */
const SLOW = { timeout: 60_000 };

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0";

let addresses = 0;

/** Signs in from a device of its own: its user agent, its address, and where the platform places it. */
async function signInFrom(email: string, userAgent: string, place?: { city: string; country: string }): Promise<Client> {
  addresses += 1;
  const client = new Client();
  const send = client.send;
  client.send = (request) => send(new Request(request, place ? { cf: place } : {}));
  const res = await client.post(
    "/api/auth/signin",
    { email, password: PASSWORD },
    { headers: { "User-Agent": userAgent, "CF-Connecting-IP": `100.64.0.${addresses}` } },
  );
  expect(res.status).toBe(200);
  client.send = send;
  return client;
}

/** A buyer with a known password, signed in on a phone and on a laptop, each with its chat and badge sockets open. */
async function twoDevices() {
  const conv = await createConversation();
  await env.DB.prepare("UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE id = ?2) WHERE id = ?1")
    .bind(conv.buyer.id, (await createUser({ password: PASSWORD })).id)
    .run();
  const phone = await signInFrom(conv.buyer.email, IPHONE, { city: "Bergen", country: "NO" });
  const laptop = await signInFrom(conv.buyer.email, WINDOWS);
  const inbox = async (client: Client) => {
    const { socket } = await upgrade<InboxFrame>(client, "/api/conversations/live");
    await socket!.waitFor((f) => f.type === "unread");
    return socket!;
  };
  return {
    conv,
    phone,
    laptop,
    phoneChat: await openChat(phone, conv.id),
    phoneInbox: await inbox(phone),
    laptopChat: await openChat(laptop, conv.id),
  };
}

async function devicesOf(client: Client): Promise<Device[]> {
  const res = await client.get("/api/me/sessions");
  expect(res.status).toBe(200);
  expect(res.headers.get("Cache-Control")).toContain("no-store");
  return (await res.json()) as Device[];
}

describe("Innlogget på", SLOW, () => {
  it("lists each device's session: browser, system, place, signed in and last seen, this one first", async () => {
    const { laptop } = await twoDevices();
    const devices = await devicesOf(laptop);
    expect(devices).toHaveLength(2);
    expect(devices[0]).toMatchObject({ current: true, browser: "Microsoft Edge", system: "Windows 10", kind: "desktop", city: null });
    expect(devices[1]).toMatchObject({
      current: false,
      browser: "Safari",
      system: "iOS 17.4",
      kind: "mobile",
      city: "Bergen",
      country: "NO",
    });
    for (const d of devices) expect(Date.parse(d.last_seen_at)).toBeGreaterThanOrEqual(Date.parse(d.signed_in_at));
  });

  it("'Logg ut' of another device ends that session and closes its sockets at once; this one goes on", async () => {
    const { phone, laptop, phoneChat, phoneInbox, laptopChat } = await twoDevices();
    const phoneSession = (await devicesOf(laptop)).find((d) => !d.current)!;
    const res = await laptop.delete(`/api/me/sessions/${phoneSession.id}`);
    expect(res.status).toBe(204);
    expect(await phoneChat.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await phoneInbox.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await signedInAs(phone)).toBeNull();
    expect((await phone.post("/api/auth/refresh")).status).toBe(401);
    expect(laptopChat.closed).toBe(false);
    expect(await signedInAs(laptop)).not.toBeNull();
    expect((await devicesOf(laptop)).map((d) => d.current)).toEqual([true]);
  });

  it("another account's session, an ended one and a malformed id are not found, and nothing changes", async () => {
    const { laptop } = await twoDevices();
    const stranger = await createUser({ password: PASSWORD });
    const strangerClient = await signInFrom(stranger.email, IPHONE);
    const strangersSession = (await devicesOf(strangerClient))[0]!;
    for (const id of [strangersSession.id, crypto.randomUUID(), "ikke-en-id"]) {
      const res = await laptop.delete(`/api/me/sessions/${id}`);
      expect(res.status).toBe(404);
      expect((await errorOf(res)).message).toBe(CREDENTIAL_MESSAGES.sessionNotFound);
    }
    expect(await signedInAs(strangerClient)).toBe(stranger.email);
    expect(await devicesOf(laptop)).toHaveLength(2);
  });

  it("'Logg ut alle andre' ends every other session and its sockets; this session's socket stays open", async () => {
    const { conv, phone, laptop, phoneChat, phoneInbox, laptopChat } = await twoDevices();
    const third = await signInFrom(conv.buyer.email, IPHONE);
    expect((await laptop.post("/api/me/sessions/sign-out-others")).status).toBe(204);
    expect(await phoneChat.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await phoneInbox.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await signedInAs(phone)).toBeNull();
    expect(await signedInAs(third)).toBeNull();
    expect(await signedInAs(laptop)).toBe(conv.buyer.email);
    // This session's socket still carries messages.
    const id = crypto.randomUUID();
    laptopChat.send({ type: "send", id, content: "Fortsatt her" });
    await laptopChat.waitFor((f) => f.type === "ack" && f.id === id);
    expect(laptopChat.closed).toBe(false);
  });

  it("ending sessions is limited per user", async () => {
    const { laptop, conv } = await twoDevices();
    await countAttempts(RATE_RULES.sessionEnd, conv.buyer.id);
    const res = await laptop.post("/api/me/sessions/sign-out-others");
    expect(res.status).toBe(429);
    expect(await devicesOf(laptop)).toHaveLength(2);
  });

  it("needs a session", async () => {
    const visitor = new Client();
    expect((await visitor.get("/api/me/sessions")).status).toBe(401);
    expect((await visitor.post("/api/me/sessions/sign-out-others")).status).toBe(401);
  });
});

describe("Endre passord", SLOW, () => {
  it("needs the current password; the other sessions and their sockets end, this one stays; the notice is mailed", async () => {
    const { conv, phone, laptop, phoneChat, laptopChat } = await twoDevices();
    const wrong = await laptop.post("/api/me/password", {
      current_password: "feil",
      password: "nyttpassord",
      password_confirm: "nyttpassord",
    });
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).fields).toEqual({ current_password: "Feil passord. Prøv igjen." });
    expect(await signedInAs(phone)).not.toBeNull();

    const res = await laptop.post("/api/me/password", {
      current_password: PASSWORD,
      password: "nyttpassord",
      password_confirm: "nyttpassord",
    });
    expect(res.status).toBe(204);
    expect(await phoneChat.waitClosed()).toBe(SOCKET_CLOSE.sessionEnded);
    expect(await signedInAs(phone)).toBeNull();
    expect(await signedInAs(laptop)).toBe(conv.buyer.email);
    expect(laptopChat.closed).toBe(false);
    await waitForMail(conv.buyer.email, "Passordet ditt er endret");
    const signin = (password: string) =>
      new Client().post("/api/auth/signin", { email: conv.buyer.email, password }, { headers: { "CF-Connecting-IP": "100.64.9.9" } });
    expect((await signin("nyttpassord")).status).toBe(200);
    expect((await signin(PASSWORD)).status).toBe(400);
  });

  it("the new password is typed twice by the sign-up rules", async () => {
    const user = await createUser({ password: PASSWORD });
    const client = await signInFrom(user.email, WINDOWS);
    const res = await client.post("/api/me/password", { current_password: PASSWORD, password: "nyttpassord", password_confirm: "nytt" });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields).toEqual({ password_confirm: "Passordene er ikke like." });
  });
});
