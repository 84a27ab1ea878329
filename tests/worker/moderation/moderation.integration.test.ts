// Reports and moderation (docs/product.md "Moderation", "States", "Validation", "Who may do what", "Server calls", "Error messages";
// docs/decisions/050–053): filing reports (one open per reporter and target, no self-reports, rate
// limit), auto-hide, every moderation endpoint against every forbidden actor (visitor, user, a
// moderator demoted while their token is still valid), and every action's effect on every public
// surface: home, search, the seller's other listings, the listing API, the slug page, the sitemap
// and the photos; messages for both parties; warnings on the profile; suspensions on every write.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { AUTO_HIDDEN_REASON, REMOVED_MESSAGE_TEXT } from "../../../domain/moderation";
import type { HomeSections, ListingDetail } from "../../../domain/schemas/listing";
import type { SearchResult } from "../../../domain/schemas/search";
import type { ModerationPage } from "../../../worker/features/moderation/dashboard";
import {
  addMessages,
  ago,
  createCompletedTrade,
  createConversation,
  createListing,
  createSale,
  createUser,
  DAY,
  signedInClient,
  type TestUser,
} from "../../factories";
import { Client, errorOf } from "../support/http";

const REASON = "Falsk annonse";

let network = 0;
/** An IPv4 address on a /24 of its own (auto-hide counts reporters on one network once). */
const ownNetwork = () => {
  network += 1;
  return `10.${(network >> 8) & 255}.${network & 255}.7`;
};

async function reportAs(
  user: TestUser | { id: string },
  target_type: string,
  target_id: string,
  extra: Record<string, unknown> = {},
  ip: string = ownNetwork(),
) {
  const client = await signedInClient(user.id);
  return client.post("/api/reports", { target_type, target_id, reason: REASON, ...extra }, { headers: { "CF-Connecting-IP": ip } });
}

/** A reporter auto-hide counts: confirmed, a month old, in good standing. */
const established = (overrides: Parameters<typeof createUser>[0] = {}) => createUser({ createdAt: ago(30 * DAY), ...overrides });

async function moderator(role: "moderator" | "admin" = "moderator") {
  const user = await createUser({ role });
  return { user, client: await signedInClient(user.id) };
}

/** The pending report on a target (the newest), as the dashboard gives it. */
async function openReportId(type: string, id: string): Promise<string> {
  const row = await env.DB.prepare(
    "SELECT id FROM reports WHERE target_type = ?1 AND target_id = ?2 AND status IN ('pending','reviewed') ORDER BY created_at DESC",
  )
    .bind(type, id)
    .first<{ id: string }>();
  if (!row) throw new Error("no open report");
  return row.id;
}

async function act(client: Client, reportId: string, action: string, notes?: string) {
  return client.post(`/api/moderation/reports/${reportId}/actions`, { action, notes });
}

/** A unique word for search, so other tests' listings never match. */
const word = () => `moderasjonstest${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;

/** Where a visitor (or `client`) can find a listing. */
async function surfaces(
  listing: { id: string; seo_slug: string; title: string; user_id: string; image: string; more_via: string },
  client = new Client(),
) {
  const home = (await (await client.get("/api/home")).json()) as HomeSections;
  const inHome = [...home.newest, ...home.free, ...home.trade].some((l) => l.id === listing.id);
  const search = (await (await client.get(`/api/search?q=${encodeURIComponent(listing.title.split(" ")[0])}`)).json()) as SearchResult;
  const inSearch = search.rows.some((r) => r.id === listing.id);
  const other = (await (await client.get(`/api/listings/${listing.more_via}`)).json()) as ListingDetail & {
    more_from_seller: { id: string }[];
  };
  const inSellerList = other.more_from_seller.some((l) => l.id === listing.id);
  const api = (await client.get(`/api/listings/${listing.id}`)).status;
  const slug = (await client.get(`/annonse/${listing.seo_slug}`, { redirect: "manual" })).status;
  const sitemap = await (await client.get("/sitemap.xml")).text();
  const inSitemap = sitemap.includes(`/annonse/${listing.seo_slug}`);
  const image = (await client.get(`/images/${listing.image}`)).status;
  return { inHome, inSearch, inSellerList, api, slug, inSitemap, image };
}

/** The hide columns of a listing, and what they hold once it is shown again. */
const hideFields = (id: string) =>
  env.DB.prepare("SELECT is_hidden, auto_hidden, hidden_reason, hidden_at FROM listings WHERE id = ?1").bind(id).first();
const SHOWN = { is_hidden: 0, auto_hidden: 0, hidden_reason: null, hidden_at: null };

const VISIBLE = { inHome: true, inSearch: true, inSellerList: true, api: 200, slug: 200, inSitemap: true, image: 200 };
const GONE = { inHome: false, inSearch: false, inSellerList: false, api: 404, slug: 404, inSitemap: false, image: 404 };

/** A public listing with a photo and a second listing of the same seller (for "more from seller"). */
async function publicListing() {
  const owner = await createUser();
  const image = `${owner.id}/${crypto.randomUUID()}.jpg`;
  await env.IMAGES.put(image, new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
  const title = `${word()} lekebil`;
  const sibling = await createListing({ userId: owner.id, title: "Søskenannonse" });
  const row = await createListing({ userId: owner.id, title, images: [image] });
  return { owner, row, target: { id: row.id, seo_slug: row.seoSlug, title, user_id: owner.id, image, more_via: sibling.id } };
}

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
