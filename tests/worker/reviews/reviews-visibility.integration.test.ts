// Reviews after a completed sale, trade or give-away (decisions 070–072): blind visibility (hidden
// until both wrote or the window closed), the seller's average, the chat's prompt, the public profile
// and its edge page, and reporting and hiding a review.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SYSTEM_USER_ID } from "../../../domain/chat";
import { reviewWindowClosesAt } from "../../../domain/reviews";
import { conversationReviewStates, publicProfile } from "../../../worker/features/reviews/reviews";
import { createCompletedTrade, createListing, createReview, createSale, createUser, DAY, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import { actorOf, body, profileOf, stateOf } from "../support/reviews";

describe("blind visibility", () => {
  it("keeps a review hidden until the other party has written, then shows both", async () => {
    const deal = await createCompletedTrade();
    const a = await signedInClient(deal.a.id);
    expect((await a.post("/api/reviews", body(deal, 5, "Supert bytte!"))).status).toBe(201);

    expect(await profileOf(deal.b)).toMatchObject({ rating: { count: 0, average: null }, reviews: [] });
    expect(await stateOf(deal.b, deal)).toMatchObject({ can_review: true, other_has_reviewed: true, their_review: null, my_review: null });
    expect(await stateOf(deal.a, deal)).toMatchObject({
      can_review: false,
      other_has_reviewed: false,
      their_review: null,
      my_review: { rating: 5 },
    });

    const b = await signedInClient(deal.b.id);
    expect((await b.post("/api/reviews", body(deal, 3, "Litt sen, ellers greit."))).status).toBe(201);
    const profileB = await profileOf(deal.b);
    expect(profileB.rating).toEqual({ count: 1, average: 5 });
    expect(profileB.reviews).toMatchObject([{ rating: 5, text: "Supert bytte!", reviewer: { id: deal.a.id }, reviewer_role: "trader" }]);
    expect((await profileOf(deal.a)).reviews).toMatchObject([{ rating: 3, text: "Litt sen, ellers greit.", reviewer: { id: deal.b.id } }]);
    expect(await stateOf(deal.a, deal)).toMatchObject({ their_review: { rating: 3 }, my_review: { rating: 5 } });
    expect(await stateOf(deal.b, deal)).toMatchObject({ their_review: { rating: 5 }, my_review: { rating: 3 } });

    // The conversation was told twice, from Lekebytte, without the reviews' content.
    const { results } = await env.DB.prepare("SELECT sender_id, content FROM messages WHERE conversation_id = ?1 ORDER BY seq")
      .bind(deal.conversationId)
      .all<{ sender_id: string; content: string }>();
    expect(results.map((m) => m.sender_id)).toEqual([SYSTEM_USER_ID, SYSTEM_USER_ID]);
    expect(results[0].content).toMatch(
      /^Siri Sender har gitt en vurdering av handelen\. Gi din vurdering innen \d+\. \S+ \d{4} – vurderingene vises når dere begge har skrevet\.$/,
    );
    expect(results[1].content).toBe("Dere har begge gitt en vurdering. Vurderingene vises nå på profilene deres.");
    expect(results.some((m) => m.content.includes("Supert bytte"))).toBe(false);
  });

  it("shows a lone review from the instant the window closes, not a millisecond before", async () => {
    const deal = await createSale();
    await createReview(deal, deal.b, deal.a, { rating: 4 });
    const closes = reviewWindowClosesAt(deal.completedAt);
    const db = env.DB;
    const before = await publicProfile(db, deal.a.id, 0, new Date(Date.parse(closes) - 1).toISOString());
    expect(before.reviews).toEqual([]);
    expect(before.rating.count).toBe(0);
    const at = await publicProfile(db, deal.a.id, 0, closes);
    expect(at.reviews).toMatchObject([{ rating: 4, reviewer_role: "buyer" }]);
    expect(at.rating).toEqual({ count: 1, average: 4 });
  });

  it("puts the seller's average and count on the listing page", async () => {
    const seller = await createUser({ displayName: "Vera Vurdert" });
    const first = await createSale({ seller });
    const second = await createSale({ seller });
    for (const deal of [first, second]) await createReview(deal, deal.a, deal.b);
    await createReview(first, first.b, seller, { rating: 5 });
    await createReview(second, second.b, seller, { rating: 4 });
    const listing = await createListing({ userId: seller.id });
    const detail = (await (await new Client().get(`/api/listings/${listing.id}`)).json()) as { seller: { rating: unknown } };
    expect(detail.seller.rating).toEqual({ count: 2, average: 4.5 });
  });

  it("gives the chat's prompt the conversation's completed deals, for its parties only", async () => {
    const deal = await createCompletedTrade();
    const states = await conversationReviewStates(env.DB, actorOf(deal.b), deal.conversationId);
    expect(states).toMatchObject([{ deal_kind: "trade", deal_id: deal.id, can_review: true, other_user: { id: deal.a.id } }]);
    const res = await (await signedInClient(deal.a.id)).get(`/api/reviews/conversations/${deal.conversationId}`);
    expect(await res.json()).toMatchObject([{ deal_id: deal.id, other_user: { id: deal.b.id } }]);
  });
});

describe("the public profile", () => {
  it("shows name, member since, active listings, the average and the reviews; 404 for unknown and deleted users", async () => {
    const deal = await createSale();
    await createListing({ userId: deal.a.id, title: "Aktiv togbane" });
    await createListing({ userId: deal.a.id, title: "Skjult", isHidden: true });
    await createReview(deal, deal.a, deal.b);
    await createReview(deal, deal.b, deal.a, { rating: 4, text: "Fin selger" });
    const profile = await profileOf(deal.a);
    expect(profile).toMatchObject({ id: deal.a.id, display_name: "Selma Selger", listing_count: 1, rating: { count: 1, average: 4 } });
    expect(profile.listings.map((l) => l.title)).toEqual(["Aktiv togbane"]);
    expect(profile.reviews).toMatchObject([{ text: "Fin selger", reviewer_role: "buyer", reviewer: { display_name: "Kjell Kjøper" } }]);

    const deleted = await createUser({ deletedAt: new Date().toISOString() });
    for (const id of [crypto.randomUUID(), deleted.id, "ikke-en-id", "00000000-0000-0000-0000-000000000000"]) {
      expect((await new Client().get(`/api/users/${id}`)).status).toBe(404);
      expect((await new Client().get(`/bruker/${id}`)).status).toBe(404);
    }
  });

  it("renders /bruker/{id} at the edge with escaped meta tags, the profile inlined and noindex", async () => {
    const user = await createUser({ displayName: `Ola "<script>alert(1)</script>` });
    const res = await new Client().get(`/bruker/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Robots-Tag")).toBe("noindex");
    const html = await res.text();
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain(`<title>Ola "&lt;script&gt;alert(1)&lt;/script&gt; | Lekebytte</title>`);
    expect(html).toContain(`<meta property="og:title" content="Ola &quot;&lt;script&gt;alert(1)&lt;/script&gt; | Lekebytte" />`);
    expect(html).toContain("Ingen vurderinger ennå.");
    expect(html).toContain(`<link rel="canonical" href="http://localhost/bruker/${user.id}" />`);
    expect(html).toContain(`"/api/users/${user.id}":{`);
  });

  it("keeps a suspended user's profile and reviews visible", async () => {
    const deal = await createSale();
    await createReview(deal, deal.a, deal.b);
    await createReview(deal, deal.b, deal.a);
    await env.DB.prepare("INSERT INTO user_moderation_status (user_id, is_suspended, suspended_until) VALUES (?1, 1, ?2)")
      .bind(deal.a.id, new Date(Date.now() + DAY).toISOString())
      .run();
    expect((await profileOf(deal.a)).rating.count).toBe(1);
  });
});

describe("reporting and hiding a review", () => {
  it("lets others report a shown review; not one's own (403) nor one still blind (404)", async () => {
    const deal = await createSale();
    const blind = await createReview(deal, deal.a, deal.b);
    const reader = await signedInClient((await createUser()).id);
    const report = (id: string) => ({ target_type: "review", target_id: id, reason: "Trakassering" });
    expect((await reader.post("/api/reports", report(blind))).status).toBe(404);
    const shown = await createReview(deal, deal.b, deal.a);
    expect((await reader.post("/api/reports", report(shown))).status).toBe(201);
    const own = await (await signedInClient(deal.b.id)).post("/api/reports", report(shown));
    expect(own.status).toBe(403);
    expect((await errorOf(own)).message).toBe("Du kan ikke rapportere din egen vurdering.");
    // The reviewee may report the review about them.
    expect((await (await signedInClient(deal.a.id)).post("/api/reports", report(shown))).status).toBe(201);
  });

  it("a moderator's hide takes it off the profile and out of the average; unhide brings it back", async () => {
    const deal = await createSale();
    await createReview(deal, deal.a, deal.b, { rating: 5 });
    const bad = await createReview(deal, deal.b, deal.a, { rating: 1, text: "Stygg tekst" });
    const other = await createSale({ seller: deal.a });
    await createReview(other, other.a, other.b);
    await createReview(other, other.b, deal.a, { rating: 5 });
    expect((await profileOf(deal.a)).rating).toEqual({ count: 2, average: 3 });

    expect(
      (
        await (
          await signedInClient((await createUser()).id)
        ).post("/api/reports", { target_type: "review", target_id: bad, reason: "Trakassering" })
      ).status,
    ).toBe(201);
    const moderator = await signedInClient((await createUser({ role: "moderator" })).id);
    const dashboard = (await (await moderator.get("/api/moderation/reports?status=pending")).json()) as {
      items: { report_id: string; target_id: string; target_title: string; target: { preview: string; url: string } }[];
    };
    const card = dashboard.items.find((i) => i.target_id === bad)!;
    expect(card.target_title).toBe("Vurdering av Selma Selger");
    expect(card.target.preview).toBe("1 av 5 stjerner: Stygg tekst");
    expect(card.target.url).toBe(`/bruker/${deal.a.id}`);
    expect(
      (await moderator.post(`/api/moderation/reports/${card.report_id}/actions`, { action: "hide", notes: "Personangrep" })).status,
    ).toBe(200);

    const hidden = await profileOf(deal.a);
    expect(hidden.rating).toEqual({ count: 1, average: 5 });
    expect(hidden.reviews.map((r) => r.id)).not.toContain(bad);
    expect(await env.DB.prepare("SELECT is_hidden, hidden_reason FROM reviews WHERE id = ?1").bind(bad).first()).toEqual({
      is_hidden: 1,
      hidden_reason: "Trakassering: Personangrep",
    });
    // A review cannot be "deleted" (only hidden, warned about, or approved).
    expect((await moderator.post(`/api/moderation/targets/review/${bad}/unhide`, {})).status).toBe(200);
    expect((await profileOf(deal.a)).rating).toEqual({ count: 2, average: 3 });
    expect((await moderator.post(`/api/moderation/targets/review/${bad}/unhide`, {})).status).toBe(409);
  });

  it("refuses delete as an action on a review", async () => {
    const deal = await createSale();
    await createReview(deal, deal.a, deal.b);
    const shown = await createReview(deal, deal.b, deal.a);
    await (await signedInClient((await createUser()).id)).post("/api/reports", {
      target_type: "review",
      target_id: shown,
      reason: "Annet",
    });
    const reportId = (await env.DB.prepare("SELECT id FROM reports WHERE target_id = ?1").bind(shown).first<{ id: string }>())!.id;
    const moderator = await signedInClient((await createUser({ role: "moderator" })).id);
    expect((await moderator.post(`/api/moderation/reports/${reportId}/actions`, { action: "delete", notes: null })).status).toBe(400);
    expect(
      (await env.DB.prepare("SELECT is_hidden FROM reviews WHERE id = ?1").bind(shown).first<{ is_hidden: number }>())!.is_hidden,
    ).toBe(0);
  });
});
