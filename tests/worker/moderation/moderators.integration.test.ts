// Reports and moderation (docs/product.md "Moderation", "States", "Validation", "Who may do what",
// "Server calls", "Error messages"; docs/decisions/050–053): every moderation endpoint against every
// forbidden actor (visitor, user, a moderator demoted while their token is still valid), and the
// dashboard.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { ModerationPage } from "../../../worker/features/moderation/dashboard";
import { addMessages, createConversation, createListing, createUser, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import { act, moderator, openReportId, REASON, reportAs } from "../support/moderation";

describe("who may moderate", () => {
  type Who = "visitor" | "user" | "demoted" | "moderator" | "admin";
  interface Case {
    name: string;
    call: (c: Client, reportId: string, listingId: string) => Promise<Response>;
    ok: number;
    adminOnly?: boolean;
  }
  const CASES: Case[] = [
    { name: "GET /api/moderation/reports", call: (c) => c.get("/api/moderation/reports?status=pending"), ok: 200 },
    { name: "POST /api/moderation/reports/:id/review", call: (c, r) => c.post(`/api/moderation/reports/${r}/review`, {}), ok: 200 },
    { name: "POST /api/moderation/reports/:id/actions", call: (c, r) => act(c, r, "hide", "Regelbrudd"), ok: 200 },
    {
      name: "POST /api/moderation/reports/:id/dismiss",
      call: (c, r) => c.post(`/api/moderation/reports/${r}/dismiss`, { notes: "Ok" }),
      ok: 200,
    },
    {
      name: "POST /api/moderation/targets/:type/:id/unhide",
      call: async (c, _r, l) => {
        await env.DB.prepare("UPDATE listings SET is_hidden = 1, hidden_reason = 'x', hidden_at = '2026-01-01T00:00:00.000Z' WHERE id = ?1")
          .bind(l)
          .run();
        return c.post(`/api/moderation/targets/listing/${l}/unhide`, { notes: null });
      },
      ok: 200,
    },
    { name: "GET /api/moderation/staff", call: (c) => c.get("/api/moderation/staff"), ok: 200, adminOnly: true },
    {
      name: "PUT /api/moderation/roles",
      call: async (c) => {
        const target = await createUser();
        return c.request("/api/moderation/roles", { method: "PUT", json: { email: target.email, role: "moderator" } });
      },
      ok: 200,
      adminOnly: true,
    },
  ];

  async function state(reportId: string, listingId: string) {
    const report = await env.DB.prepare("SELECT status, resolution_action FROM reports WHERE id = ?1").bind(reportId).first();
    const listing = await env.DB.prepare("SELECT status, is_hidden, hidden_reason FROM listings WHERE id = ?1").bind(listingId).first();
    const actions = await env.DB.prepare("SELECT COUNT(*) AS n FROM moderation_actions WHERE target_id = ?1").bind(listingId).first();
    const roles = await env.DB.prepare("SELECT COUNT(*) AS n FROM profiles WHERE role <> 'user'").first();
    return { report, listing, actions, roles };
  }

  async function clientFor(who: Who): Promise<Client> {
    if (who === "visitor") return new Client();
    if (who === "demoted") {
      // Signed in as a moderator (the token says nothing about roles, and is still valid), then demoted.
      const m = await moderator();
      await env.DB.prepare("UPDATE profiles SET role = 'user' WHERE user_id = ?1").bind(m.user.id).run();
      return m.client;
    }
    const user = await createUser({ role: who });
    return signedInClient(user.id);
  }

  describe.each(CASES)("$name", ({ call, ok, adminOnly }) => {
    it.each(["visitor", "user", "demoted", "moderator", "admin"] as const)("as %s", async (who) => {
      const listing = await createListing();
      await reportAs(await createUser(), "listing", listing.id);
      const reportId = await openReportId("listing", listing.id);
      const client = await clientFor(who);
      const before = await state(reportId, listing.id);
      const res = await call(client, reportId, listing.id);
      const allowed = who === "admin" || (who === "moderator" && !adminOnly);
      const expected = allowed ? ok : who === "visitor" ? 401 : 403;
      expect(res.status).toBe(expected);
      if (!allowed) {
        const body = await errorOf(res);
        expect(body.message).toBe(
          who === "visitor" ? "Du er ikke logget inn" : (await import("../../../domain/errors")).DEFAULT_ERROR_MESSAGES.FORBIDDEN,
        );
        // The unhide case hid the listing itself before calling; compare everything else.
        const after = await state(reportId, listing.id);
        expect({ ...after, listing: { ...after.listing, is_hidden: 0, hidden_reason: null } }).toEqual({
          ...before,
          listing: { ...before.listing, is_hidden: 0, hidden_reason: null },
        });
      }
    });
  });

  it("a moderator promoted or demoted by an admin is so on their very next request", async () => {
    const admin = await moderator("admin");
    const person = await createUser();
    const client = await signedInClient(person.id);
    expect((await client.get("/api/moderation/reports")).status).toBe(403);
    expect(
      (await admin.client.request("/api/moderation/roles", { method: "PUT", json: { email: person.email, role: "moderator" } })).status,
    ).toBe(200);
    expect((await client.get("/api/moderation/reports")).status).toBe(200);
    expect(
      (await admin.client.request("/api/moderation/roles", { method: "PUT", json: { email: person.email, role: "user" } })).status,
    ).toBe(200);
    expect((await client.get("/api/moderation/reports")).status).toBe(403);
    const self = await admin.client.request("/api/moderation/roles", { method: "PUT", json: { email: admin.user.email, role: "user" } });
    expect(self.status).toBe(409);
    expect((await env.DB.prepare("SELECT role FROM profiles WHERE user_id = ?1").bind(admin.user.id).first())?.role).toBe("admin");
  });
});

describe("the dashboard", () => {
  beforeEach(async () => {
    await env.DB.batch([env.DB.prepare("DELETE FROM moderation_actions"), env.DB.prepare("DELETE FROM reports")]);
  });

  it("groups reports per target with the count, highest priority, newest reason and reporter, and pages by 50", async () => {
    const listing = await createListing({ title: "Rapportert lekebil" });
    const first = await createUser({ displayName: "Kari" });
    const second = await createUser({ displayName: "Ola" });
    await reportAs(first, "listing", listing.id, { priority: "urgent", description: "Svindel" });
    await reportAs(second, "listing", listing.id, { reason: "Spam/reklame", priority: "low" });
    const conv = await createConversation();
    const [msg] = await addMessages(conv.id, [{ from: conv.seller.id, content: "Kjøp billig her" }]);
    await reportAs(conv.buyer, "message", msg.id);
    const { client } = await moderator();
    const page = (await (await client.get("/api/moderation/reports?status=pending")).json()) as ModerationPage;
    expect(page.items).toHaveLength(2);
    const card = page.items[0];
    expect(card).toMatchObject({
      target_type: "listing",
      target_id: listing.id,
      target_title: "Rapportert lekebil",
      report_count: 2,
      priority: "urgent",
      reason: "Spam/reklame",
      reporter_display_name: "Ola",
      status: "pending",
    });
    expect(card.reports.map((r) => r.reporter_display_name)).toEqual(["Ola", "Kari"]);
    expect(card.target.url).toBe(`/listing/${listing.id}`);
    expect(page.items[1]).toMatchObject({ target_type: "message", report_count: 1, target_title: `Melding ${msg.id.slice(0, 8)}` });
    expect(page.items[1].target.preview).toBe("Kjøp billig her");

    // Paging: 51 targets → 50 and the rest.
    // (Straight into D1: one reporter filing 50 would hit the report rate limit.)
    const more = await Promise.all(Array.from({ length: 50 }, () => createListing()));
    await env.DB.batch(
      more.map((l) =>
        env.DB.prepare("INSERT INTO reports (id, reporter_id, target_type, target_id, reason) VALUES (?1, ?2, 'listing', ?3, ?4)").bind(
          crypto.randomUUID(),
          first.id,
          l.id,
          REASON,
        ),
      ),
    );
    const p1 = (await (await client.get("/api/moderation/reports")).json()) as ModerationPage;
    expect(p1.items).toHaveLength(50);
    expect(p1.has_more).toBe(true);
    const p2 = (await (await client.get(`/api/moderation/reports?offset=${p1.next_offset}`)).json()) as ModerationPage;
    expect(p2.items).toHaveLength(2);
    expect(p2.has_more).toBe(false);
    expect(new Set([...p1.items, ...p2.items].map((i) => i.target_id)).size).toBe(52);
    expect((await client.get("/api/moderation/reports?status=open")).status).toBe(400);
  });

  it("opening a report marks it reviewed (Vurdert); an action resolves (Løst), a dismissal dismisses (Avvist); a decided report cannot be handled again", async () => {
    const listing = await createListing();
    await reportAs(await createUser(), "listing", listing.id);
    const id = await openReportId("listing", listing.id);
    const { client } = await moderator();
    expect((await client.post(`/api/moderation/reports/${id}/review`, {})).status).toBe(200);
    const reviewed = (await (await client.get("/api/moderation/reports?status=reviewed")).json()) as ModerationPage;
    expect(reviewed.items.map((i) => i.target_id)).toEqual([listing.id]);
    const none = await act(client, id, undefined as unknown as string);
    expect(none.status).toBe(400);
    expect((await errorOf(none)).fields?.action).toBe("Velg en handling");
    expect((await act(client, id, "warn", "Første advarsel")).status).toBe(200);
    expect(
      await env.DB.prepare("SELECT status, resolution_action, moderator_notes, resolved_at IS NOT NULL AS done FROM reports WHERE id = ?1")
        .bind(id)
        .first(),
    ).toEqual({
      status: "resolved",
      resolution_action: "warn",
      moderator_notes: "Første advarsel",
      done: 1,
    });
    const again = await act(client, id, "hide");
    expect(again.status).toBe(409);
    expect((await client.post(`/api/moderation/reports/${id}/dismiss`, { notes: null })).status).toBe(409);

    const other = await createListing();
    await reportAs(await createUser(), "listing", other.id);
    const otherId = await openReportId("listing", other.id);
    expect((await client.post(`/api/moderation/reports/${otherId}/dismiss`, { notes: "Ikke et brudd" })).status).toBe(200);
    expect(await env.DB.prepare("SELECT status, moderator_notes FROM reports WHERE id = ?1").bind(otherId).first()).toEqual({
      status: "dismissed",
      moderator_notes: "Ikke et brudd",
    });
    const dismissed = (await (await client.get("/api/moderation/reports?status=dismissed")).json()) as ModerationPage;
    expect(dismissed.items.map((i) => i.target_id)).toEqual([other.id]);
  });

  it("two moderators deciding at once: exactly one wins, the other gets 409, one action is recorded", async () => {
    const listing = await createListing();
    await reportAs(await createUser(), "listing", listing.id);
    const id = await openReportId("listing", listing.id);
    const [a, b] = await Promise.all([moderator(), moderator()]);
    const responses = await Promise.all([
      act(a.client, id, "hide"),
      act(b.client, id, "delete"),
      b.client.post(`/api/moderation/reports/${id}/dismiss`, {}),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM moderation_actions WHERE report_id = ?1").bind(id).first<{ n: number }>();
    expect(n?.n).toBe(1);
  });
});
