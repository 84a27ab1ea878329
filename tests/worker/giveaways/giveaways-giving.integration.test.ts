// The give-away queue over HTTP (docs/decisions/075-giveaway-queue.md): reserving, releasing and
// giving away: every move and every forbidden caller, the reservation's chat, the completed record and
// the notices (in-app and e-mail), and suspensions.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { GIVEAWAY_CHAT_TEXTS, GIVEAWAY_ERROR_TEXTS as G, type GiveawayListingView } from "../../../domain/giveaways";
import { giveawayDeal, type MyGiveawayPlace } from "../../../worker/features/giveaways/views";
import { createConversation, createListing, createUser, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import { base, countRows, entries, freeListing, join, listingStatus, outbox, suspend, systemMessages, view } from "../support/giveaways";

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
