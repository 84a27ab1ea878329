// Reports and moderation (docs/product.md "Moderation", "States", "Validation", "Who may do what",
// "Server calls", "Error messages"; docs/decisions/050–053): filing reports: what is stored (the
// reason's Norwegian label, a keyed hash of the network), one open report per reporter and target, no
// self-reports, what a stranger cannot report, and the rate limit.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ModerationPage } from "../../../worker/features/moderation/dashboard";
import { addMessages, createConversation, createListing, createUser, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import { moderator, openReportId, REASON, reportAs } from "../support/moderation";

describe("filing a report", () => {
  it("keeps a second report by the same reporter beside the first (both shown to the moderator); an identical repeat is not stored twice", async () => {
    const listing = await createListing();
    const reporter = await createUser();
    const first = await reportAs(reporter, "listing", listing.id, { description: "  Ser kopiert ut  ", priority: "high" });
    expect(first.status).toBe(201);
    const { id } = (await first.json()) as { id: string };
    const again = await reportAs(reporter, "listing", listing.id, { reason: "Spam/reklame", priority: "urgent" });
    expect(again.status).toBe(201);
    const second = ((await again.json()) as { id: string }).id;
    expect(second).not.toBe(id);
    // A double submit of either: nothing new, the reporter is pointed at the report that stands.
    const repeat = await reportAs(reporter, "listing", listing.id, { reason: "Spam/reklame", priority: "urgent" });
    expect(repeat.status).toBe(200);
    expect(((await repeat.json()) as { id: string }).id).toBe(second);
    const repeatFirst = await reportAs(reporter, "listing", listing.id, { description: "Ser kopiert ut", priority: "high" });
    expect(repeatFirst.status).toBe(200);
    expect(((await repeatFirst.json()) as { id: string }).id).toBe(id);
    const { results } = await env.DB.prepare(
      "SELECT reporter_id, reason, description, priority, status FROM reports WHERE target_id = ?1 ORDER BY created_at",
    )
      .bind(listing.id)
      .all();
    expect(results).toEqual([
      { reporter_id: reporter.id, reason: REASON, description: "Ser kopiert ut", priority: "high", status: "pending" },
      { reporter_id: reporter.id, reason: "Spam/reklame", description: null, priority: "urgent", status: "pending" },
    ]);
    // The moderator's card holds both, with reason and text.
    const { client } = await moderator();
    const page = (await (await client.get("/api/moderation/reports?status=pending&limit=100")).json()) as ModerationPage;
    const card = page.items.find((g) => g.target_id === listing.id);
    expect(card?.report_count).toBe(2);
    expect(card?.reports.map((r) => [r.reason, r.description])).toEqual([
      ["Spam/reklame", null],
      [REASON, "Ser kopiert ut"],
    ]);
  });

  it("stores only a keyed hash of the reporter's network, never the address", async () => {
    const listing = await createListing();
    await reportAs(await createUser(), "listing", listing.id, {}, "203.0.113.77");
    await reportAs(await createUser(), "listing", listing.id, {}, "203.0.113.78");
    await reportAs(await createUser(), "listing", listing.id, {}, "203.0.114.77");
    const { results } = await env.DB.prepare("SELECT reporter_network FROM reports WHERE target_id = ?1 ORDER BY created_at")
      .bind(listing.id)
      .all<{ reporter_network: string }>();
    const [a, b, c] = results.map((r) => r.reporter_network);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    const row = JSON.stringify(await env.DB.prepare("SELECT * FROM reports WHERE target_id = ?1").bind(listing.id).all());
    expect(row).not.toContain("203.0.11");
  });

  it("stores the reason as its Norwegian label, priority normal by default, and refuses no reason with 'Velg en årsak'", async () => {
    const listing = await createListing();
    const reporter = await createUser();
    const client = await signedInClient(reporter.id);
    const none = await client.post("/api/reports", { target_type: "listing", target_id: listing.id });
    expect(none.status).toBe(400);
    expect((await errorOf(none)).fields?.reason).toBe("Velg en årsak");
    const unknown = await client.post("/api/reports", { target_type: "listing", target_id: listing.id, reason: "inappropriate" });
    expect(unknown.status).toBe(400);
    const ok = await client.post("/api/reports", {
      target_type: "listing",
      target_id: listing.id,
      reason: "Opphavsrett-brudd",
      status: "resolved",
      reporter_id: crypto.randomUUID(),
    });
    expect(ok.status).toBe(201);
    const row = await env.DB.prepare("SELECT reporter_id, reason, priority, status FROM reports WHERE target_id = ?1")
      .bind(listing.id)
      .first();
    expect(row).toEqual({ reporter_id: reporter.id, reason: "Opphavsrett-brudd", priority: "normal", status: "pending" });
  });

  it("a decided report does not block a new one from the same reporter", async () => {
    const listing = await createListing();
    const reporter = await createUser();
    expect((await reportAs(reporter, "listing", listing.id)).status).toBe(201);
    const { client } = await moderator();
    expect(
      (await client.post(`/api/moderation/reports/${await openReportId("listing", listing.id)}/dismiss`, { notes: null })).status,
    ).toBe(200);
    expect((await reportAs(reporter, "listing", listing.id)).status).toBe(201);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM reports WHERE target_id = ?1").bind(listing.id).first<{ n: number }>();
    expect(n?.n).toBe(2);
  });

  it("two identical reports at the same moment leave one open report", async () => {
    const listing = await createListing();
    const reporter = await createUser();
    const client = await signedInClient(reporter.id);
    const responses = await Promise.all(
      [1, 2, 3].map(() => client.post("/api/reports", { target_type: "listing", target_id: listing.id, reason: REASON })),
    );
    expect(responses.every((r) => r.status === 201 || r.status === 200)).toBe(true);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM reports WHERE target_id = ?1").bind(listing.id).first<{ n: number }>();
    expect(n?.n).toBe(1);
  });

  it("refuses reporting one's own listing, own message and oneself (403), and a visitor (401); nothing is stored", async () => {
    const conv = await createConversation();
    const [own] = await addMessages(conv.id, [{ from: conv.buyer.id }]);
    const cases = [
      [conv.seller, "listing", conv.listing.id, "Du kan ikke rapportere din egen annonse."],
      [conv.buyer, "message", own.id, "Du kan ikke rapportere din egen melding."],
      [conv.buyer, "user", conv.buyer.id, "Du kan ikke rapportere deg selv."],
      [conv.buyer, "profile", conv.buyer.id, "Du kan ikke rapportere deg selv."],
    ] as const;
    for (const [who, type, id, message] of cases) {
      const res = await reportAs(who, type, id);
      expect(res.status, `${type}`).toBe(403);
      expect((await errorOf(res)).message).toBe(message);
    }
    const visitor = await new Client().post("/api/reports", { target_type: "listing", target_id: conv.listing.id, reason: REASON });
    expect(visitor.status).toBe(401);
    expect((await errorOf(visitor)).message).toBe("Du er ikke logget inn");
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM reports WHERE target_id IN (?1, ?2, ?3)")
      .bind(conv.listing.id, own.id, conv.buyer.id)
      .first<{ n: number }>();
    expect(n?.n).toBe(0);
  });

  it("reports the other party's message, but a stranger cannot see (404) a message of someone else's conversation", async () => {
    const conv = await createConversation();
    const [theirs] = await addMessages(conv.id, [{ from: conv.seller.id }]);
    expect((await reportAs(conv.buyer, "message", theirs.id)).status).toBe(201);
    expect((await reportAs(await createUser(), "message", theirs.id)).status).toBe(404);
  });

  it("a hidden or deleted listing is not found (404) for other users", async () => {
    const hidden = await createListing({ isHidden: true });
    const deleted = await createListing({ status: "deleted" });
    expect((await reportAs(await createUser(), "listing", hidden.id)).status).toBe(404);
    expect((await reportAs(await createUser(), "listing", deleted.id)).status).toBe(404);
    expect((await reportAs(await createUser(), "user", crypto.randomUUID())).status).toBe(404);
  });

  it("is rate limited per user (429 with Retry-After)", async () => {
    const reporter = await createUser();
    const client = await signedInClient(reporter.id);
    const listings = await Promise.all(Array.from({ length: 21 }, () => createListing()));
    const statuses: number[] = [];
    for (const l of listings)
      statuses.push((await client.post("/api/reports", { target_type: "listing", target_id: l.id, reason: REASON })).status);
    expect(statuses.slice(0, 20).every((s) => s === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
    const last = await client.post("/api/reports", { target_type: "listing", target_id: listings[0].id, reason: REASON });
    expect(last.headers.get("Retry-After")).toBeTruthy();
  });
});
