// The give-away queue over HTTP (docs/decisions/075-giveaway-queue.md): joining once and
// in order, who sees what, every move and every forbidden caller, the reservation's chat, giving
// away with the completed record and the notices (in-app and e-mail), the guards on the listing's
// own status menu, suspensions, account deletion, and the races fired concurrently.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { GIVEAWAY_CHAT_TEXTS, GIVEAWAY_ERROR_TEXTS as G, type GiveawayListingView } from "../../../domain/giveaways";
import type { Bindings } from "../../../worker/env";
import { deleteAccount, exportUserData } from "../../../worker/features/account/account";
import { giveawayDeal, type MyGiveawayPlace } from "../../../worker/features/giveaways/views";
import { createConversation, createListing, createUser, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import { postWith, staleReads } from "../support/race";

const SYSTEM = "00000000-0000-0000-0000-000000000000";

const listingStatus = async (id: string) =>
  (await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(id).first<{ status: string }>())?.status;
const entries = async (listingId: string) =>
  (
    await env.DB.prepare(
      "SELECT user_id, status, message, conversation_id, unseen FROM giveaway_queue WHERE listing_id = ?1 ORDER BY created_at, id",
    )
      .bind(listingId)
      .all<{ user_id: string; status: string; message: string; conversation_id: string | null; unseen: number }>()
  ).results;
const systemMessages = async (conversationId: string) =>
  (
    await env.DB.prepare("SELECT content FROM messages WHERE conversation_id = ?1 AND sender_id = ?2 ORDER BY seq")
      .bind(conversationId, SYSTEM)
      .all<{ content: string }>()
  ).results.map((r) => r.content);
const outbox = async (to: string) =>
  (
    await env.DB.prepare("SELECT subject, text_body FROM dev_outbox WHERE to_address = ?1")
      .bind(to)
      .all<{ subject: string; text_body: string }>()
  ).results;
const countRows = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;

/** A free listing with its giver (signed in) and `takers` people (signed in) who have not joined yet. */
async function freeListing(takers = 2, overrides: Parameters<typeof createListing>[0] = {}) {
  const giver = await createUser({ displayName: "Gro Giver" });
  const listing = await createListing({ userId: giver.id, isFree: true, title: "Duplo brannstasjon", ...overrides });
  const people = await Promise.all(Array.from({ length: takers }, (_, i) => createUser({ displayName: `Taker ${i + 1}` })));
  const clients = await Promise.all(people.map((p) => signedInClient(p.id)));
  return { giver, giverClient: await signedInClient(giver.id), listing, people, clients };
}

const base = (listingId: string) => `/api/giveaways/listings/${listingId}`;

async function join(client: Client, listingId: string, message = "Kan hente i kveld") {
  return client.post(`${base(listingId)}/queue`, { message });
}

async function view(client: Client, listingId: string): Promise<GiveawayListingView> {
  const res = await client.get(base(listingId));
  expect(res.status).toBe(200);
  return (await res.json()) as GiveawayListingView;
}

describe("joining the queue (POST …/queue, 'Jeg vil ha den')", () => {
  it("puts people in the queue in the order they joined, each with their message, and tells each their place", async () => {
    const { listing, clients, people, giverClient } = await freeListing(3);
    const first = await join(clients[0], listing.id, "  Til barnehagen vår  ");
    expect(first.status).toBe(201);
    expect(((await first.json()) as GiveawayListingView).mine).toMatchObject({
      status: "waiting",
      position: 1,
      message: "Til barnehagen vår",
    });
    expect((await join(clients[1], listing.id, "Sønnen min elsker brannbiler")).status).toBe(201);
    expect((await join(clients[2], listing.id, "Kan hente nå")).status).toBe(201);
    expect((await view(clients[1], listing.id)).mine?.position).toBe(2);
    const mine = await view(clients[2], listing.id);
    expect(mine).toMatchObject({ waiting_count: 3, reserved: false, given: false, queue: null, mine: { position: 3 } });
    const giverView = await view(giverClient, listing.id);
    expect(giverView.queue?.map((e) => [e.display_name, e.message, e.status])).toEqual([
      ["Taker 1", "Til barnehagen vår", "waiting"],
      ["Taker 2", "Sønnen min elsker brannbiler", "waiting"],
      ["Taker 3", "Kan hente nå", "waiting"],
    ]);
    expect(giverView.mine).toBeNull();
    expect((await entries(listing.id)).map((e) => e.user_id)).toEqual(people.map((p) => p.id));
  });

  it("is idempotent: joining again keeps the place and the first message", async () => {
    const { listing, clients } = await freeListing(2);
    await join(clients[0], listing.id, "Først");
    await join(clients[1], listing.id, "Andre");
    const again = await join(clients[0], listing.id, "Prøver igjen for å komme først");
    expect(again.status).toBe(200);
    expect(((await again.json()) as GiveawayListingView).mine).toMatchObject({ position: 1, message: "Først" });
    expect(await entries(listing.id)).toHaveLength(2);
  });

  it("joining five times at once stores one entry", async () => {
    const { listing, clients } = await freeListing(1);
    const responses = await Promise.all(Array.from({ length: 5 }, () => join(clients[0], listing.id)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(await entries(listing.id)).toHaveLength(1);
  });

  it("shows visitors and strangers only the count, never who is in the queue", async () => {
    const { listing, clients } = await freeListing(2);
    await join(clients[0], listing.id);
    await join(clients[1], listing.id);
    expect(await view(new Client(), listing.id)).toEqual({
      listing_id: listing.id,
      waiting_count: 2,
      reserved: false,
      given: false,
      mine: null,
      queue: null,
    });
    const stranger = await signedInClient((await createUser()).id);
    expect(await view(stranger, listing.id)).toMatchObject({ waiting_count: 2, mine: null, queue: null });
  });

  it.each([
    ["a visitor", 401, "UNAUTHENTICATED"],
    ["the giver", 403, G.ownListing],
  ] as const)("refuses %s (%i)", async (who, status, expected) => {
    const { listing, giverClient } = await freeListing(0);
    const res = await join(who === "the giver" ? giverClient : new Client(), listing.id);
    expect(res.status).toBe(status);
    const error = await errorOf(res);
    expect(who === "the giver" ? error.message : error.code).toBe(expected);
    expect(await entries(listing.id)).toEqual([]);
  });

  it("refuses a listing that is not free, hidden, deleted or unknown, and a toy already given away, with a reason", async () => {
    const taker = await signedInClient((await createUser()).id);
    const forSale = await createListing({ isFree: false });
    expect(await errorOf(await join(taker, forSale.id))).toMatchObject({ code: "CONFLICT", message: G.notFree });
    const hidden = await createListing({ isFree: true, isHidden: true });
    expect((await join(taker, hidden.id)).status).toBe(404);
    const deleted = await createListing({ isFree: true, status: "deleted" });
    expect((await join(taker, deleted.id)).status).toBe(404);
    expect((await join(taker, crypto.randomUUID())).status).toBe(404);
    const given = await createListing({ isFree: true, status: "given_away" });
    const res = await join(taker, given.id);
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe("Leken er allerede gitt bort.");
    expect(
      await countRows(
        "SELECT COUNT(*) AS n FROM giveaway_queue WHERE listing_id IN (?1, ?2, ?3, ?4)",
        forSale.id,
        hidden.id,
        deleted.id,
        given.id,
      ),
    ).toBe(0);
  });

  it("validates the message (400, Norwegian)", async () => {
    const { listing, clients } = await freeListing(1);
    const res = await clients[0].post(`${base(listing.id)}/queue`, { message: "   " });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).fields?.message).toBe("Skriv en kort melding til giveren");
    expect(await entries(listing.id)).toEqual([]);
  });

  it("refuses a suspended user (403 SUSPENDED) and writes nothing", async () => {
    const { listing, clients, people } = await freeListing(1);
    await suspend(people[0].id);
    const res = await join(clients[0], listing.id);
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe("SUSPENDED");
    expect(await entries(listing.id)).toEqual([]);
  });

  it("lets people join while the toy is reserved for someone else", async () => {
    const { listing, clients, giverClient } = await freeListing(2);
    await join(clients[0], listing.id);
    expect((await giverClient.post(`${base(listing.id)}/reserve`, {})).status).toBe(200);
    const res = await join(clients[1], listing.id);
    expect(res.status).toBe(201);
    expect(((await res.json()) as GiveawayListingView).mine?.position).toBe(1);
  });
});

async function suspend(userId: string) {
  await env.DB.prepare(
    "INSERT INTO user_moderation_status (user_id, is_suspended, suspended_until, suspension_reason) VALUES (?1, 1, ?2, ?3)",
  )
    .bind(userId, new Date(Date.now() + 86_400_000).toISOString(), "Spam")
    .run();
}

describe("leaving the queue (POST …/leave)", () => {
  it("takes the taker out; joining again starts at the back (the queue is by join time)", async () => {
    const { listing, clients, people } = await freeListing(3);
    for (const c of clients) await join(c, listing.id);
    const left = await clients[0].post(`${base(listing.id)}/leave`, {});
    expect(left.status).toBe(200);
    expect(((await left.json()) as GiveawayListingView).mine?.status).toBe("withdrawn");
    expect((await view(clients[1], listing.id)).mine?.position).toBe(1);
    const back = await join(clients[0], listing.id, "Angret meg");
    expect(back.status).toBe(201);
    expect(((await back.json()) as GiveawayListingView).mine).toMatchObject({ position: 3, message: "Angret meg" });
    expect((await entries(listing.id)).map((e) => e.user_id)).toEqual([people[1].id, people[2].id, people[0].id]);
  });

  it("out of a reservation: the listing is active again and the chat is told", async () => {
    const { listing, clients, giverClient } = await freeListing(1);
    await join(clients[0], listing.id);
    const reserved = (await (await giverClient.post(`${base(listing.id)}/reserve`, {})).json()) as GiveawayListingView;
    const conversationId = reserved.queue![0].conversation_id!;
    expect((await clients[0].post(`${base(listing.id)}/leave`, {})).status).toBe(200);
    expect(await listingStatus(listing.id)).toBe("active");
    expect(await systemMessages(conversationId)).toEqual([
      GIVEAWAY_CHAT_TEXTS.reserved("Duplo brannstasjon"),
      GIVEAWAY_CHAT_TEXTS.withdrawn,
    ]);
  });

  it("refuses someone who is not in the queue (409) and a visitor (401)", async () => {
    const { listing, clients } = await freeListing(1);
    expect(await errorOf(await clients[0].post(`${base(listing.id)}/leave`, {}))).toMatchObject({
      code: "CONFLICT",
      message: G.notInQueue,
    });
    expect((await new Client().post(`${base(listing.id)}/leave`, {})).status).toBe(401);
  });
});

describe("reserving (POST …/reserve)", () => {
  it("'Første i køen' reserves the earliest waiting: the listing shows reserved and the chat opens with a system message", async () => {
    const { listing, clients, people, giverClient, giver } = await freeListing(2);
    await join(clients[0], listing.id);
    await join(clients[1], listing.id);
    const res = await giverClient.post(`${base(listing.id)}/reserve`, {});
    expect(res.status).toBe(200);
    const panel = (await res.json()) as GiveawayListingView;
    expect(panel.queue?.map((e) => [e.display_name, e.status])).toEqual([
      ["Taker 1", "reserved"],
      ["Taker 2", "waiting"],
    ]);
    expect(panel).toMatchObject({ reserved: true, waiting_count: 1 });
    expect(await listingStatus(listing.id)).toBe("reserved");
    const conversationId = panel.queue![0].conversation_id!;
    const conv = await env.DB.prepare("SELECT listing_id, buyer_id, seller_id FROM conversations WHERE id = ?1")
      .bind(conversationId)
      .first();
    expect(conv).toEqual({ listing_id: listing.id, buyer_id: people[0].id, seller_id: giver.id });
    expect(await systemMessages(conversationId)).toEqual([GIVEAWAY_CHAT_TEXTS.reserved("Duplo brannstasjon")]);
    expect(await view(clients[0], listing.id)).toMatchObject({
      mine: { status: "reserved", position: null, conversation_id: conversationId },
    });
    expect((await view(clients[1], listing.id)).mine?.position).toBe(1);
    // The reserved listing is still public (with its "Reservert" badge): the detail answers for a visitor.
    expect((await new Client().get(`/api/listings/${listing.id}`)).status).toBe(200);
  });

  it("can pick anyone in the queue, and reuses a conversation the two already have", async () => {
    const giverAndFirst = await createConversation({ listing: { isFree: true, title: "Babygym" } });
    const { listing, seller: giver, buyer } = giverAndFirst;
    const second = await createUser({ displayName: "Siri" });
    const secondClient = await signedInClient(second.id);
    const giverClient = await signedInClient(giver.id);
    await join(await signedInClient(buyer.id), listing.id);
    await join(secondClient, listing.id);
    const secondEntry = (await view(giverClient, listing.id)).queue![1];
    const panel = (await (
      await giverClient.post(`${base(listing.id)}/reserve`, { entry_id: secondEntry.id })
    ).json()) as GiveawayListingView;
    expect(panel.queue?.find((e) => e.id === secondEntry.id)?.status).toBe("reserved");
    // The first taker's existing chat with the giver is untouched; the second gets a new one.
    expect(await systemMessages(giverAndFirst.id)).toEqual([]);
    await secondClient.post(`${base(listing.id)}/leave`, {});
    const again = (await (await giverClient.post(`${base(listing.id)}/reserve`, {})).json()) as GiveawayListingView;
    expect(again.queue?.find((e) => e.status === "reserved")?.conversation_id).toBe(giverAndFirst.id);
    expect(await systemMessages(giverAndFirst.id)).toEqual([GIVEAWAY_CHAT_TEXTS.reserved("Babygym")]);
  });

  it("only the giver reserves, releases and gives: takers, strangers and moderators 403, visitors 401; nothing changes", async () => {
    const { listing, clients } = await freeListing(2);
    await join(clients[0], listing.id);
    const stranger = await signedInClient((await createUser()).id);
    const moderator = await signedInClient((await createUser({ role: "moderator" })).id);
    for (const move of ["reserve", "release", "give"]) {
      for (const client of [clients[0], clients[1], stranger, moderator]) {
        const res = await client.post(`${base(listing.id)}/${move}`, {});
        expect(res.status).toBe(403);
        expect((await errorOf(res)).message).toBe(G.onlyGiver);
      }
      expect((await new Client().post(`${base(listing.id)}/${move}`, {})).status).toBe(401);
    }
    // Nobody but the giver reads who is in the queue, moderators included.
    expect((await view(moderator, listing.id)).queue).toBeNull();
    expect(await listingStatus(listing.id)).toBe("active");
    expect((await entries(listing.id)).map((e) => e.status)).toEqual(["waiting"]);
  });

  it("someone else's hidden listing does not exist (404) for a stranger", async () => {
    const { listing } = await freeListing(0, { isHidden: true });
    const stranger = await signedInClient((await createUser()).id);
    expect((await stranger.post(`${base(listing.id)}/reserve`, {})).status).toBe(404);
    expect((await stranger.get(base(listing.id))).status).toBe(404);
  });

  it("refuses with a reason: an empty queue, a second reservation, someone who left, a suspended giver", async () => {
    const { listing, clients, giverClient, giver } = await freeListing(2);
    expect(await errorOf(await giverClient.post(`${base(listing.id)}/reserve`, {}))).toMatchObject({
      code: "CONFLICT",
      message: G.emptyQueue,
    });
    await join(clients[0], listing.id);
    await join(clients[1], listing.id);
    const secondId = (await view(giverClient, listing.id)).queue![1].id;
    await clients[1].post(`${base(listing.id)}/leave`, {});
    expect((await errorOf(await giverClient.post(`${base(listing.id)}/reserve`, { entry_id: secondId }))).message).toBe(G.entryNotWaiting);
    expect((await giverClient.post(`${base(listing.id)}/reserve`, {})).status).toBe(200);
    await join(clients[1], listing.id);
    expect((await errorOf(await giverClient.post(`${base(listing.id)}/reserve`, {}))).message).toBe(G.alreadyReserved);
    await giverClient.post(`${base(listing.id)}/release`, {});
    await suspend(giver.id);
    expect((await errorOf(await giverClient.post(`${base(listing.id)}/reserve`, {}))).code).toBe("SUSPENDED");
    expect((await entries(listing.id)).filter((e) => e.status === "reserved")).toEqual([]);
  });
});

describe("releasing (POST …/release)", () => {
  it("ends the reservation: that person is out, the listing active again, the chat told; the next can be reserved", async () => {
    const { listing, clients, giverClient } = await freeListing(2);
    await join(clients[0], listing.id);
    await join(clients[1], listing.id);
    const conversationId = ((await (await giverClient.post(`${base(listing.id)}/reserve`, {})).json()) as GiveawayListingView).queue![0]
      .conversation_id!;
    const res = await giverClient.post(`${base(listing.id)}/release`, {});
    expect(res.status).toBe(200);
    expect(await listingStatus(listing.id)).toBe("active");
    expect(await systemMessages(conversationId)).toEqual([
      GIVEAWAY_CHAT_TEXTS.reserved("Duplo brannstasjon"),
      GIVEAWAY_CHAT_TEXTS.released,
    ]);
    expect((await view(clients[0], listing.id)).mine?.status).toBe("released");
    expect(await errorOf(await join(clients[0], listing.id))).toMatchObject({ code: "CONFLICT", message: G.released });
    const next = (await (await giverClient.post(`${base(listing.id)}/reserve`, {})).json()) as GiveawayListingView;
    expect(next.queue?.find((e) => e.status === "reserved")?.display_name).toBe("Taker 2");
  });

  it("refuses the taker (403) and a listing with no reservation (409)", async () => {
    const { listing, clients, giverClient } = await freeListing(1);
    await join(clients[0], listing.id);
    expect((await errorOf(await giverClient.post(`${base(listing.id)}/release`, {}))).message).toBe(G.notReserved);
    await giverClient.post(`${base(listing.id)}/reserve`, {});
    expect((await clients[0].post(`${base(listing.id)}/release`, {})).status).toBe(403);
    expect(await listingStatus(listing.id)).toBe("reserved");
  });
});

describe("giving it away (POST …/give)", () => {
  it("records the completed give-away, marks the listing given away and tells everyone still waiting (in-app and e-mail)", async () => {
    const giver = await createUser({ displayName: "Gro Giver" });
    const listing = await createListing({ userId: giver.id, isFree: true, title: "Sparkesykkel" });
    const giverClient = await signedInClient(giver.id);
    const [anna, bo, cato, dina] = await Promise.all(
      ["anna", "bo", "cato", "dina"].map((n) => createUser({ displayName: n.toUpperCase(), email: `${n}-gis-bort@test.lekebytte.no` })),
    );
    const [annaC, boC, catoC, dinaC] = await Promise.all([anna, bo, cato, dina].map((u) => signedInClient(u.id)));
    for (const c of [annaC, boC, catoC, dinaC]) await join(c, listing.id);
    await dinaC.post(`${base(listing.id)}/leave`, {});
    const boEntry = (await view(giverClient, listing.id)).queue!.find((e) => e.display_name === "BO")!;
    const reserved = (await (
      await giverClient.post(`${base(listing.id)}/reserve`, { entry_id: boEntry.id })
    ).json()) as GiveawayListingView;
    const conversationId = reserved.queue!.find((e) => e.status === "reserved")!.conversation_id!;
    const before = new Date().toISOString();
    const res = await giverClient.post(`${base(listing.id)}/give`, {});
    expect(res.status).toBe(200);
    expect(((await res.json()) as GiveawayListingView).given).toBe(true);
    expect(await listingStatus(listing.id)).toBe("given_away");
    const record = await env.DB.prepare("SELECT id, giver_id, taker_id, conversation_id, given_at FROM giveaways WHERE listing_id = ?1")
      .bind(listing.id)
      .first<Record<string, string>>();
    expect(record).toMatchObject({ giver_id: giver.id, taker_id: bo.id, conversation_id: conversationId });
    expect(record!.given_at >= before).toBe(true);
    // The deal reviews can refer to (sale, trade, give-away).
    expect(await giveawayDeal(env.DB, record!.id)).toEqual({
      kind: "giveaway",
      id: record!.id,
      listing_id: listing.id,
      giver_id: giver.id,
      taker_id: bo.id,
      completed_at: record!.given_at,
    });
    expect(await giveawayDeal(env.DB, crypto.randomUUID())).toBeNull();
    expect(Object.fromEntries((await entries(listing.id)).map((e) => [e.user_id, e.status]))).toEqual({
      [anna.id]: "passed",
      [bo.id]: "given",
      [cato.id]: "passed",
      [dina.id]: "withdrawn",
    });
    expect(await systemMessages(conversationId)).toEqual([
      GIVEAWAY_CHAT_TEXTS.reserved("Sparkesykkel"),
      GIVEAWAY_CHAT_TEXTS.given("Sparkesykkel"),
    ]);
    // E-mail to each one still waiting, none to the one who got it or the one who left.
    for (const who of ["anna", "cato"]) {
      const mail = await outbox(`${who}-gis-bort@test.lekebytte.no`);
      expect(mail.map((m) => m.subject)).toEqual(["«Sparkesykkel» er gitt bort"]);
      expect(mail[0].text_body).toContain("er gitt bort til en annen");
    }
    // The one who got it was told in the reservation's chat (and by the room's offline e-mail), not this.
    expect((await outbox("bo-gis-bort@test.lekebytte.no")).map((m) => m.subject)).not.toContain("«Sparkesykkel» er gitt bort");
    expect(await outbox("dina-gis-bort@test.lekebytte.no")).toEqual([]);
    // In-app: the notice count, "Mine køplasser", and it is seen once opened.
    expect(await (await annaC.get("/api/giveaways/mine/unseen")).json()).toEqual({ count: 1 });
    const places = (await (await annaC.get("/api/giveaways/mine")).json()) as MyGiveawayPlace[];
    expect(places.map((p) => [p.listing.title, p.status, p.unseen, p.listing.public])).toEqual([["Sparkesykkel", "passed", true, false]]);
    expect((await annaC.post("/api/giveaways/mine/seen", {})).status).toBe(204);
    expect(await (await annaC.get("/api/giveaways/mine/unseen")).json()).toEqual({ count: 0 });
    // The outcome stays readable for the people who queued, though the listing is no longer public.
    expect((await view(annaC, listing.id)).mine?.status).toBe("passed");
    expect((await new Client().get(base(listing.id))).status).toBe(404);
    // Joining now is refused with a clear reason.
    const late = await signedInClient((await createUser()).id);
    expect(await errorOf(await join(late, listing.id))).toMatchObject({ code: "CONFLICT", message: "Leken er allerede gitt bort." });
  });

  it("needs a reservation (409), only the giver may (403), and it happens once", async () => {
    const { listing, clients, giverClient } = await freeListing(1);
    await join(clients[0], listing.id);
    expect((await errorOf(await giverClient.post(`${base(listing.id)}/give`, {}))).message).toBe(G.notReserved);
    await giverClient.post(`${base(listing.id)}/reserve`, {});
    expect((await clients[0].post(`${base(listing.id)}/give`, {})).status).toBe(403);
    expect((await giverClient.post(`${base(listing.id)}/give`, {})).status).toBe(200);
    expect((await errorOf(await giverClient.post(`${base(listing.id)}/give`, {}))).message).toBe(G.givenAway);
    expect(await countRows("SELECT COUNT(*) AS n FROM giveaways WHERE listing_id = ?1", listing.id)).toBe(1);
  });
});

describe("the listing's own status menu and deletion while the queue holds it", () => {
  it("refuses status changes and deletion of a reserved listing, and status changes once given away (409)", async () => {
    const { listing, clients, giverClient } = await freeListing(1);
    await join(clients[0], listing.id);
    await giverClient.post(`${base(listing.id)}/reserve`, {});
    for (const status of ["active", "sold", "given_away"]) {
      const res = await giverClient.post(`/api/listings/${listing.id}/status`, { status });
      expect(res.status).toBe(409);
      expect((await errorOf(res)).message).toBe(G.heldByQueue);
    }
    const del = await giverClient.delete(`/api/listings/${listing.id}`);
    expect(del.status).toBe(409);
    expect((await errorOf(del)).message).toBe(G.heldByQueue);
    await giverClient.post(`${base(listing.id)}/give`, {});
    expect((await errorOf(await giverClient.post(`/api/listings/${listing.id}/status`, { status: "active" }))).message).toBe(G.heldByQueue);
    expect(await listingStatus(listing.id)).toBe("given_away");
  });
});

describe("the data export", () => {
  it("holds the user's own places with their messages and the give-aways they took part in, not others' messages", async () => {
    const { listing, clients, people, giverClient, giver } = await freeListing(2);
    await join(clients[0], listing.id, "Min melding");
    await join(clients[1], listing.id, "Den andres melding");
    await giverClient.post(`${base(listing.id)}/reserve`, {});
    await giverClient.post(`${base(listing.id)}/give`, {});
    const mine = (await exportUserData(env.DB, people[0].id)) as {
      giveaway_queue: { message: string; status: string }[];
      giveaways: { taker_id: string }[];
    };
    expect(mine.giveaway_queue.map((e) => [e.message, e.status])).toEqual([["Min melding", "given"]]);
    expect(mine.giveaways.map((g) => g.taker_id)).toEqual([people[0].id]);
    const givers = (await exportUserData(env.DB, giver.id)) as { giveaway_queue: unknown[]; giveaways: unknown[] };
    expect(givers.giveaway_queue).toEqual([]);
    expect(givers.giveaways).toHaveLength(1);
  });
});

describe("taking the listing off the market outside the queue", () => {
  it.each(["given_away", "sold"] as const)("status menu '%s': everyone waiting is passed and told in the app", async (status) => {
    const { listing, clients, giverClient } = await freeListing(2);
    await join(clients[0], listing.id);
    await join(clients[1], listing.id);
    expect((await giverClient.post(`/api/listings/${listing.id}/status`, { status })).status).toBe(200);
    expect((await entries(listing.id)).map((e) => [e.status, e.unseen])).toEqual([
      ["passed", 1],
      ["passed", 1],
    ]);
    expect(await (await clients[0].get("/api/giveaways/mine/unseen")).json()).toEqual({ count: 1 });
  });

  it("reserving by hand keeps the queue waiting", async () => {
    const { listing, clients, giverClient } = await freeListing(1);
    await join(clients[0], listing.id);
    expect((await giverClient.post(`/api/listings/${listing.id}/status`, { status: "reserved" })).status).toBe(200);
    expect((await entries(listing.id)).map((e) => e.status)).toEqual(["waiting"]);
  });

  it("deleting the listing passes everyone waiting", async () => {
    const { listing, clients, giverClient } = await freeListing(1);
    await join(clients[0], listing.id);
    expect((await giverClient.delete(`/api/listings/${listing.id}`)).status).toBe(204);
    expect((await entries(listing.id)).map((e) => e.status)).toEqual(["passed"]);
  });
});

describe("account deletion", () => {
  it("takes the user out of every queue and frees a listing reserved for them", async () => {
    const { listing, clients, people, giverClient } = await freeListing(2);
    await join(clients[0], listing.id);
    await join(clients[1], listing.id);
    await giverClient.post(`${base(listing.id)}/reserve`, {});
    await deleteAccount(env as Bindings, people[0].id);
    expect(await listingStatus(listing.id)).toBe("active");
    expect((await entries(listing.id)).map((e) => [e.status, e.message])).toEqual([
      ["withdrawn", ""],
      ["waiting", "Kan hente i kveld"],
    ]);
  });
});

describe("races", () => {
  it("two reserves of two different people at once: exactly one winner, one reservation, one chat message", async () => {
    const { listing, clients, giver } = await freeListing(2);
    await join(clients[0], listing.id);
    await join(clients[1], listing.id);
    const giverClients = await Promise.all([signedInClient(giver.id), signedInClient(giver.id)]);
    const queue = (await view(giverClients[0], listing.id)).queue!;
    const responses = await Promise.all(
      queue.map((entry, i) => giverClients[i].post(`${base(listing.id)}/reserve`, { entry_id: entry.id })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = responses.find((r) => r.status === 409)!;
    expect((await errorOf(loser)).message).toBe(G.alreadyReserved);
    const rows = await entries(listing.id);
    expect(rows.filter((e) => e.status === "reserved")).toHaveLength(1);
    expect(await listingStatus(listing.id)).toBe("reserved");
    expect(await countRows("SELECT COUNT(*) AS n FROM conversations WHERE listing_id = ?1", listing.id)).toBe(1);
    const conversationId = rows.find((e) => e.status === "reserved")!.conversation_id!;
    expect(await systemMessages(conversationId)).toHaveLength(1);
  });

  it("two reserves that both read the queue before either writes (forced): one winner", async () => {
    const { listing, clients, giver } = await freeListing(2);
    await join(clients[0], listing.id);
    await join(clients[1], listing.id);
    const giverClient = await signedInClient(giver.id);
    const queue = (await view(giverClient, listing.id)).queue!;
    const race = staleReads(/SELECT id, user_id, status, is_hidden, is_free FROM listings WHERE id = \?1/);
    const responses = await Promise.all(
      queue.map((entry) => postWith(race.env, giverClient, `${base(listing.id)}/reserve`, { entry_id: entry.id })),
    );
    expect(race.arrived).toBe(2);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await entries(listing.id)).filter((e) => e.status === "reserved")).toHaveLength(1);
  });

  it("ten 'Første i køen' at once: one reservation", async () => {
    const { listing, clients, giver } = await freeListing(3);
    for (const c of clients) await join(c, listing.id);
    const giverClients = await Promise.all(Array.from({ length: 10 }, () => signedInClient(giver.id)));
    const responses = await Promise.all(giverClients.map((c) => c.post(`${base(listing.id)}/reserve`, {})));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(9);
    expect((await entries(listing.id)).map((e) => e.status)).toEqual(["reserved", "waiting", "waiting"]);
  });

  it("give against release at once: exactly one of them happens", async () => {
    const { listing, clients, giver } = await freeListing(2);
    await join(clients[0], listing.id);
    await join(clients[1], listing.id);
    const [a, b] = await Promise.all([signedInClient(giver.id), signedInClient(giver.id)]);
    await a.post(`${base(listing.id)}/reserve`, {});
    const race = staleReads(/SELECT id, user_id, status, is_hidden, is_free FROM listings WHERE id = \?1/);
    const [give, release] = await Promise.all([
      postWith(race.env, a, `${base(listing.id)}/give`),
      postWith(race.env, b, `${base(listing.id)}/release`),
    ]);
    expect([give.status, release.status].sort()).toEqual([200, 409]);
    const status = await listingStatus(listing.id);
    const rows = await entries(listing.id);
    if (give.status === 200) {
      expect(status).toBe("given_away");
      expect(rows.map((e) => e.status)).toEqual(["given", "passed"]);
    } else {
      expect(status).toBe("active");
      expect(rows.map((e) => e.status)).toEqual(["released", "waiting"]);
      expect(await countRows("SELECT COUNT(*) AS n FROM giveaways WHERE listing_id = ?1", listing.id)).toBe(0);
    }
  });

  it("the taker leaving while the giver gives it away: one of them wins, never both", async () => {
    const { listing, clients, giver } = await freeListing(1);
    await join(clients[0], listing.id);
    const giverClient = await signedInClient(giver.id);
    await giverClient.post(`${base(listing.id)}/reserve`, {});
    const [give, leave] = await Promise.all([
      giverClient.post(`${base(listing.id)}/give`, {}),
      clients[0].post(`${base(listing.id)}/leave`, {}),
    ]);
    expect([give.status, leave.status].sort()).toEqual([200, 409]);
    const [entry] = await entries(listing.id);
    expect(await listingStatus(listing.id)).toBe(give.status === 200 ? "given_away" : "active");
    expect(entry.status).toBe(give.status === 200 ? "given" : "withdrawn");
  });
});
