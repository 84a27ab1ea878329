// The give-away queue over HTTP (docs/decisions/075-giveaway-queue.md): the guards on the listing's
// own status menu, taking the listing off the market outside the queue, the data export, account
// deletion, and the races fired concurrently.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { GIVEAWAY_ERROR_TEXTS as G } from "../../../domain/giveaways";
import type { Bindings } from "../../../worker/env";
import { deleteAccount, exportUserData } from "../../../worker/features/account/account";
import { signedInClient } from "../../factories";
import { errorOf } from "../support/http";
import { postWith, staleReads } from "../support/race";
import { base, countRows, entries, freeListing, join, listingStatus, systemMessages, view } from "../support/giveaways";

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
