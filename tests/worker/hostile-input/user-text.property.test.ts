// Hostile input through the Worker's real fetch (./rules.ts; docs/security.md; docs/decisions/061):
// what people write (chat messages, trade offer and give-away messages, the contact form) is cleaned
// like a listing's text, and a text with nothing visible left is empty. Every answer holds the suite's
// three rules: no 5xx, a refusal is a 4xx with a Norwegian message, and a refusal changes nothing
// stored.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { GIVEAWAY_MESSAGE_REQUIRED_TEXT } from "../../../domain/schemas/giveaways";
import { MESSAGE_EMPTY_TEXT } from "../../../domain/schemas/chat";
import { createConversation, createListing, createUser, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import { mirrored, openChat } from "../support/live";
import { storedState } from "../support/state";
import { judge } from "./rules";

describe("user text is cleaned like a listing's (domain/schemas/user-text.ts, decision 081)", () => {
  // What a person may write, and what is stored: controls (NUL, ESC, bell), bidi overrides and the
  // BOM go; line breaks, tabs and the joiner inside an emoji stay.
  const CLEANED = [
    { input: "Hei\u0000 der", stored: "Hei der", oneLine: "Hei der" },
    { input: "Rød\u001b[2J bil\u0007", stored: "Rød[2J bil", oneLine: "Rød[2J bil" },
    { input: "\u202eevil\u202c tekst\u2066", stored: "evil tekst", oneLine: "evil tekst" },
    { input: "\ufeffHenter i morgen", stored: "Henter i morgen", oneLine: "Henter i morgen" },
    { input: "linje 1\r\nlinje 2\r\tinnrykk", stored: "linje 1\nlinje 2\n\tinnrykk", oneLine: "linje 1  linje 2  innrykk" },
    { input: "👨‍👩‍👧 til familien", stored: "👨‍👩‍👧 til familien", oneLine: "👨‍👩‍👧 til familien" },
  ];
  // Nothing visible is left after cleaning: that is an empty text.
  const INVISIBLE = ["\u200b", "\u200b\u200c\u200d", " \u2060\n\u200b ", "\u0000\u001b", "\u202e\u202c", "\ufeff\u00ad"];

  const column = async (sql: string, id: string) => (await env.DB.prepare(sql).bind(id).first<{ v: string | null }>())?.v;

  it.each(CLEANED)("a chat message over the socket and over HTTP: $stored", async ({ input, stored }) => {
    const conv = await createConversation();
    const client = await signedInClient(conv.buyer.id);
    const socket = await openChat(client, conv.id);
    const id = crypto.randomUUID();
    socket.send({ type: "send", id, content: input });
    await socket.waitFor((f) => f.type === "ack");
    await mirrored(conv.id);
    expect(await column("SELECT content AS v FROM messages WHERE id = ?1", id)).toBe(stored);
    const viaHttp = crypto.randomUUID();
    await judge(await client.post(`/api/conversations/${conv.id}/messages`, { id: viaHttp, content: input }));
    await mirrored(conv.id);
    expect(await column("SELECT content AS v FROM messages WHERE id = ?1", viaHttp)).toBe(stored);
    socket.close();
  });

  it.each(INVISIBLE)("an invisible chat message (%j) is empty: refused over the socket and HTTP, nothing stored", async (input) => {
    const conv = await createConversation();
    const client = await signedInClient(conv.buyer.id);
    const socket = await openChat(client, conv.id);
    const before = await storedState();
    const id = crypto.randomUUID();
    socket.send({ type: "send", id, content: input });
    expect(await socket.waitFor((f) => f.type === "error" && f.id === id)).toMatchObject({
      code: "VALIDATION",
      message: MESSAGE_EMPTY_TEXT,
    });
    const res = await client.post(`/api/conversations/${conv.id}/messages`, { id: crypto.randomUUID(), content: input });
    expect(await judge(res, before)).toBe(400);
    socket.close();
  });

  it.each(CLEANED)("a trade offer's message: $stored", async ({ input, stored }) => {
    const sender = await createUser();
    const wanted = await createListing({ userId: (await createUser()).id, isTradeOffer: true });
    const mine = await createListing({ userId: sender.id });
    const res = await (await signedInClient(sender.id)).post("/api/trade-offers", {
      requested_listing_id: wanted.id,
      offered_listing_id: mine.id,
      message: input,
    });
    expect(await judge(res.clone())).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(await column("SELECT message AS v FROM trade_offers WHERE id = ?1", id)).toBe(stored);
  });

  it.each(INVISIBLE)("an invisible trade offer message (%j) is no message", async (input) => {
    const sender = await createUser();
    const wanted = await createListing({ userId: (await createUser()).id, isTradeOffer: true });
    const mine = await createListing({ userId: sender.id });
    const res = await (await signedInClient(sender.id)).post("/api/trade-offers", {
      requested_listing_id: wanted.id,
      offered_listing_id: mine.id,
      message: input,
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(await column("SELECT message AS v FROM trade_offers WHERE id = ?1", id)).toBeNull();
  });

  it.each(CLEANED)("a give-away queue message: $stored", async ({ input, stored }) => {
    const listing = await createListing({ userId: (await createUser()).id, isFree: true });
    const taker = await createUser();
    expect(
      await judge(await (await signedInClient(taker.id)).post(`/api/giveaways/listings/${listing.id}/queue`, { message: input })),
    ).toBe(201);
    const row = await env.DB.prepare("SELECT message AS v FROM giveaway_queue WHERE listing_id = ?1 AND user_id = ?2")
      .bind(listing.id, taker.id)
      .first<{ v: string }>();
    expect(row?.v).toBe(stored);
  });

  it.each(INVISIBLE)("an invisible give-away message (%j) is empty: refused with the normal message", async (input) => {
    const listing = await createListing({ userId: (await createUser()).id, isFree: true });
    const client = await signedInClient((await createUser()).id);
    const before = await storedState();
    const res = await client.post(`/api/giveaways/listings/${listing.id}/queue`, { message: input });
    expect(await judge(res.clone(), before)).toBe(400);
    expect((await errorOf(res)).message).toBe(GIVEAWAY_MESSAGE_REQUIRED_TEXT);
  });

  it.each(CLEANED)("the contact form's name, subject (one line) and message: $stored", async ({ input, stored, oneLine }) => {
    const marker = crypto.randomUUID();
    const res = await new Client().post(
      "/api/contact",
      { name: `${input} ${marker}`, email: "ola@eksempel.no", subject: input, message: input },
      { headers: { "CF-Connecting-IP": `10.20.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` } },
    );
    expect(await judge(res)).toBe(201);
    const row = await env.DB.prepare("SELECT name, subject, message FROM contact_messages WHERE name LIKE ?1")
      .bind(`%${marker}`)
      .first<{ name: string; subject: string; message: string }>();
    expect(row).toEqual({ name: `${oneLine} ${marker}`, subject: oneLine, message: stored });
  });

  it.each(INVISIBLE)("an invisible contact message (%j) is empty: refused with the normal message", async (input) => {
    const before = await storedState();
    const res = await new Client().post("/api/contact", { name: "Ola", email: "ola@eksempel.no", subject: "Hei", message: input });
    expect(await judge(res.clone(), before)).toBe(400);
    expect((await errorOf(res)).message).toBe("Fyll ut melding");
  });
});

// ------------------------------------------------------------------------------------------------
