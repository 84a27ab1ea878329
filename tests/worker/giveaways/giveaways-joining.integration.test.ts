// The give-away queue over HTTP (docs/decisions/075-giveaway-queue.md): joining once and in order, who
// sees what, leaving, every forbidden caller, and suspensions.
import { describe, expect, it } from "vitest";
import { GIVEAWAY_CHAT_TEXTS, GIVEAWAY_ERROR_TEXTS as G, type GiveawayListingView } from "../../../domain/giveaways";
import { createListing, createUser, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import { base, countRows, entries, freeListing, join, listingStatus, suspend, systemMessages, view } from "../support/giveaways";

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
