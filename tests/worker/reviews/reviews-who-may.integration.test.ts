// Reviews after a completed sale, trade or give-away (decisions 070–072): who may review (only the two
// parties, once each, after completion, within 14 days), and two submits at once.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { reviewWindowClosesAt } from "../../../domain/reviews";
import { submitReview } from "../../../worker/features/reviews/reviews";
import { createCompletedTrade, createListing, createSale, createUser, DAY, signedInClient, type DealFixture } from "../../factories";
import { Client, errorOf } from "../support/http";
import { staleReads } from "../support/race";
import { actorOf, body, reviewCount } from "../support/reviews";

describe("who may review", () => {
  it.each(["sale", "trade"] as const)("each party of a completed %s may review the other once", async (kind) => {
    const deal = kind === "sale" ? await createSale() : await createCompletedTrade();
    const a = await signedInClient(deal.a.id);
    const b = await signedInClient(deal.b.id);
    const first = await a.post("/api/reviews", body(deal, 5));
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ rating: 5, text: "Hyggelig og rask handel.", reviewer: { id: deal.a.id } });
    expect((await b.post("/api/reviews", body(deal, 4, null))).status).toBe(201);
    const again = await a.post("/api/reviews", body(deal, 1));
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe("Du har allerede gitt en vurdering for denne handelen.");
    const rows = await env.DB.prepare("SELECT reviewer_id, reviewee_id, rating FROM reviews WHERE deal_id = ?1 ORDER BY rating DESC")
      .bind(deal.id)
      .all();
    expect(rows.results).toEqual([
      { reviewer_id: deal.a.id, reviewee_id: deal.b.id, rating: 5 },
      { reviewer_id: deal.b.id, reviewee_id: deal.a.id, rating: 4 },
    ]);
  });

  it("answers everyone who is not a party with 404 and writes nothing (another user, a moderator, an admin); visitors 401", async () => {
    const deal = await createSale();
    const strangers = [await createUser(), await createUser({ role: "moderator" }), await createUser({ role: "admin" })];
    for (const stranger of strangers) {
      const client = await signedInClient(stranger.id);
      const res = await client.post("/api/reviews", body(deal));
      expect(res.status).toBe(404);
      expect((await errorOf(res)).message).toBe("Fant ikke handelen.");
      expect((await client.get(`/api/reviews/deals/sale/${deal.id}`)).status).toBe(404);
      expect((await client.get(`/api/reviews/conversations/${deal.conversationId}`)).status).toBe(404);
    }
    expect((await new Client().post("/api/reviews", body(deal))).status).toBe(401);
    expect(await reviewCount(deal)).toBe(0);
  });

  it("giver and taker of a give-away may review each other once it is given, not while it is only reserved; nobody else", async () => {
    const giver = await createUser();
    const taker = await createUser();
    const listing = await createListing({ userId: giver.id, isFree: true, images: [] });
    const giverClient = await signedInClient(giver.id);
    const takerClient = await signedInClient(taker.id);
    expect((await takerClient.post(`/api/giveaways/listings/${listing.id}/queue`, { message: "Kan hente i morgen" })).status).toBe(201);
    expect((await giverClient.post(`/api/giveaways/listings/${listing.id}/reserve`, {})).status).toBe(200);
    // Reserved is no deal yet: there is no give-away record to review.
    const conversationId = (await env.DB.prepare("SELECT conversation_id FROM giveaway_queue WHERE listing_id = ?1")
      .bind(listing.id)
      .first<{ conversation_id: string }>())!.conversation_id;
    expect(await (await takerClient.get(`/api/reviews/conversations/${conversationId}`)).json()).toEqual([]);
    expect((await giverClient.post(`/api/giveaways/listings/${listing.id}/give`, {})).status).toBe(200);
    const given = (await env.DB.prepare("SELECT id FROM giveaways WHERE listing_id = ?1").bind(listing.id).first<{ id: string }>())!;
    const deal: DealFixture = {
      kind: "giveaway",
      id: given.id,
      conversationId,
      a: giver,
      b: taker,
      completedAt: new Date().toISOString(),
      listings: [listing],
    };
    expect(await (await takerClient.get(`/api/reviews/conversations/${conversationId}`)).json()).toMatchObject([
      { deal_kind: "giveaway", deal_id: given.id, can_review: true, other_user: { id: giver.id } },
    ]);
    const stranger = await signedInClient((await createUser()).id);
    expect((await stranger.post("/api/reviews", body(deal))).status).toBe(404);
    const fromTaker = await takerClient.post("/api/reviews", body(deal, 5));
    expect(fromTaker.status).toBe(201);
    expect(await fromTaker.json()).toMatchObject({ reviewer_role: "taker" });
    const fromGiver = await giverClient.post("/api/reviews", body(deal, 4));
    expect(fromGiver.status).toBe(201);
    expect(await fromGiver.json()).toMatchObject({ reviewer_role: "giver" });
    const rows = await env.DB.prepare("SELECT reviewer_id, reviewee_id FROM reviews WHERE deal_id = ?1 ORDER BY rating DESC")
      .bind(given.id)
      .all();
    expect(rows.results).toEqual([
      { reviewer_id: taker.id, reviewee_id: giver.id },
      { reviewer_id: giver.id, reviewee_id: taker.id },
    ]);
  });

  it("does not take a deal id of the wrong kind or an unknown id", async () => {
    const sale = await createSale();
    const client = await signedInClient(sale.a.id);
    expect((await client.post("/api/reviews", { ...body(sale), deal_kind: "trade" })).status).toBe(404);
    expect((await client.post("/api/reviews", { ...body(sale), deal_id: crypto.randomUUID() })).status).toBe(404);
    expect((await client.post("/api/reviews", { ...body(sale), deal_kind: "giveaway" })).status).toBe(404);
    expect((await client.get(`/api/reviews/deals/loan/${sale.id}`)).status).toBe(404);
    expect(await reviewCount(sale)).toBe(0);
  });

  it("refuses a sale whose money is still held (409): reviews open at release or refund, not at payment", async () => {
    const deal = await createSale({ orderState: "held" });
    const res = await (await signedInClient(deal.b.id)).post("/api/reviews", body(deal));
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe("Du kan gi vurdering når handelen er fullført.");
    expect(await reviewCount(deal)).toBe(0);
  });

  it("refuses a trade before both confirmed the handover (409), and a cancelled trade (404)", async () => {
    const agreed = await createCompletedTrade({ status: "accepted" });
    const res = await (await signedInClient(agreed.a.id)).post("/api/reviews", body(agreed));
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe("Du kan gi vurdering når handelen er fullført.");
    await env.DB.prepare("UPDATE trades SET status = 'cancelled' WHERE id = ?1").bind(agreed.id).run();
    expect((await (await signedInClient(agreed.a.id)).post("/api/reviews", body(agreed))).status).toBe(404);
    expect(await reviewCount(agreed)).toBe(0);
  });

  it("refuses after the 14 days (409), and takes a review up to the last moment before", async () => {
    const late = await createCompletedTrade({ completedAt: new Date(Date.now() - 14 * DAY - 1000).toISOString() });
    const res = await (await signedInClient(late.a.id)).post("/api/reviews", body(late));
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toMatch(/^Fristen for å gi vurdering er ute/);
    const inTime = await createCompletedTrade({ completedAt: new Date(Date.now() - 14 * DAY + 60_000).toISOString() });
    expect((await (await signedInClient(inTime.a.id)).post("/api/reviews", body(inTime))).status).toBe(201);
  });

  it("closes the window at exactly completion + 14 days", async () => {
    const deal = await createCompletedTrade();
    const closes = reviewWindowClosesAt(deal.completedAt);
    const db = env.DB;
    await expect(submitReview(db, actorOf(deal.a), body(deal), closes)).rejects.toMatchObject({ code: "CONFLICT" });
    const lastMoment = new Date(Date.parse(closes) - 1).toISOString();
    await expect(submitReview(db, actorOf(deal.a), body(deal), lastMoment)).resolves.toMatchObject({ rating: 5 });
  });

  it("does not let a suspended party review (403), and validates the stars in Norwegian", async () => {
    const deal = await createSale();
    await env.DB.prepare(
      "INSERT INTO user_moderation_status (user_id, is_suspended, suspended_until, suspension_reason) VALUES (?1, 1, ?2, 'Spam')",
    )
      .bind(deal.b.id, new Date(Date.now() + DAY).toISOString())
      .run();
    const suspended = await (await signedInClient(deal.b.id)).post("/api/reviews", body(deal));
    expect(suspended.status).toBe(403);
    const bad = await (await signedInClient(deal.a.id)).post("/api/reviews", body(deal, 0));
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).fields?.rating).toBe("Velg antall stjerner");
    expect(await reviewCount(deal)).toBe(0);
  });
});

describe("two submits at once", () => {
  it("stores exactly one review when both requests read “not reviewed yet” before either writes", async () => {
    const deal = await createCompletedTrade();
    const race = staleReads(/SELECT 1 AS x FROM reviews/);
    const db = race.env.DB;
    const results = await Promise.allSettled([
      submitReview(db, actorOf(deal.a), body(deal, 5)),
      submitReview(db, actorOf(deal.a), body(deal, 2)),
    ]);
    expect(race.arrived).toBe(2);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const loser = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(loser.reason).toMatchObject({ code: "CONFLICT", message: "Du har allerede gitt en vurdering for denne handelen." });
    expect(await reviewCount(deal)).toBe(1);
  });

  it("over HTTP too: ten concurrent submits by one party give one 201 and nine 409", async () => {
    const deal = await createSale();
    const client = await signedInClient(deal.b.id);
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => client.post("/api/reviews", body(deal))))).map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    expect(await reviewCount(deal)).toBe(1);
  });
});
