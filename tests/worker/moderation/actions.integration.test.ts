// Reports and moderation (docs/product.md "Moderation", "States", "Validation", "Who may do what",
// "Server calls", "Error messages"; docs/decisions/050–053): every action's effect on every public
// surface (home, search, the seller's other listings, the listing API, the slug page, the sitemap and
// the photos), messages for both parties, warnings on the profile, and suspensions on every write.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { REMOVED_MESSAGE_TEXT } from "../../../domain/moderation";
import type { ListingDetail } from "../../../domain/schemas/listing";
import { addMessages, createConversation, createListing, createUser, signedInClient } from "../../factories";
import { Client, errorOf } from "../support/http";
import {
  act,
  GONE,
  hideFields,
  moderator,
  openReportId,
  publicListing,
  REASON,
  reportAs,
  SHOWN,
  surfaces,
  VISIBLE,
} from "../support/moderation";

describe("actions take effect everywhere", () => {
  it("hide removes a listing from every public surface, the owner sees it marked with the reason, unhide brings it back", async () => {
    const { owner, row, target } = await publicListing();
    expect(await surfaces(target)).toEqual(VISIBLE);
    await reportAs(await createUser(), "listing", row.id);
    const { user: mod, client } = await moderator();
    expect((await act(client, await openReportId("listing", row.id), "hide", "Kopierte bilder")).status).toBe(200);

    const stored = await env.DB.prepare("SELECT status, is_hidden, auto_hidden, hidden_reason, hidden_at FROM listings WHERE id = ?1")
      .bind(row.id)
      .first();
    expect(stored).toMatchObject({ status: "active", is_hidden: 1, auto_hidden: 0, hidden_reason: `${REASON}: Kopierte bilder` });
    expect(stored?.hidden_at).toBeTruthy();
    expect(await surfaces(target)).toEqual(GONE);
    expect(await surfaces(target, await signedInClient((await createUser()).id))).toEqual(GONE);

    // The owner still opens it (API and slug page), marked hidden with the reason, and in their own list.
    const ownerClient = await signedInClient(owner.id);
    const own = (await (await ownerClient.get(`/api/listings/${row.id}`)).json()) as ListingDetail;
    expect(own.hidden?.reason).toBe(`${REASON}: Kopierte bilder`);
    const ownSlug = await ownerClient.get(`/annonse/${row.seoSlug}`);
    expect(ownSlug.status).toBe(200);
    expect(ownSlug.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await ownSlug.text()).not.toContain(target.title);
    expect((await ownerClient.get(`/images/${target.image}`)).status).toBe(200);
    const mine = (await (await ownerClient.get("/api/me/listings")).json()) as {
      id: string;
      is_hidden: boolean;
      hidden_reason: string | null;
    }[];
    expect(mine.find((l) => l.id === row.id)).toMatchObject({ is_hidden: true, hidden_reason: `${REASON}: Kopierte bilder` });
    // Moderators can open it too.
    expect((await client.get(`/api/listings/${row.id}`)).status).toBe(200);
    // Recorded with the moderator and the reason; the owner is mailed.
    expect(
      await env.DB.prepare("SELECT moderator_id, action_type, reason, notes, target_user_id FROM moderation_actions WHERE target_id = ?1")
        .bind(row.id)
        .first(),
    ).toEqual({
      moderator_id: mod.id,
      action_type: "hide",
      reason: REASON,
      notes: "Kopierte bilder",
      target_user_id: owner.id,
    });
    const mail = await env.DB.prepare("SELECT subject FROM dev_outbox WHERE to_address = ?1")
      .bind(owner.email)
      .first<{ subject: string }>();
    expect(mail?.subject).toBe(`Annonsen din «${target.title}» er skjult av en moderator`);

    const unhide = await client.post(`/api/moderation/targets/listing/${row.id}/unhide`, { notes: null });
    expect(unhide.status).toBe(200);
    expect(await hideFields(row.id)).toEqual(SHOWN);
    expect(await surfaces(target)).toEqual(VISIBLE);
    expect((await client.post(`/api/moderation/targets/listing/${row.id}/unhide`, { notes: null })).status).toBe(409);
    const kinds = await env.DB.prepare("SELECT action_type FROM moderation_actions WHERE target_id = ?1 ORDER BY created_at")
      .bind(row.id)
      .all();
    expect(kinds.results.map((r) => r.action_type)).toEqual(["hide", "unhide"]);
  });

  it("delete sets the listing's status to deleted: gone everywhere, for the owner too", async () => {
    const { owner, row, target } = await publicListing();
    await reportAs(await createUser(), "listing", row.id);
    const { client } = await moderator();
    expect((await act(client, await openReportId("listing", row.id), "delete")).status).toBe(200);
    expect((await env.DB.prepare("SELECT status FROM listings WHERE id = ?1").bind(row.id).first())?.status).toBe("deleted");
    expect(await surfaces(target)).toEqual(GONE);
    expect((await (await signedInClient(owner.id)).get(`/api/me/listings/${row.id}`)).status).not.toBe(200);
  });

  it("delete on a message replaces its text with 'Meldingen er fjernet av moderator' for both parties", async () => {
    const conv = await createConversation();
    const [bad, fine] = await addMessages(conv.id, [
      { from: conv.seller.id, content: "Stygg melding" },
      { from: conv.seller.id, content: "Hei igjen" },
    ]);
    await reportAs(conv.buyer, "message", bad.id);
    const { client } = await moderator();
    expect((await act(client, await openReportId("message", bad.id), "delete")).status).toBe(200);
    for (const who of [conv.buyer, conv.seller]) {
      const page = (await (await (await signedInClient(who.id)).get(`/api/conversations/${conv.id}/messages`)).json()) as {
        messages: { id: string; content: string }[];
      };
      expect(page.messages.find((m) => m.id === bad.id)?.content).toBe(REMOVED_MESSAGE_TEXT);
      expect(page.messages.find((m) => m.id === fine.id)?.content).toBe("Hei igjen");
    }
    // A message cannot be hidden (there is no hidden state for it).
    const other = (await addMessages(conv.id, [{ from: conv.seller.id }]))[0];
    await reportAs(conv.buyer, "message", other.id);
    expect((await act(client, await openReportId("message", other.id), "hide")).status).toBe(400);
  });

  it("warn records a warning the user sees on their profile", async () => {
    const listing = await createListing({ title: "Advart annonse" });
    await reportAs(await createUser(), "listing", listing.id);
    const { client } = await moderator();
    expect((await act(client, await openReportId("listing", listing.id), "warn", "Ikke gjør det igjen")).status).toBe(200);
    const own = await (await signedInClient(listing.userId)).get("/api/me/moderation");
    expect(await own.json()).toMatchObject({
      warning_count: 1,
      warnings: [{ target_type: "listing", target_title: "Advart annonse", reason: REASON, notes: "Ikke gjør det igjen" }],
      suspension: null,
    });
    // The listing itself is untouched.
    expect(await env.DB.prepare("SELECT status, is_hidden FROM listings WHERE id = ?1").bind(listing.id).first()).toEqual({
      status: "active",
      is_hidden: 0,
    });
    expect((await new Client().get("/api/me/moderation")).status).toBe(401);
  });
});

describe("suspensions", () => {
  async function suspended(action: "hide" | "delete", type: "user" | "profile" = "user") {
    const user = await createUser();
    await reportAs(await createUser(), type, user.id);
    const { client } = await moderator();
    const res = await act(client, await openReportId(type, user.id), action, "Trakassering i chat");
    expect(res.status).toBe(200);
    return { user, client, result: (await res.json()) as { suspended_until: string } };
  }

  it("hide and delete on a user or profile suspend until an end date (7 and 365 days by default)", async () => {
    for (const [action, days, type] of [
      ["hide", 7, "user"],
      ["delete", 365, "profile"],
    ] as const) {
      const { user, result } = await suspended(action, type);
      const row = await env.DB.prepare(
        "SELECT is_suspended, suspended_until, suspension_reason FROM user_moderation_status WHERE user_id = ?1",
      )
        .bind(user.id)
        .first<{
          is_suspended: number;
          suspended_until: string;
          suspension_reason: string;
        }>();
      expect(row?.is_suspended).toBe(1);
      expect(row?.suspended_until).toBe(result.suspended_until);
      const length = (Date.parse(row!.suspended_until) - Date.now()) / 86_400_000;
      expect(Math.round(length)).toBe(days);
      expect(row?.suspension_reason).toBe(`${REASON}: Trakassering i chat`);
      const action_ = await env.DB.prepare("SELECT action_type, expires_at FROM moderation_actions WHERE target_id = ?1")
        .bind(user.id)
        .first();
      expect(action_).toEqual({ action_type: action, expires_at: row!.suspended_until });
    }
  });

  it("a suspended user cannot post, edit back to active, start a conversation, send a message or offer a trade, and is told why; lifting it restores them", async () => {
    const { user, client: mod } = await suspended("hide");
    const conv = await createConversation({ buyer: {} });
    await env.DB.prepare("UPDATE conversations SET buyer_id = ?1 WHERE id = ?2").bind(user.id, conv.id).run();
    const own = await createListing({ userId: user.id, status: "sold" });
    const other = await createListing({ isTradeOffer: true });
    const mine = await createListing({ userId: user.id });
    const client = await signedInClient(user.id);
    const form = {
      title: "Ny lekebil",
      category: "biler",
      age_range: "3-5 år",
      condition_rating: 4,
      price: "100",
      is_free: false,
      is_trade_offer: false,
      postal_code: "0150",
      images: [],
    };
    const attempts = [
      await client.post("/api/listings", form),
      await client.post(`/api/listings/${own.id}/status`, { status: "active" }),
      await client.post("/api/conversations", { listing_id: other.id }),
      await client.post(`/api/conversations/${conv.id}/messages`, { id: crypto.randomUUID(), content: "Hei" }),
      await client.post("/api/trade-offers", { requested_listing_id: other.id, offered_listing_id: mine.id }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      const body = await errorOf(res);
      expect(body.code).toBe("SUSPENDED");
      expect(body.message).toMatch(
        /^Kontoen din er utestengt til .+\. Årsak: Falsk annonse: Trakassering i chat\. Du kan ikke legge ut annonser/,
      );
    }
    const listings = await env.DB.prepare("SELECT COUNT(*) AS n FROM listings WHERE user_id = ?1").bind(user.id).first<{ n: number }>();
    expect(listings?.n).toBe(2);
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM trade_offers WHERE from_user_id = ?1").bind(user.id).first<{ n: number }>())?.n,
    ).toBe(0);
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?1").bind(conv.id).first<{ n: number }>())?.n,
    ).toBe(0);
    // They still read and see why on their profile.
    expect((await client.get(`/api/conversations/${conv.id}/messages`)).status).toBe(200);
    expect(((await (await client.get("/api/me/moderation")).json()) as { suspension: { reason: string } }).suspension.reason).toBe(
      `${REASON}: Trakassering i chat`,
    );

    expect((await mod.post(`/api/moderation/targets/user/${user.id}/unhide`, { notes: "Angret" })).status).toBe(200);
    expect((await client.post("/api/conversations", { listing_id: other.id })).status).toBe(201);
  });

  it("a suspension past its end date is over by itself", async () => {
    const { user } = await suspended("hide");
    await env.DB.prepare("UPDATE user_moderation_status SET suspended_until = ?2 WHERE user_id = ?1")
      .bind(user.id, new Date(Date.now() - 1000).toISOString())
      .run();
    expect((await (await signedInClient(user.id)).post("/api/conversations", { listing_id: (await createListing()).id })).status).toBe(201);
  });

  it("the moderator may choose the length (1 to 365 days), only for a suspension", async () => {
    const user = await createUser();
    await reportAs(await createUser(), "user", user.id);
    const { client } = await moderator();
    const id = await openReportId("user", user.id);
    expect((await client.post(`/api/moderation/reports/${id}/actions`, { action: "hide", suspension_days: 400 })).status).toBe(400);
    expect((await client.post(`/api/moderation/reports/${id}/actions`, { action: "warn", suspension_days: 3 })).status).toBe(400);
    const ok = await client.post(`/api/moderation/reports/${id}/actions`, { action: "hide", suspension_days: 3 });
    expect(ok.status).toBe(200);
    const { suspended_until } = (await ok.json()) as { suspended_until: string };
    expect(Math.round((Date.parse(suspended_until) - Date.now()) / 86_400_000)).toBe(3);
  });
});
