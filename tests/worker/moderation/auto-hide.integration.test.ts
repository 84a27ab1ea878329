// Reports and moderation (docs/product.md "Moderation", "States", "Validation", "Who may do what",
// "Server calls", "Error messages"; docs/decisions/050–053): auto-hide after reports from established
// reporters on networks of their own, and that one person cannot trigger it alone.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AUTO_HIDDEN_REASON } from "../../../domain/moderation";
import type { ListingDetail } from "../../../domain/schemas/listing";
import { createCompletedTrade, createListing, createSale, createUser, signedInClient } from "../../factories";
import { Client } from "../support/http";
import {
  act,
  established,
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

describe("auto-hide", () => {
  it("three established reporters on their own networks within 24 hours hide the listing (auto_hidden) and its owner is told once", async () => {
    const { owner, row, target } = await publicListing();
    for (let i = 0; i < 2; i++) expect((await reportAs(await established(), "listing", row.id)).status).toBe(201);
    // Two reporters, or the same one again with another reason: still visible.
    const second = await env.DB.prepare("SELECT reporter_id FROM reports WHERE target_id = ?1 LIMIT 1")
      .bind(row.id)
      .first<{ reporter_id: string }>();
    expect((await reportAs({ id: second!.reporter_id }, "listing", row.id, { reason: "Spam/reklame" })).status).toBe(201);
    expect((await env.DB.prepare("SELECT is_hidden FROM listings WHERE id = ?1").bind(row.id).first())?.is_hidden).toBe(0);

    expect((await reportAs(await established(), "listing", row.id)).status).toBe(201);
    const hidden = await hideFields(row.id);
    expect(hidden).toMatchObject({ is_hidden: 1, auto_hidden: 1, hidden_reason: AUTO_HIDDEN_REASON });
    expect(hidden?.hidden_at).toBeTruthy();
    expect(await surfaces(target)).toEqual(GONE);
    // A fourth report changes nothing more; the owner got exactly one mail.
    await reportAs(await established(), "listing", row.id);
    const mails = await env.DB.prepare("SELECT subject FROM dev_outbox WHERE to_address = ?1").bind(owner.email).all<{ subject: string }>();
    expect(mails.results.map((m) => m.subject)).toEqual([`Annonsen din «${target.title}» er midlertidig skjult`]);
    // The owner sees it, marked hidden with the reason.
    const own = (await (await (await signedInClient(owner.id)).get(`/api/listings/${row.id}`)).json()) as ListingDetail;
    expect(own.hidden).toEqual({ reason: AUTO_HIDDEN_REASON, hidden_at: hidden?.hidden_at, auto: true });
  });

  it("reports older than 24 hours do not count", async () => {
    const listing = await createListing();
    const old = new Date(Date.now() - 25 * 3600_000).toISOString();
    for (let i = 0; i < 2; i++) {
      const u = await established();
      await env.DB.prepare(
        "INSERT INTO reports (id, reporter_id, target_type, target_id, reason, created_at) VALUES (?1, ?2, 'listing', ?3, ?4, ?5)",
      )
        .bind(crypto.randomUUID(), u.id, listing.id, REASON, old)
        .run();
    }
    await reportAs(await established(), "listing", listing.id);
    expect((await env.DB.prepare("SELECT is_hidden FROM listings WHERE id = ?1").bind(listing.id).first())?.is_hidden).toBe(0);
  });

  it("three reporters at the same moment hide it once", async () => {
    const { owner, row } = await publicListing();
    const reporters = await Promise.all([1, 2, 3, 4].map(() => established()));
    const responses = await Promise.all(reporters.map((r) => reportAs(r, "listing", row.id)));
    // A report read after the third one hid the listing finds it gone for its reporter (404, like
    // any hidden listing); every other report is filed. Nothing else (no 409, no 5xx) is allowed.
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length, statuses.join(",")).toBeGreaterThanOrEqual(3);
    expect(
      statuses.every((s) => s === 201 || s === 404),
      statuses.join(","),
    ).toBe(true);
    expect((await env.DB.prepare("SELECT auto_hidden FROM listings WHERE id = ?1").bind(row.id).first())?.auto_hidden).toBe(1);
    const mails = await env.DB.prepare("SELECT COUNT(*) AS n FROM dev_outbox WHERE to_address = ?1")
      .bind(owner.email)
      .first<{ n: number }>();
    expect(mails?.n).toBe(1);
  });

  it("approve shows an auto-hidden listing again and resolves every report on it", async () => {
    const { row, target } = await publicListing();
    for (let i = 0; i < 3; i++) await reportAs(await established(), "listing", row.id);
    expect((await hideFields(row.id))?.auto_hidden).toBe(1);
    const { client } = await moderator();
    const res = await act(client, await openReportId("listing", row.id), "approve", "Ingen brudd");
    expect(res.status).toBe(200);
    expect(await hideFields(row.id)).toEqual(SHOWN);
    const statuses = await env.DB.prepare("SELECT DISTINCT status, resolution_action FROM reports WHERE target_id = ?1").bind(row.id).all();
    expect(statuses.results).toEqual([{ status: "resolved", resolution_action: "approve" }]);
    expect(await surfaces(target)).toEqual(VISIBLE);
  });
});

describe("auto-hide resists one person (decision 082)", () => {
  /** Whether a visitor still finds the listing. */
  const visibleToVisitors = async (id: string) => (await new Client().get(`/api/listings/${id}`)).status === 200;

  it("three fresh accounts (made and confirmed just now) from one address do not hide it", async () => {
    const { row } = await publicListing();
    for (let i = 0; i < 3; i++) expect((await reportAs(await createUser(), "listing", row.id, {}, "203.0.113.20")).status).toBe(201);
    expect(await visibleToVisitors(row.id)).toBe(true);
    // Fresh accounts on networks of their own do not count either: age is the guard, not only the address.
    for (let i = 0; i < 3; i++) expect((await reportAs(await createUser(), "listing", row.id)).status).toBe(201);
    expect(await visibleToVisitors(row.id)).toBe(true);
  });

  it("established accounts on different IPv6 addresses of one /64 count once", async () => {
    const { row } = await publicListing();
    for (const ip of ["2001:db8:7:1::a", "2001:db8:7:1:ffff::1", "2001:db8:7:1:1234:5678:9abc:def0"]) {
      expect((await reportAs(await established(), "listing", row.id, {}, ip)).status).toBe(201);
    }
    expect(await visibleToVisitors(row.id)).toBe(true);
  });

  it("established accounts on addresses of one IPv4 /24 count once", async () => {
    const { row } = await publicListing();
    for (const ip of ["198.51.100.1", "198.51.100.99", "198.51.100.254"])
      expect((await reportAs(await established(), "listing", row.id, {}, ip)).status).toBe(201);
    expect(await visibleToVisitors(row.id)).toBe(true);
  });

  it("plus-addresses of one mailbox count once, even from different networks", async () => {
    const { row } = await publicListing();
    const box = `kari${crypto.randomUUID().slice(0, 8)}`;
    for (const email of [`${box}@example.no`, `${box}+1@example.no`, `${box.toUpperCase()}+2@Example.no`]) {
      expect((await reportAs(await established({ email }), "listing", row.id)).status).toBe(201);
    }
    expect(await visibleToVisitors(row.id)).toBe(true);
  });

  it("after a dismissal the same three established reporters reporting again do not hide it again", async () => {
    const { row, target } = await publicListing();
    const reporters = [await established(), await established(), await established()];
    for (const r of reporters) await reportAs(r, "listing", row.id);
    expect((await hideFields(row.id))?.auto_hidden).toBe(1);
    const { client } = await moderator();
    expect(
      (await client.post(`/api/moderation/reports/${await openReportId("listing", row.id)}/dismiss`, { notes: "Ingen brudd" })).status,
    ).toBe(200);
    expect(await visibleToVisitors(row.id)).toBe(true);
    // The same people again, from new networks and with other reasons: filed for the moderator, but not hidden.
    for (const r of reporters) expect((await reportAs(r, "listing", row.id, { reason: "Spam/reklame" })).status).toBe(201);
    expect(await hideFields(row.id)).toEqual(SHOWN);
    expect(await surfaces(target)).toEqual(VISIBLE);
    const open = await env.DB.prepare("SELECT COUNT(*) AS n FROM reports WHERE target_id = ?1 AND status = 'pending'")
      .bind(row.id)
      .first<{ n: number }>();
    expect(open?.n).toBe(3);
    // Three other established people still can.
    for (let i = 0; i < 3; i++) await reportAs(await established(), "listing", row.id);
    expect((await hideFields(row.id))?.auto_hidden).toBe(1);
  });

  it("a suspended reporter does not count", async () => {
    const { row } = await publicListing();
    const banned = await established();
    // Suspended by a moderator the ordinary way (a report on the user, "hide").
    await reportAs(await established(), "user", banned.id);
    const { client } = await moderator();
    expect((await act(client, await openReportId("user", banned.id), "hide", "Trakassering")).status).toBe(200);
    expect((await reportAs(banned, "listing", row.id)).status).toBe(201);
    for (let i = 0; i < 2; i++) await reportAs(await established(), "listing", row.id);
    expect(await visibleToVisitors(row.id)).toBe(true);
    await reportAs(await established(), "listing", row.id);
    expect(await visibleToVisitors(row.id)).toBe(false);
  });

  it("a new account with a completed deal with an established account counts; a sale or trade between two new accounts does not", async () => {
    const { row } = await publicListing();
    const vouched = await createUser();
    await createSale({ seller: vouched, buyer: await established() });
    const a = await createUser();
    await createSale({ seller: a, buyer: await createUser() });
    const trade = await createCompletedTrade();
    for (let i = 0; i < 2; i++) await reportAs(await established(), "listing", row.id);
    await reportAs(a, "listing", row.id);
    await reportAs(trade.a, "listing", row.id);
    expect(await visibleToVisitors(row.id)).toBe(true);
    await reportAs(vouched, "listing", row.id);
    expect(await visibleToVisitors(row.id)).toBe(false);
  });

  it("a listing whose seller has completed deals needs five independent reporters", async () => {
    const { owner, row } = await publicListing();
    await createSale({ seller: owner, buyer: await established() });
    for (let i = 0; i < 4; i++) expect((await reportAs(await established(), "listing", row.id)).status).toBe(201);
    expect(await visibleToVisitors(row.id)).toBe(true);
    expect((await reportAs(await established(), "listing", row.id)).status).toBe(201);
    expect(await visibleToVisitors(row.id)).toBe(false);
  });
});
