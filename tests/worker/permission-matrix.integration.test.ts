// The permission matrix (docs/security.md "How it is tested"; docs/decisions/060): every route the
// Worker registers (read from the Hono app itself, `app.routes`), every page of the route table
// (domain/routes.ts PAGE_ROUTES) and both WebSocket upgrades, each × {visitor, other user,
// owner/participant, moderator, admin, suspended user}, with the expected status. Real requests
// through the Worker's fetch with a real session per role, and real ids per role. For every refusal
// (4xx) the test also proves that nothing changed: every D1 table's rows and every R2 object are the
// same before and after (support/state.ts).
//
// A route the app registers without a row here fails "every registered route has a row".
//
// Roles:
// - visitor: no session.
// - other: a signed-in user who is not the owner (nor a participant) of the row's object.
// - owner: the owner or participant of the row's object; on routes without an object (create, list,
//   own profile), simply a signed-in user acting for themself.
// - moderator, admin: staff who are not the owner.
// - suspended: the owner, with an active suspension (docs/decisions/051-suspensions.md).
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PAGE_ROUTE_IDS, PAGE_ROUTES, type PageRouteId } from "../../domain/routes";
import { app } from "../../worker/app";
import { signUnsubscribeToken } from "../../worker/features/saved-searches/unsubscribe-token";
import { hashPassword } from "../../worker/features/auth/password";
import { generateSitemap } from "../../worker/features/seo/sitemap";
import {
  createConversation,
  createGiveaway,
  createListing,
  createSale,
  createSavedSearch,
  createTrade,
  createUser,
  jpegPhoto,
  signedInClient,
  type TestUser,
} from "../factories";
import { allowConsoleError } from "./support/console-guard";
import { Client, errorOf, isNorwegianMessage } from "./support/http";
import { mirrored, upgrade } from "./support/live";
import { checkout, connectedSeller, deliver, oneDelivery, payableListing, payByCard, paymentRow } from "./support/payments";
import { stateChanges, storedState } from "./support/state";

const ROLES = ["visitor", "other", "owner", "moderator", "admin", "suspended"] as const;
type Role = (typeof ROLES)[number];
type Expected = Record<Role, number>;

/** Expected statuses in ROLES order: visitor, other, owner, moderator, admin, suspended. */
const s = (visitor: number, other: number, owner: number, moderator: number, admin: number, suspended: number): Expected => ({
  visitor,
  other,
  owner,
  moderator,
  admin,
  suspended,
});
const all = (status: number) => s(status, status, status, status, status, status);
/** Signed in: any user 200-ish, visitors 401. */
const signedIn = (status: number) => s(401, status, status, status, status, status);
/** An object only its owner (or participant) may touch: visitors 401, everyone else 404. */
const ownerOnly = (status: number, suspended = status) => s(401, 404, status, 404, 404, suspended);
/** Moderator and admin. */
const staff = (status: number) => s(401, 403, 403, status, status, 403);
const adminOnly = (status: number) => s(401, 403, 403, 403, status, 403);

const PASSWORD = "hemmelig123";
const BUSY = 429;

/** What a row's request needs: the owner's objects, built on first use (fresh for every role). */
class World {
  private memo = new Map<string, Promise<unknown>>();
  constructor(
    readonly owner: TestUser,
    /** The caller (null for a visitor); the owner itself for the owner and suspended roles. */
    readonly actor: TestUser | null,
    /** One address per case, so address-keyed rate limits never carry from one case to the next. */
    readonly ip: string,
  ) {}

  /** The signed analytics session cookie a consenting browser gets from /sessions (decision 038). */
  async analyticsCookie(): Promise<Record<string, string>> {
    const browser = new Client();
    const res = await browser.post(
      "/api/analytics/sessions",
      {
        sessionId: crypto.randomUUID(),
        userAgent: "Mozilla/5.0",
        referrer: null,
        entryPage: "/",
        deviceType: "mobile",
        browser: "Safari",
        os: "iOS",
      },
      { headers: { "CF-Connecting-IP": this.ip } },
    );
    expect(res.status).toBe(202);
    return Object.fromEntries([...browser.cookies].filter(([name]) => name === "lb_analytics"));
  }

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as Promise<T>;
  }

  /** Someone else: the other side of a conversation, a trade or a sale. */
  partner() {
    return this.once("partner", () => createUser({ displayName: "Per Partner" }));
  }

  /** A photo in R2 under the owner's id. */
  photo() {
    return this.once("photo", () => putPhoto(this.owner.id));
  }

  /** A photo the caller uploaded (the owner's for a visitor). */
  actorsPhoto() {
    return this.once("actorsPhoto", () => putPhoto((this.actor ?? this.owner).id));
  }

  /** The owner's public listing with a photo. */
  listing() {
    return this.once("listing", async () => createListing({ userId: this.owner.id, images: [await this.photo()] }));
  }

  /** The owner's listing, hidden by a moderator (only owner and staff may see it). */
  hiddenListing() {
    return this.once("hidden", async () =>
      createListing({
        userId: this.owner.id,
        images: [await this.photo()],
        isHidden: true,
        hiddenReason: "Regelbrudd",
        hiddenAt: new Date().toISOString(),
      }),
    );
  }

  /** A listing of the partner (something the caller may ask about, buy or report). */
  partnersListing(overrides: Parameters<typeof createListing>[0] = {}) {
    return this.once("partnersListing", async () => createListing({ userId: (await this.partner()).id, isTradeOffer: true, ...overrides }));
  }

  /** A conversation about the owner's listing: the owner sells, the partner asks. */
  conversation() {
    return this.once("conversation", async () =>
      createConversation({ sellerUser: this.owner, buyerUser: await this.partner(), listingRow: await this.listing() }),
    );
  }

  /** A trade between the owner and the partner; `side` is the owner's. */
  trade(side: "sender" | "recipient", status: "pending" | "accepted" = "pending") {
    return this.once(`trade-${side}-${status}`, async () =>
      createTrade(
        side === "sender"
          ? { sender: this.owner, recipient: await this.partner(), status }
          : { sender: await this.partner(), recipient: this.owner, status },
      ),
    );
  }

  /** A completed card payment whose money is released (decision 105): the owner bought the partner's listing. */
  purchase() {
    return this.once("purchase", async () => {
      const seller = await this.partner();
      const listing = await createListing({
        userId: seller.id,
        status: "sold",
        price: 250,
        paymentEnabled: true,
        pricingMode: "marketplace",
      });
      const paymentId = crypto.randomUUID();
      const sessionId = `cs_test_${crypto.randomUUID().replaceAll("-", "")}`;
      await env.DB.batch([
        env.DB.prepare(
          "INSERT INTO payments (id, listing_id, seller_id, buyer_id, provider, provider_ref, amount, status) VALUES (?1, ?2, ?3, ?4, 'stripe', ?5, 25000, 'completed')",
        ).bind(paymentId, listing.id, seller.id, this.owner.id, sessionId),
        env.DB.prepare(
          "INSERT INTO orders (id, payment_id, listing_id, seller_id, buyer_id, amount, stripe_session_id, paid_at, seller_notified_at, state, settled_at, money_moved_at) VALUES (?1, ?2, ?3, ?4, ?5, 25000, ?6, ?7, ?7, 'released', ?7, ?7)",
        ).bind(crypto.randomUUID(), paymentId, listing.id, seller.id, this.owner.id, sessionId, new Date().toISOString()),
      ]);
      return { paymentId, sessionId };
    });
  }

  /**
   * The partner's listing that came to the owner in a finished deal (decision 088): bought (a paid
   * order), traded (a completed trade) or given (a give-away). Everyone may read it (decision 117).
   */
  dealListing(kind: "sale" | "trade" | "giveaway") {
    return this.once(`deal-${kind}`, async () => {
      const partner = await this.partner();
      if (kind === "sale") return (await createSale({ seller: partner, buyer: this.owner })).listings[0];
      if (kind === "giveaway") return (await createGiveaway({ giver: partner, taker: this.owner })).listings[0];
      return (await createTrade({ status: "completed", sender: this.owner, recipient: partner })).requested;
    });
  }

  /** An open report by the partner on the owner's listing (what moderators act on). */
  report() {
    return this.once("report", async () => {
      const id = crypto.randomUUID();
      await env.DB.prepare(
        "INSERT INTO reports (id, reporter_id, target_type, target_id, reason) VALUES (?1, ?2, 'listing', ?3, 'Falsk annonse')",
      )
        .bind(id, (await this.partner()).id, (await this.listing()).id)
        .run();
      return id;
    });
  }

  /** The caller's own open report ("Falsk annonse", no text) on the partner's listing; none for a visitor. */
  actorsReport() {
    return this.once("actorsReport", async () => {
      const listing = await this.partnersListing();
      if (!this.actor) return listing;
      await env.DB.prepare(
        "INSERT INTO reports (id, reporter_id, target_type, target_id, reason) VALUES (?1, ?2, 'listing', ?3, 'Falsk annonse')",
      )
        .bind(crypto.randomUUID(), this.actor.id, listing.id)
        .run();
      return listing;
    });
  }

  /** An open report by the partner on the owner as a user (what a suspension is taken on). */
  userReport() {
    return this.once("userReport", async () => {
      const id = crypto.randomUUID();
      await env.DB.prepare(
        "INSERT INTO reports (id, reporter_id, target_type, target_id, reason) VALUES (?1, ?2, 'user', ?3, 'Trakassering')",
      )
        .bind(id, (await this.partner()).id, this.owner.id)
        .run();
      return id;
    });
  }

  /** The owner, suspended for a week (what lifting a suspension acts on). */
  suspendedOwner() {
    return this.once("suspendedOwner", async () => {
      await suspend(this.owner.id);
      return this.owner.id;
    });
  }

  /**
   * A real card purchase through the payment sandbox whose money is held (decision 105): the owner
   * is the buyer (of a connected seller's listing) or the seller (the row needs `ownerConnected`).
   * With `problem`, the buyer has reported a problem: a case for moderators.
   */
  heldOrder(ownerSide: "buyer" | "seller", problem = false, tag = "") {
    return this.once(`held-${ownerSide}-${problem}-${tag}`, async () => {
      const seller = ownerSide === "seller" ? this.owner : await connectedSeller();
      const buyer = ownerSide === "buyer" ? this.owner : await this.partner();
      const buyerClient = await signedInClient(buyer.id);
      const listing = await payableListing(seller.id, { price: 300 });
      // A suspended owner bought before the suspension (a suspended user may not start a checkout).
      const { payment_id, url } = await beforeSuspension(buyer.id, () => checkout(buyerClient, listing.id, "card"));
      expect((await payByCard(url)).status).toBe(303);
      const ref = (await paymentRow(payment_id))!.provider_ref;
      expect((await deliver(await oneDelivery(ref, "checkout.session.completed"))).status).toBe(200);
      const tx = await env.DB.prepare("SELECT id, conversation_id FROM orders WHERE payment_id = ?1")
        .bind(payment_id)
        .first<{ id: string; conversation_id: string }>();
      if (problem) {
        const reported = await buyerClient.post(`/api/payments/orders/${tx!.id}/problem`, { reason: "other", text: "Leken kom aldri." });
        expect(reported.status).toBe(200);
      }
      return { id: tx!.id, conversationId: tx!.conversation_id };
    });
  }

  /**
   * The owner's purchase with a problem reported with one photo (decision 108): the case and its
   * photo's id.
   */
  casePhoto() {
    return this.once("casePhoto", async () => {
      const order = await this.heldOrder("buyer", false, "photo");
      const buyerClient = await signedInClient(this.owner.id);
      const upload = await buyerClient.request(`/api/payments/orders/${order.id}/photos`, {
        method: "POST",
        body: jpegPhoto(),
        headers: { "Content-Type": "image/jpeg" },
      });
      expect(upload.status).toBe(201);
      const { id: photoId } = (await upload.json()) as { id: string };
      const reported = await buyerClient.post(`/api/payments/orders/${order.id}/problem`, {
        reason: "damaged",
        text: "Leken kom i stykker.",
        photos: [photoId],
      });
      expect(reported.status).toBe(200);
      return { id: order.id, photoId };
    });
  }

  /** A case on the owner's sale (the owner connected to Stripe as a seller first). */
  caseAsSeller() {
    return this.once("caseAsSeller", async () => {
      await connectOwner(this.owner.id);
      return this.heldOrder("seller", true);
    });
  }

  /** The owner's purchase as a review deal: the order of the completed payment. */
  sale() {
    return this.once("sale", async () => {
      const { paymentId } = await this.purchase();
      const row = await env.DB.prepare("SELECT id FROM orders WHERE payment_id = ?1").bind(paymentId).first<{ id: string }>();
      return row!.id;
    });
  }

  /**
   * The owner's free listing with the partner in its give-away queue: waiting, or reserved for the
   * partner (the listing reserved, the chat the reservation opened).
   */
  giveaway(status: "waiting" | "reserved") {
    return this.once(`giveaway-${status}`, async () => {
      const listing = await createListing({ userId: this.owner.id, isFree: true, images: [] });
      const partner = await this.partner();
      const conversationId =
        status === "reserved" ? (await createConversation({ sellerUser: this.owner, buyerUser: partner, listingRow: listing })).id : null;
      await env.DB.batch([
        env.DB.prepare(
          "INSERT INTO giveaway_queue (id, listing_id, giver_id, user_id, message, status, reserved_at, conversation_id) VALUES (?1, ?2, ?3, ?4, 'Kan hente i dag', ?5, ?6, ?7)",
        ).bind(
          crypto.randomUUID(),
          listing.id,
          this.owner.id,
          partner.id,
          status,
          status === "reserved" ? new Date().toISOString() : null,
          conversationId,
        ),
        env.DB.prepare("UPDATE listings SET status = ?2 WHERE id = ?1").bind(listing.id, status === "reserved" ? "reserved" : "active"),
      ]);
      return listing;
    });
  }

  /** The partner's free listing with the owner waiting in its queue (what the owner may leave). */
  giveawayPlace() {
    return this.once("giveawayPlace", async () => {
      const partner = await this.partner();
      const listing = await createListing({ userId: partner.id, isFree: true, images: [] });
      await env.DB.prepare(
        "INSERT INTO giveaway_queue (id, listing_id, giver_id, user_id, message) VALUES (?1, ?2, ?3, ?4, 'Vil gjerne ha den')",
      )
        .bind(crypto.randomUUID(), listing.id, partner.id, this.owner.id)
        .run();
      return listing;
    });
  }

  savedSearch() {
    return this.once("savedSearch", () => createSavedSearch(this.owner.id, "q=duplo", { name: "Duplo" }));
  }

  /** The caller's own listing (what it offers in a trade); the owner's for a visitor. */
  actorsListing() {
    return this.once("actorsListing", () => createListing({ userId: (this.actor ?? this.owner).id }));
  }
}

/** The owner as a seller with an onboarded Stripe account (a sandbox account taken over from a fresh seller). */
async function connectOwner(ownerId: string): Promise<void> {
  const seller = await connectedSeller();
  await env.DB.prepare(
    "UPDATE profiles SET stripe_account_id = (SELECT stripe_account_id FROM profiles WHERE user_id = ?2), stripe_charges_enabled = 1, stripe_payouts_enabled = 1, stripe_details_submitted = 1 WHERE user_id = ?1",
  )
    .bind(ownerId, seller.id)
    .run();
  await env.DB.prepare("UPDATE profiles SET stripe_account_id = NULL WHERE user_id = ?1").bind(seller.id).run();
}

/** An active suspension of a week, as a moderator's "Steng ute midlertidig" leaves it. */
async function suspend(userId: string): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO user_moderation_status (user_id, is_suspended, suspended_until, suspension_reason) VALUES (?1, 1, ?2, 'Gjentatte regelbrudd')
     ON CONFLICT (user_id) DO UPDATE SET is_suspended = 1, suspended_until = excluded.suspended_until, suspension_reason = excluded.suspension_reason`,
  )
    .bind(userId, new Date(Date.now() + 7 * 86_400_000).toISOString())
    .run();
}

/** Run `fn` as if the user's suspension (if any) had not begun yet, then suspend again. */
async function beforeSuspension<T>(userId: string, fn: () => Promise<T>): Promise<T> {
  const suspended = await env.DB.prepare("SELECT 1 FROM user_moderation_status WHERE user_id = ?1 AND is_suspended = 1")
    .bind(userId)
    .first();
  if (!suspended) return fn();
  await env.DB.prepare("UPDATE user_moderation_status SET is_suspended = 0 WHERE user_id = ?1").bind(userId).run();
  try {
    return await fn();
  } finally {
    await suspend(userId);
  }
}

async function putPhoto(userId: string): Promise<string> {
  const key = `${userId}/${crypto.randomUUID()}.jpg`;
  await env.IMAGES.put(key, jpegPhoto(), { httpMetadata: { contentType: "image/jpeg" } });
  return key;
}

/**
 * The moderation routes, each also asked by staff who may not act (decision 052): a suspended
 * moderator or admin (no staff rights at all), a moderator on a moderator's or an admin's target, a
 * moderator or an admin on their own (the "owner" is the staff member). Rows with a variant are in
 * `inMatrix` rows are in the main matrix (over its six roles) too.
 */
const STAFF_CASES = {
  "suspended moderator": { actor: "moderator", suspended: true, owner: "user" },
  "suspended admin": { actor: "admin", suspended: true, owner: "user" },
  "moderator on a moderator": { actor: "moderator", suspended: false, owner: "moderator" },
  "moderator on an admin": { actor: "moderator", suspended: false, owner: "admin" },
  "moderator on themselves": { actor: "moderator", suspended: false, owner: "self" },
  "admin on themselves": { actor: "admin", suspended: false, owner: "self" },
  "admin on a moderator": { actor: "admin", suspended: false, owner: "moderator" },
} as const;
type StaffCase = keyof typeof STAFF_CASES;
const STAFF_CASE_NAMES = Object.keys(STAFF_CASES) as StaffCase[];
/** Statuses in STAFF_CASES order. */
const sc = (...statuses: number[]): Record<StaffCase, number> =>
  Object.fromEntries(STAFF_CASE_NAMES.map((name, i) => [name, statuses[i]])) as Record<StaffCase, number>;
/** A decision on the owner's target: only the admin acting on a moderator may. */
const decision = sc(403, 403, 403, 403, 403, 403, 200);

const MODERATION_STAFF_ROWS: {
  route: string;
  variant: string;
  inMatrix?: true;
  request: (w: World) => Promise<Req> | Req;
  expected: Record<StaffCase, number>;
}[] = [
  // Reading the dashboard is refused to suspended staff only.
  {
    route: "GET /api/moderation/reports",
    variant: "the dashboard",
    request: () => ({ path: "/api/moderation/reports?status=pending" }),
    expected: sc(403, 403, 200, 200, 200, 200, 200),
  },
  {
    route: "POST /api/moderation/reports/:id/review",
    variant: "Behandle",
    request: async (w) => ({ path: `/api/moderation/reports/${await w.report()}/review`, method: "POST" }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/reports/:id/actions",
    variant: "hide a listing",
    request: async (w) => ({
      path: `/api/moderation/reports/${await w.report()}/actions`,
      method: "POST",
      json: { action: "hide", notes: "Regelbrudd" },
    }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/reports/:id/actions",
    variant: "suspend a user for a year",
    inMatrix: true,
    request: async (w) => ({
      path: `/api/moderation/reports/${await w.userReport()}/actions`,
      method: "POST",
      json: { action: "delete", notes: "Regelbrudd", suspension_days: 365 },
    }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/reports/:id/actions",
    variant: "approve (in the owner's favour)",
    request: async (w) => ({
      path: `/api/moderation/reports/${await w.report()}/actions`,
      method: "POST",
      json: { action: "approve", notes: null },
    }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/reports/:id/dismiss",
    variant: "dismiss (in the owner's favour)",
    request: async (w) => ({ path: `/api/moderation/reports/${await w.report()}/dismiss`, method: "POST", json: { notes: "Ok" } }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/targets/:type/:id/unhide",
    variant: "show a listing again",
    request: async (w) => ({
      path: `/api/moderation/targets/listing/${(await w.hiddenListing()).id}/unhide`,
      method: "POST",
      json: { notes: null },
    }),
    expected: decision,
  },
  {
    // On themselves: the staff member is the one suspended, lifting their own suspension.
    route: "POST /api/moderation/targets/:type/:id/unhide",
    variant: "lift a suspension",
    inMatrix: true,
    request: async (w) => ({
      path: `/api/moderation/targets/user/${await w.suspendedOwner()}/unhide`,
      method: "POST",
      json: { notes: null },
    }),
    expected: decision,
  },
  {
    route: "GET /api/moderation/staff",
    variant: "the staff list",
    request: () => ({ path: "/api/moderation/staff" }),
    expected: sc(403, 403, 403, 403, 403, 200, 200),
  },
  {
    route: "PUT /api/moderation/roles",
    variant: "make someone a moderator",
    request: async (w) => ({ path: "/api/moderation/roles", method: "PUT", json: { email: (await w.partner()).email, role: "moderator" } }),
    expected: sc(403, 403, 403, 403, 403, 200, 200),
  },
  // Staff-only views outside the dashboard: a hidden listing and its photo (the owner always sees them).
  {
    route: "GET /api/listings/:id",
    variant: "a hidden listing",
    request: async (w) => ({ path: `/api/listings/${(await w.hiddenListing()).id}` }),
    expected: sc(404, 404, 200, 200, 200, 200, 200),
  },
  {
    route: "GET /images/*",
    variant: "photo of a hidden listing",
    request: async (w) => ({ path: `/images/${(await w.hiddenListing()).images[0]}` }),
    expected: sc(404, 404, 200, 200, 200, 200, 200),
  },
  // Payment cases (decisions 085, 105): the owner is the buyer, or the seller, of the case. Nobody
  // decides a case they are a party to; a case with staff on either side only an admin decides.
  {
    route: "POST /api/moderation/payment-cases/:id/decision",
    variant: "refund, the owner is the buyer",
    request: async (w) => ({
      path: `/api/moderation/payment-cases/${(await w.heldOrder("buyer", true)).id}/decision`,
      method: "POST",
      json: { action: "refund" },
    }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/payment-cases/:id/decision",
    variant: "release, the owner is the seller",
    request: async (w) => ({
      path: `/api/moderation/payment-cases/${(await w.caseAsSeller()).id}/decision`,
      method: "POST",
      json: { action: "release_by_moderator" },
    }),
    expected: decision,
  },
  {
    route: "POST /api/moderation/payment-cases/:id/decision",
    variant: "partial refund, the owner is the seller",
    request: async (w) => ({
      path: `/api/moderation/payment-cases/${(await w.caseAsSeller()).id}/decision`,
      method: "POST",
      json: { action: "partial_refund", refund_amount: 10_000 },
    }),
    expected: decision,
  },
  // A case's photo: staff with staff rights read it, parties too (the owner is the buyer).
  {
    route: "GET /api/payments/orders/:id/photos/:photoId",
    variant: "a case's photo",
    request: async (w) => {
      const { id, photoId } = await w.casePhoto();
      return { path: `/api/payments/orders/${id}/photos/${photoId}` };
    },
    expected: sc(404, 404, 200, 200, 200, 200, 200),
  },
];

interface Req {
  path: string;
  method?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Cookies added to the caller's own (the analytics session /sessions issued). */
  cookies?: Record<string, string>;
  /** Open it as a WebSocket (Upgrade header, our Origin); a 101 socket is closed right away. */
  ws?: boolean;
}

interface Row {
  /** The route as `app.routes` names it ("METHOD path"), or "PAGE <id>" for a page of the route table. */
  route: string;
  /** Several rows may cover one route (e.g. a public and a hidden listing). */
  variant?: string;
  request: (w: World) => Promise<Req> | Req;
  expected: Expected;
  /** The owner needs a real password (routes that ask for it again). */
  ownerPassword?: boolean;
  /** The owner is a seller with a connected Stripe account. */
  ownerConnected?: boolean;
  /** Console errors this row is known to log (e.g. a provider refusing). */
  allowErrors?: (string | RegExp)[];
}

const form = (images: string[]) => ({
  title: "Brio togbane med tunnel",
  description: "Pent brukt.",
  category: "lego",
  age_range: "3-5 år",
  condition_rating: 4,
  price: "150",
  is_free: false,
  is_trade_offer: false,
  postal_code: "0150",
  images,
});

const API_ROWS: Row[] = [
  // Open to everyone.
  { route: "GET /api/home", request: () => ({ path: "/api/home" }), expected: all(200) },
  { route: "GET /api/config", request: () => ({ path: "/api/config" }), expected: all(200) },
  { route: "GET /api/search", request: () => ({ path: "/api/search?q=lego&sort=price_asc" }), expected: all(200) },
  {
    route: "GET /api/listings/:id",
    variant: "public",
    request: async (w) => ({ path: `/api/listings/${(await w.listing()).id}` }),
    expected: all(200),
  },
  {
    route: "GET /api/listings/:id",
    variant: "hidden",
    request: async (w) => ({ path: `/api/listings/${(await w.hiddenListing()).id}` }),
    expected: s(404, 404, 200, 200, 200, 200),
  },
  {
    route: "GET /api/listings/by-slug/:slug",
    variant: "hidden",
    request: async (w) => ({ path: `/api/listings/by-slug/${(await w.hiddenListing()).seoSlug}` }),
    expected: s(404, 404, 200, 200, 200, 200),
  },
  // A finished deal's listing: everyone reads it, read only (decision 117).
  ...(["sale", "trade", "giveaway"] as const).map(
    (kind): Row => ({
      route: "GET /api/listings/:id",
      variant: `${kind}: the deal's listing`,
      request: async (w) => ({ path: `/api/listings/${(await w.dealListing(kind)).id}` }),
      expected: all(200),
    }),
  ),
  {
    route: "GET /api/listings/by-slug/:slug",
    variant: "sale: the deal's listing",
    request: async (w) => ({ path: `/api/listings/by-slug/${(await w.dealListing("sale")).seoSlug}` }),
    expected: all(200),
  },
  { route: "GET /api/auth/session", request: () => ({ path: "/api/auth/session" }), expected: all(200) },
  {
    route: "POST /api/auth/signup",
    request: (w) => ({
      path: "/api/auth/signup",
      method: "POST",
      json: { display_name: "Nina", email: `ny-${crypto.randomUUID()}@test.no`, password: PASSWORD, postal_code: "0150" },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(201),
  },
  {
    route: "POST /api/auth/signin",
    request: (w) => ({
      path: "/api/auth/signin",
      method: "POST",
      json: { email: signInUser.email, password: PASSWORD },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(200),
  },
  {
    route: "POST /api/auth/signin",
    variant: "wrong password",
    request: (w) => ({
      path: "/api/auth/signin",
      method: "POST",
      json: { email: w.owner.email, password: "feil-passord" },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(400),
  },
  {
    route: "POST /api/auth/resend",
    request: (w) => ({ path: "/api/auth/resend", method: "POST", json: { email: w.owner.email }, headers: { "CF-Connecting-IP": w.ip } }),
    expected: all(200),
  },
  {
    route: "POST /api/auth/callback",
    variant: "unknown code",
    request: (w) => ({ path: "/api/auth/callback", method: "POST", json: { code: "a".repeat(43) }, headers: { "CF-Connecting-IP": w.ip } }),
    expected: all(400),
  },
  {
    route: "POST /api/auth/refresh",
    variant: "no refresh cookie",
    request: () => ({ path: "/api/auth/refresh", method: "POST" }),
    expected: all(401),
  },
  { route: "POST /api/auth/signout", request: () => ({ path: "/api/auth/signout", method: "POST" }), expected: all(204) },
  // Vipps Login (decision 128): anyone may start one; a callback, a link proof or a mailed code is
  // only good with the browser's own cookies or the mailed code, which none of these requests has.
  {
    route: "POST /api/auth/vipps/start",
    request: (w) => ({ path: "/api/auth/vipps/start", method: "POST", json: {}, headers: { "CF-Connecting-IP": w.ip } }),
    expected: all(200),
  },
  {
    route: "POST /api/auth/vipps/callback",
    variant: "unknown state",
    request: (w) => ({
      path: "/api/auth/vipps/callback",
      method: "POST",
      json: { state: "s".repeat(43), code: "c".repeat(40) },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(400),
  },
  { route: "GET /api/auth/vipps/link", variant: "no waiting link", request: () => ({ path: "/api/auth/vipps/link" }), expected: all(400) },
  {
    route: "POST /api/auth/vipps/link",
    variant: "no waiting link",
    request: (w) => ({ path: "/api/auth/vipps/link", method: "POST", json: { password: PASSWORD }, headers: { "CF-Connecting-IP": w.ip } }),
    expected: all(400),
  },
  {
    route: "POST /api/auth/vipps/link/mail",
    variant: "no waiting link",
    request: (w) => ({ path: "/api/auth/vipps/link/mail", method: "POST", headers: { "CF-Connecting-IP": w.ip } }),
    expected: all(400),
  },
  {
    route: "POST /api/auth/vipps/link/confirm",
    variant: "unknown code",
    request: (w) => ({
      path: "/api/auth/vipps/link/confirm",
      method: "POST",
      json: { code: "a".repeat(43) },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(400),
  },
  // The plain forms of /auth and /auth/glemt-passord (decision 126): a redirect on or back, for anyone.
  {
    route: "POST /api/auth/signin/form",
    request: (w) => ({
      path: "/api/auth/signin/form",
      method: "POST",
      body: new URLSearchParams({ email: signInUser.email, password: PASSWORD }).toString(),
      headers: { "CF-Connecting-IP": w.ip, "Content-Type": "application/x-www-form-urlencoded" },
    }),
    expected: all(303),
  },
  {
    route: "POST /api/auth/password/forgot/form",
    request: (w) => ({
      path: "/api/auth/password/forgot/form",
      method: "POST",
      body: new URLSearchParams({ email: w.owner.email }).toString(),
      headers: { "CF-Connecting-IP": w.ip, "Content-Type": "application/x-www-form-urlencoded" },
    }),
    expected: all(303),
  },
  // "Glemt passord?" and the links of account mails (decision 125): open to anyone; a link is its own key.
  {
    route: "POST /api/auth/password/forgot",
    request: (w) => ({
      path: "/api/auth/password/forgot",
      method: "POST",
      json: { email: w.owner.email },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(200),
  },
  ...(["/api/auth/password/reset/check", "/api/auth/email/confirm", "/api/auth/email/stop"] as const).map(
    (path): Row => ({
      route: `POST ${path}`,
      variant: "unknown link",
      request: (w) => ({ path, method: "POST", json: { token: "a".repeat(43) }, headers: { "CF-Connecting-IP": w.ip } }),
      expected: all(400),
    }),
  ),
  {
    route: "POST /api/auth/password/reset",
    variant: "unknown link",
    request: (w) => ({
      path: "/api/auth/password/reset",
      method: "POST",
      json: { token: "a".repeat(43), password: "nyttpassord", password_confirm: "nyttpassord" },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(400),
  },
  {
    route: "POST /api/newsletter",
    request: (w) => ({
      path: "/api/newsletter",
      method: "POST",
      json: { email: `nyhet-${crypto.randomUUID()}@test.no` },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(201),
  },
  {
    route: "POST /api/contact",
    request: (w) => ({
      path: "/api/contact",
      method: "POST",
      json: { name: "Kari", email: "kari@test.no", subject: "Spørsmål", message: "Hei, jeg lurer på noe om en annonse." },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(201),
  },

  // The signed-in user's own account.
  { route: "GET /api/me", request: () => ({ path: "/api/me" }), expected: signedIn(200) },
  {
    route: "PATCH /api/me/profile",
    request: () => ({ path: "/api/me/profile", method: "PATCH", json: { display_name: "Nytt Navn" } }),
    expected: signedIn(200),
  },
  { route: "GET /api/me/moderation", request: () => ({ path: "/api/me/moderation" }), expected: signedIn(200) },
  { route: "GET /api/me/listings", request: () => ({ path: "/api/me/listings" }), expected: signedIn(200) },
  {
    route: "GET /api/me/listings/:id",
    request: async (w) => ({ path: `/api/me/listings/${(await w.listing()).id}` }),
    expected: s(401, 403, 200, 403, 403, 200),
  },
  // The owner's password: everyone else's own password differs (400), the owner's works.
  {
    route: "POST /api/me/export",
    ownerPassword: true,
    request: () => ({ path: "/api/me/export", method: "POST", json: { password: PASSWORD } }),
    expected: s(401, 400, 200, 400, 400, 200),
  },
  { route: "GET /api/me/vipps", request: () => ({ path: "/api/me/vipps" }), expected: signedIn(200) },
  // The owner's password starts "Koble til Vipps"; the others' own passwords differ (400).
  {
    route: "POST /api/me/vipps/start",
    ownerPassword: true,
    request: () => ({ path: "/api/me/vipps/start", method: "POST", json: { password: PASSWORD } }),
    expected: s(401, 400, 200, 400, 400, 200),
  },
  // Nobody's account here is linked to Vipps: nothing to unlink.
  {
    route: "DELETE /api/me/vipps",
    variant: "not linked",
    request: () => ({ path: "/api/me/vipps", method: "DELETE", json: { password: PASSWORD } }),
    expected: signedIn(404),
  },
  {
    route: "DELETE /api/me",
    ownerPassword: true,
    request: () => ({ path: "/api/me", method: "DELETE", json: { password: PASSWORD } }),
    expected: s(401, 400, 204, 400, 400, 204),
  },
  // "Endre passord" and "Endre e-post" ask for the owner's password (everyone else's differs: 400);
  // a suspension does not keep anyone from securing their own account.
  {
    route: "POST /api/me/password",
    ownerPassword: true,
    request: () => ({
      path: "/api/me/password",
      method: "POST",
      json: { current_password: PASSWORD, password: "nyttpassord", password_confirm: "nyttpassord" },
    }),
    expected: s(401, 400, 204, 400, 400, 204),
  },
  {
    route: "POST /api/me/email",
    ownerPassword: true,
    request: () => ({ path: "/api/me/email", method: "POST", json: { email: `flytt-${crypto.randomUUID()}@test.no`, password: PASSWORD } }),
    expected: s(401, 400, 202, 400, 400, 202),
  },
  // "Innlogget på": one's own sessions only; another's session is not found.
  { route: "GET /api/me/sessions", request: () => ({ path: "/api/me/sessions" }), expected: signedIn(200) },
  {
    route: "POST /api/me/sessions/sign-out-others",
    request: () => ({ path: "/api/me/sessions/sign-out-others", method: "POST" }),
    expected: signedIn(204),
  },
  {
    route: "DELETE /api/me/sessions/:id",
    request: async (w) => {
      const family = crypto.randomUUID();
      await env.DB.prepare(
        "INSERT INTO sessions (id, user_id, family_id, token_hash, expires_at, family_expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
      )
        .bind(crypto.randomUUID(), w.owner.id, family, crypto.randomUUID(), new Date(Date.now() + 3_600_000).toISOString())
        .run();
      return { path: `/api/me/sessions/${family}`, method: "DELETE" };
    },
    expected: ownerOnly(204),
  },
  { route: "GET /api/favourites", request: () => ({ path: "/api/favourites" }), expected: signedIn(200) },
  { route: "GET /api/favourites/ids", request: () => ({ path: "/api/favourites/ids" }), expected: signedIn(200) },
  {
    route: "PUT /api/favourites/:listingId",
    request: async (w) => ({ path: `/api/favourites/${(await w.partnersListing()).id}`, method: "PUT" }),
    expected: signedIn(204),
  },
  {
    route: "DELETE /api/favourites/:listingId",
    request: async (w) => ({ path: `/api/favourites/${(await w.partnersListing()).id}`, method: "DELETE" }),
    expected: signedIn(204),
  },

  // Listings and photos.
  {
    route: "PUT /api/listings/:id",
    request: async (w) => ({ path: `/api/listings/${(await w.listing()).id}`, method: "PUT", json: form([await w.photo()]) }),
    expected: s(401, 403, 200, 403, 403, 403),
  },
  {
    route: "PUT /api/listings/:id",
    variant: "sale: the deal's listing (read only for all but its owner)",
    request: async (w) => ({ path: `/api/listings/${(await w.dealListing("sale")).id}`, method: "PUT", json: form([]) }),
    expected: s(401, 403, 403, 403, 403, 403),
  },
  {
    route: "POST /api/listings/:id/status",
    request: async (w) => ({ path: `/api/listings/${(await w.listing()).id}/status`, method: "POST", json: { status: "reserved" } }),
    expected: s(401, 403, 200, 403, 403, 200),
  },
  {
    route: "DELETE /api/listings/:id",
    request: async (w) => ({ path: `/api/listings/${(await w.listing()).id}`, method: "DELETE" }),
    expected: s(401, 403, 204, 403, 403, 204),
  },
  {
    route: "POST /api/images",
    request: () => ({ path: "/api/images", method: "POST", body: jpegPhoto(), headers: { "Content-Type": "image/jpeg" } }),
    expected: s(401, 201, 201, 201, 201, 403),
  },
  {
    route: "DELETE /api/images/:key{.+}",
    request: async (w) => ({ path: `/api/images/${await w.photo()}`, method: "DELETE" }),
    expected: s(401, 404, 204, 404, 404, 204),
  },
  {
    route: "GET /images/*",
    variant: "photo of a public listing",
    request: async (w) => ({ path: `/images/${(await w.listing()).images[0]}` }),
    expected: all(200),
  },
  {
    route: "GET /images/*",
    variant: "photo of a hidden listing",
    request: async (w) => ({ path: `/images/${(await w.hiddenListing()).images[0]}` }),
    expected: s(404, 404, 200, 200, 200, 200),
  },
  // The create wizard shows its uploads before the listing exists: to their uploader only.
  {
    route: "GET /images/*",
    variant: "a photo in no listing",
    request: async (w) => ({ path: `/images/${await w.photo()}` }),
    expected: s(404, 404, 200, 404, 404, 200),
  },

  // Conversations and the live sockets.
  { route: "GET /api/conversations", request: () => ({ path: "/api/conversations" }), expected: signedIn(200) },
  {
    route: "POST /api/conversations",
    request: async (w) => ({ path: "/api/conversations", method: "POST", json: { listing_id: (await w.partnersListing()).id } }),
    expected: s(401, 201, 201, 201, 201, 403),
  },
  { route: "GET /api/conversations/unread-count", request: () => ({ path: "/api/conversations/unread-count" }), expected: signedIn(200) },
  {
    route: "GET /api/conversations/:id",
    request: async (w) => ({ path: `/api/conversations/${(await w.conversation()).id}` }),
    expected: ownerOnly(200),
  },
  {
    route: "GET /api/conversations/:id/messages",
    request: async (w) => ({ path: `/api/conversations/${(await w.conversation()).id}/messages` }),
    expected: ownerOnly(200),
  },
  {
    route: "POST /api/conversations/:id/messages",
    request: async (w) => ({
      path: `/api/conversations/${(await w.conversation()).id}/messages`,
      method: "POST",
      json: { id: crypto.randomUUID(), content: "Er den ledig?" },
    }),
    expected: ownerOnly(201, 403),
  },
  {
    route: "POST /api/conversations/:id/read",
    request: async (w) => ({ path: `/api/conversations/${(await w.conversation()).id}/read`, method: "POST", json: {} }),
    expected: ownerOnly(200),
  },
  {
    route: "GET /api/conversations/:id/live",
    request: async (w) => ({ path: `/api/conversations/${(await w.conversation()).id}/live?after=0`, ws: true }),
    expected: ownerOnly(101),
  },
  {
    route: "GET /api/conversations/:id/live",
    variant: "not as a WebSocket",
    request: async (w) => ({ path: `/api/conversations/${(await w.conversation()).id}/live` }),
    expected: all(400),
  },
  { route: "GET /api/conversations/live", request: () => ({ path: "/api/conversations/live", ws: true }), expected: signedIn(101) },
  { route: "GET /api/test-notifications", request: () => ({ path: "/api/test-notifications" }), expected: all(200) },
  {
    route: "POST /api/test-notifications",
    request: async (w) => {
      await w.conversation();
      return { path: "/api/test-notifications", method: "POST", json: { content: "Test melding for notifikasjoner" } };
    },
    // Only the owner has a conversation; a system message is not the suspended user's own write.
    expected: s(401, 404, 201, 404, 404, 201),
  },

  // Trades.
  {
    route: "GET /api/trade-offers/proposal/:listingId",
    request: async (w) => ({ path: `/api/trade-offers/proposal/${(await w.partnersListing()).id}` }),
    expected: signedIn(200),
  },
  {
    route: "POST /api/trade-offers",
    request: async (w) => ({
      path: "/api/trade-offers",
      method: "POST",
      json: { requested_listing_id: (await w.partnersListing()).id, offered_listing_id: (await w.actorsListing()).id, message: "Bytte?" },
    }),
    expected: s(401, 201, 201, 201, 201, 403),
  },
  {
    route: "GET /api/trade-offers/conversation/:conversationId",
    request: async (w) => ({ path: `/api/trade-offers/conversation/${(await w.trade("sender")).conversationId}` }),
    expected: ownerOnly(200),
  },
  {
    route: "GET /api/trade-offers/history/completed",
    request: () => ({ path: "/api/trade-offers/history/completed" }),
    expected: signedIn(200),
  },
  {
    route: "GET /api/trade-offers/history/:direction",
    request: () => ({ path: "/api/trade-offers/history/received" }),
    expected: signedIn(200),
  },
  {
    route: "GET /api/trade-offers/:id",
    request: async (w) => ({ path: `/api/trade-offers/${(await w.trade("sender")).offerId}` }),
    expected: ownerOnly(200),
  },
  {
    route: "POST /api/trade-offers/:id/accept",
    request: async (w) => ({ path: `/api/trade-offers/${(await w.trade("recipient")).offerId}/accept`, method: "POST" }),
    expected: ownerOnly(200, 403),
  },
  {
    route: "POST /api/trade-offers/:id/reject",
    request: async (w) => ({ path: `/api/trade-offers/${(await w.trade("recipient")).offerId}/reject`, method: "POST" }),
    expected: ownerOnly(200),
  },
  {
    route: "POST /api/trade-offers/:id/cancel",
    request: async (w) => ({ path: `/api/trade-offers/${(await w.trade("sender")).offerId}/cancel`, method: "POST" }),
    expected: ownerOnly(200),
  },
  {
    route: "POST /api/trade-offers/:id/confirm",
    request: async (w) => ({ path: `/api/trade-offers/${(await w.trade("sender", "accepted")).offerId}/confirm`, method: "POST" }),
    expected: ownerOnly(200),
  },

  // Payments (the provider is the payment sandbox).
  {
    route: "POST /api/payments/checkout",
    request: async () => {
      const seller = await connectedSeller();
      return { path: "/api/payments/checkout", method: "POST", json: { listing_id: (await payableListing(seller.id)).id, method: "card" } };
    },
    expected: s(401, 201, 201, 201, 201, 403),
  },
  {
    route: "POST /api/payments/verify",
    request: async (w) => ({
      path: "/api/payments/verify",
      method: "POST",
      json: { session_id: (await w.purchase()).sessionId, payment_id: (await w.purchase()).paymentId },
    }),
    expected: ownerOnly(200),
  },
  {
    route: "GET /api/payments/details",
    request: async (w) => ({ path: `/api/payments/details?session_id=${(await w.purchase()).sessionId}` }),
    expected: ownerOnly(200),
  },
  // Held money (decision 105): only its buyer and seller see or move an order; a moderator only a case.
  {
    route: "GET /api/payments/orders",
    request: async (w) => ({ path: `/api/payments/orders?conversation_id=${(await w.heldOrder("buyer")).conversationId}` }),
    expected: signedIn(200),
  },
  {
    route: "GET /api/payments/orders/:id",
    request: async (w) => ({ path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}` }),
    expected: ownerOnly(200),
  },
  {
    route: "POST /api/payments/orders/:id/handed-over",
    ownerConnected: true,
    request: async (w) => ({ path: `/api/payments/orders/${(await w.heldOrder("seller")).id}/handed-over`, method: "POST" }),
    expected: ownerOnly(200),
  },
  {
    route: "POST /api/payments/orders/:id/received",
    request: async (w) => ({ path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}/received`, method: "POST" }),
    expected: ownerOnly(200),
  },
  // Photos of a problem report (decision 108): the buyer uploads for the order; a case's photos are
  // read by its buyer, its seller and staff with staff rights (a case), never by anyone else.
  {
    route: "POST /api/payments/orders/:id/photos",
    request: async (w) => ({
      path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}/photos`,
      method: "POST",
      body: jpegPhoto(),
      headers: { "Content-Type": "image/jpeg" },
    }),
    expected: ownerOnly(201),
  },
  {
    route: "GET /api/payments/orders/:id/photos/:photoId",
    request: async (w) => {
      const { id, photoId } = await w.casePhoto();
      return { path: `/api/payments/orders/${id}/photos/${photoId}` };
    },
    expected: s(401, 404, 200, 200, 200, 200),
  },
  {
    route: "POST /api/payments/orders/:id/problem",
    variant: "with a photo already used in another case",
    request: async (w) => {
      const { photoId } = await w.casePhoto();
      return {
        path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}/problem`,
        method: "POST",
        json: { reason: "damaged", text: "Leken kom i stykker.", photos: [photoId] },
      };
    },
    expected: s(401, 404, 409, 404, 404, 409),
  },
  {
    route: "POST /api/payments/orders/:id/problem",
    request: async (w) => ({
      path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}/problem`,
      method: "POST",
      json: { reason: "not_received", text: "Pakken har ikke kommet." },
    }),
    expected: ownerOnly(200),
  },
  // Before 7 days without a handover the buyer's cancel is refused (409); nobody else sees the order.
  {
    route: "POST /api/payments/orders/:id/cancel",
    request: async (w) => ({ path: `/api/payments/orders/${(await w.heldOrder("buyer")).id}/cancel`, method: "POST" }),
    expected: ownerOnly(409),
  },
  { route: "GET /api/payments/purchases", request: () => ({ path: "/api/payments/purchases" }), expected: signedIn(200) },
  { route: "GET /api/payments/sales", request: () => ({ path: "/api/payments/sales" }), expected: signedIn(200) },
  { route: "GET /api/payments/stripe/account", request: () => ({ path: "/api/payments/stripe/account" }), expected: signedIn(200) },
  {
    route: "POST /api/payments/stripe/account-link",
    request: () => ({ path: "/api/payments/stripe/account-link", method: "POST" }),
    expected: signedIn(200),
  },
  // Only a seller who has connected Stripe has a dashboard; everyone else is told to connect first.
  {
    route: "POST /api/payments/stripe/dashboard-link",
    ownerConnected: true,
    request: () => ({ path: "/api/payments/stripe/dashboard-link", method: "POST" }),
    expected: s(401, 409, 200, 409, 409, 200),
  },
  // Providers authenticate by signature, never by session: an unsigned event is refused for everyone.
  {
    route: "POST /api/payments/webhooks/stripe",
    variant: "unsigned",
    request: () => ({
      path: "/api/payments/webhooks/stripe",
      method: "POST",
      body: JSON.stringify({ id: "evt_x", type: "checkout.session.completed" }),
      headers: { "Content-Type": "application/json" },
    }),
    expected: all(400),
  },
  {
    route: "POST /api/payments/webhooks/vipps",
    variant: "unsigned",
    request: () => ({
      path: "/api/payments/webhooks/vipps",
      method: "POST",
      body: JSON.stringify({ reference: "x", name: "AUTHORIZED" }),
      headers: { "Content-Type": "application/json" },
    }),
    expected: all(400),
  },

  // Payment cases beside the reports (decision 105): staff only; the owner is the case's buyer.
  {
    route: "GET /api/moderation/payment-cases",
    request: () => ({ path: "/api/moderation/payment-cases" }),
    expected: staff(200),
  },
  {
    route: "POST /api/moderation/payment-cases/:id/decision",
    request: async (w) => ({
      path: `/api/moderation/payment-cases/${(await w.heldOrder("buyer", true)).id}/decision`,
      method: "POST",
      json: { action: "release_by_moderator" },
    }),
    expected: staff(200),
  },

  // Reports and moderation.
  {
    route: "POST /api/reports",
    request: async (w) => ({
      path: "/api/reports",
      method: "POST",
      json: { target_type: "listing", target_id: (await w.partnersListing()).id, reason: "Falsk annonse" },
    }),
    expected: signedIn(201),
  },
  {
    route: "POST /api/reports",
    variant: "a second report by the same reporter, another reason (kept beside the first, decision 083)",
    request: async (w) => ({
      path: "/api/reports",
      method: "POST",
      json: { target_type: "listing", target_id: (await w.actorsReport()).id, reason: "Spam/reklame" },
    }),
    expected: signedIn(201),
  },
  {
    route: "POST /api/reports",
    variant: "an identical repeat while the first is open (not stored twice)",
    request: async (w) => ({
      path: "/api/reports",
      method: "POST",
      json: { target_type: "listing", target_id: (await w.actorsReport()).id, reason: "Falsk annonse" },
    }),
    expected: signedIn(200),
  },
  {
    route: "GET /api/moderation/reports",
    variant: "the dashboard",
    request: () => ({ path: "/api/moderation/reports?status=pending" }),
    expected: staff(200),
  },
  {
    route: "POST /api/moderation/reports/:id/review",
    request: async (w) => ({ path: `/api/moderation/reports/${await w.report()}/review`, method: "POST" }),
    expected: staff(200),
  },
  {
    route: "POST /api/moderation/reports/:id/actions",
    request: async (w) => ({
      path: `/api/moderation/reports/${await w.report()}/actions`,
      method: "POST",
      json: { action: "hide", notes: "Regelbrudd" },
    }),
    expected: staff(200),
  },
  {
    route: "POST /api/moderation/reports/:id/dismiss",
    request: async (w) => ({ path: `/api/moderation/reports/${await w.report()}/dismiss`, method: "POST", json: { notes: "Ok" } }),
    expected: staff(200),
  },
  {
    route: "POST /api/moderation/targets/:type/:id/unhide",
    request: async (w) => ({
      path: `/api/moderation/targets/listing/${(await w.hiddenListing()).id}/unhide`,
      method: "POST",
      json: { notes: null },
    }),
    expected: staff(200),
  },
  { route: "GET /api/moderation/staff", request: () => ({ path: "/api/moderation/staff" }), expected: adminOnly(200) },
  {
    route: "PUT /api/moderation/roles",
    request: async (w) => ({ path: "/api/moderation/roles", method: "PUT", json: { email: (await w.partner()).email, role: "moderator" } }),
    expected: adminOnly(200),
  },
  ...MODERATION_STAFF_ROWS.filter((row) => row.inMatrix).map(({ route, variant, request }) => ({
    route,
    variant,
    request,
    expected: staff(200),
  })),

  // Saved searches: the owner's own (anyone else's is 404); the unsubscribe link needs only its token.
  { route: "GET /api/saved-searches", request: () => ({ path: "/api/saved-searches" }), expected: signedIn(200) },
  { route: "GET /api/saved-searches/badge", request: () => ({ path: "/api/saved-searches/badge" }), expected: signedIn(200) },
  {
    route: "POST /api/saved-searches",
    request: () => ({ path: "/api/saved-searches", method: "POST", json: { name: "Brio", query: "q=brio" } }),
    expected: signedIn(201),
  },
  {
    route: "PATCH /api/saved-searches/:id",
    request: async (w) => ({ path: `/api/saved-searches/${(await w.savedSearch()).id}`, method: "PATCH", json: { name: "Kapret" } }),
    expected: ownerOnly(200),
  },
  {
    route: "DELETE /api/saved-searches/:id",
    request: async (w) => ({ path: `/api/saved-searches/${(await w.savedSearch()).id}`, method: "DELETE" }),
    expected: ownerOnly(204),
  },
  {
    route: "POST /api/saved-searches/:id/seen",
    request: async (w) => ({ path: `/api/saved-searches/${(await w.savedSearch()).id}/seen`, method: "POST" }),
    expected: ownerOnly(204),
  },
  {
    route: "POST /api/saved-searches/unsubscribe",
    request: async (w) => ({
      path: "/api/saved-searches/unsubscribe",
      method: "POST",
      json: { token: await signUnsubscribeToken(env, (await w.savedSearch()).id, w.owner.id) },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(200),
  },

  // Seller statistics: the listing's owner and staff.
  {
    route: "GET /api/analytics/listings/:id",
    request: async (w) => ({ path: `/api/analytics/listings/${(await w.listing()).id}` }),
    expected: s(401, 404, 200, 200, 200, 200),
  },
  { route: "GET /api/analytics/my-listings", request: () => ({ path: "/api/analytics/my-listings" }), expected: signedIn(200) },

  // Local mode only (production answers 404: deploy-safety.integration.test.ts); the tests run local.
  { route: "GET /api/dev/mail", request: () => ({ path: "/api/dev/mail" }), expected: all(200) },
  { route: "GET /api/dev/mail.json", request: () => ({ path: "/api/dev/mail.json" }), expected: all(200) },
  { route: "GET /dev/mail", request: () => ({ path: "/dev/mail" }), expected: all(200) },
  { route: "GET /dev/mail.json", request: () => ({ path: "/dev/mail.json" }), expected: all(200) },
  { route: "GET /api/dev/analytics/summary", request: () => ({ path: "/api/dev/analytics/summary" }), expected: all(200) },
  { route: "GET /api/dev/d1-usage", request: () => ({ path: "/api/dev/d1-usage" }), expected: all(200) },
  {
    route: "POST /api/dev/saved-searches/match",
    request: async (w) => ({ path: "/api/dev/saved-searches/match", method: "POST", json: { listingIds: [(await w.listing()).id] } }),
    expected: all(200),
  },

  // Crawlers' files and the API's own 404.
  { route: "GET /robots.txt", request: () => ({ path: "/robots.txt" }), expected: all(200) },
  { route: "GET /sitemap.xml", request: () => ({ path: "/sitemap.xml" }), expected: all(200) },
  {
    route: "GET /:file{sitemap-[0-9]+\\.xml}",
    // Moderation rows before this one drop the stored sitemap; write it again as one file per URL.
    request: async () => {
      await sitemapInTwoFiles();
      return { path: "/sitemap-1.xml" };
    },
    expected: all(200),
  },
  // Reviews (decision 070): the two parties of a deal only; everyone else 404. A suspended party may
  // read its deal's state but not write (403).
  {
    route: "POST /api/reviews",
    request: async (w) => ({
      path: "/api/reviews",
      method: "POST",
      json: { deal_kind: "sale", deal_id: await w.sale(), rating: 5, text: "Hyggelig handel." },
    }),
    expected: ownerOnly(201, 403),
  },
  {
    route: "GET /api/reviews/deals/:kind/:id",
    request: async (w) => ({ path: `/api/reviews/deals/sale/${await w.sale()}` }),
    expected: ownerOnly(200),
  },
  {
    route: "GET /api/reviews/conversations/:id",
    request: async (w) => ({ path: `/api/reviews/conversations/${(await w.conversation()).id}` }),
    expected: ownerOnly(200),
  },
  // The public profile: open to everyone, a suspended user's too (decision 071).
  { route: "GET /api/users/:id", request: (w) => ({ path: `/api/users/${w.owner.id}` }), expected: all(200) },
  { route: "GET /bruker/:id", request: (w) => ({ path: `/bruker/${w.owner.id}` }), expected: all(200) },
  // The give-away queue (decision 075): anyone signed in may queue for someone else's free listing
  // (not a suspended user); only the giver reserves, releases and gives (403 for anyone else).
  { route: "GET /api/giveaways/mine", request: () => ({ path: "/api/giveaways/mine" }), expected: signedIn(200) },
  { route: "GET /api/giveaways/mine/unseen", request: () => ({ path: "/api/giveaways/mine/unseen" }), expected: signedIn(200) },
  {
    route: "POST /api/giveaways/mine/seen",
    request: () => ({ path: "/api/giveaways/mine/seen", method: "POST" }),
    expected: signedIn(204),
  },
  {
    route: "GET /api/giveaways/listings/:listingId",
    request: async (w) => ({ path: `/api/giveaways/listings/${(await w.giveaway("waiting")).id}` }),
    expected: all(200),
  },
  {
    route: "POST /api/giveaways/listings/:listingId/queue",
    request: async (w) => ({
      path: `/api/giveaways/listings/${(await w.partnersListing({ isFree: true, isTradeOffer: false, images: [] })).id}/queue`,
      method: "POST",
      json: { message: "Kan hente i kveld" },
    }),
    expected: s(401, 201, 201, 201, 201, 403),
  },
  {
    route: "POST /api/giveaways/listings/:listingId/leave",
    request: async (w) => ({ path: `/api/giveaways/listings/${(await w.giveawayPlace()).id}/leave`, method: "POST" }),
    expected: s(401, 409, 200, 409, 409, 200),
  },
  {
    route: "POST /api/giveaways/listings/:listingId/reserve",
    request: async (w) => ({ path: `/api/giveaways/listings/${(await w.giveaway("waiting")).id}/reserve`, method: "POST", json: {} }),
    expected: s(401, 403, 200, 403, 403, 403),
  },
  {
    route: "POST /api/giveaways/listings/:listingId/release",
    request: async (w) => ({ path: `/api/giveaways/listings/${(await w.giveaway("reserved")).id}/release`, method: "POST" }),
    expected: s(401, 403, 200, 403, 403, 200),
  },
  {
    route: "POST /api/giveaways/listings/:listingId/give",
    request: async (w) => ({ path: `/api/giveaways/listings/${(await w.giveaway("reserved")).id}/give`, method: "POST" }),
    expected: s(401, 403, 200, 403, 403, 200),
  },
  // No INDEXNOW_KEY in the tests: the key file does not exist.
  { route: "GET /:file{[A-Za-z0-9-]{8,128}\\.txt}", request: () => ({ path: "/abcdef123456.txt" }), expected: all(404) },
  { route: "ALL /api/*", variant: "an unknown API path", request: () => ({ path: "/api/finnes-ikke" }), expected: all(404) },
  {
    route: "GET /annonse/:slug",
    variant: "public listing",
    request: async (w) => ({ path: `/annonse/${(await w.listing()).seoSlug}` }),
    expected: all(200),
  },
  {
    route: "GET /annonse/:slug",
    variant: "hidden listing",
    request: async (w) => ({ path: `/annonse/${(await w.hiddenListing()).seoSlug}` }),
    expected: s(404, 404, 200, 200, 200, 200),
  },
  {
    route: "GET /*",
    variant: "an unknown page",
    request: () => ({ path: "/finnes-ikke", headers: { Accept: "text/html" } }),
    expected: all(404),
  },
  { route: "HEAD /*", request: () => ({ path: "/search", method: "HEAD" }), expected: all(200) },
];

// Their 202s start queue consumers that write D1 and R2 a few seconds later, so they run last:
// no refusal's "nothing changed" window comes after them.
const QUEUEING_ROWS: Row[] = [
  {
    route: "POST /api/listings",
    request: async (w) => ({ path: "/api/listings", method: "POST", json: form([await w.actorsPhoto()]) }),
    expected: s(401, 201, 201, 201, 201, 403),
  },
  {
    route: "POST /api/analytics/sessions",
    request: (w) => ({
      path: "/api/analytics/sessions",
      method: "POST",
      json: {
        sessionId: crypto.randomUUID(),
        userAgent: "Mozilla/5.0",
        referrer: null,
        entryPage: "/",
        deviceType: "mobile",
        browser: "Safari",
        os: "iOS",
      },
      headers: { "CF-Connecting-IP": w.ip },
    }),
    expected: all(202),
  },
  {
    route: "POST /api/analytics/events",
    request: async (w) => {
      const sessionId = crypto.randomUUID();
      const event = {
        eventType: "page_view",
        eventCategory: "navigation",
        eventAction: "view",
        eventLabel: null,
        eventValue: null,
        metadata: {
          sessionId,
          timestamp: new Date().toISOString(),
          page: "/",
          userAgent: "Mozilla/5.0",
          referrer: null,
          pageUrl: "http://localhost/",
        },
      };
      return {
        path: "/api/analytics/events",
        method: "POST",
        json: { sessionId, events: [event] },
        headers: { "CF-Connecting-IP": w.ip },
        cookies: await w.analyticsCookie(),
      };
    },
    expected: all(202),
  },
  {
    route: "POST /api/analytics/listing-views",
    request: async (w) => ({
      path: "/api/analytics/listing-views",
      method: "POST",
      json: {
        sessionId: crypto.randomUUID(),
        viewId: crypto.randomUUID(),
        listingId: (await w.listing()).id,
        referrerType: "search",
        searchQuery: "lego",
        filterContext: null,
        scrollDepthPercent: 0,
        viewDurationMs: 0,
      },
      headers: { "CF-Connecting-IP": w.ip },
      cookies: await w.analyticsCookie(),
    }),
    expected: all(202),
  },
  {
    route: "POST /api/analytics/searches",
    request: async (w) => ({
      path: "/api/analytics/searches",
      method: "POST",
      json: { sessionId: crypto.randomUUID(), query: "lego", filters: {}, resultCount: 3 },
      headers: { "CF-Connecting-IP": w.ip },
      cookies: await w.analyticsCookie(),
    }),
    expected: all(202),
  },
];

/** A concrete path for a page pattern, with ids the owner really has where the page takes one. */
async function pagePath(id: PageRouteId, w: World): Promise<string> {
  const params: Record<string, () => Promise<string>> = {
    slug: async () => (await w.listing()).seoSlug,
    id: async () => (await w.listing()).id,
    listingId: async () => (await w.listing()).id,
    conversationId: async () => (await w.conversation()).id,
  };
  // The public profile's id is a user's: the owner's.
  if (id === "publicProfile") return PAGE_ROUTES[id].path.replace(":id", w.owner.id);
  let path: string = PAGE_ROUTES[id].path;
  for (const [, name] of path.matchAll(/:([A-Za-z]+)/g)) path = path.replace(`:${name}`, await params[name]());
  return path;
}

// Every page of the route table: the SPA shell with 200 for everyone (login-required pages ask the
// API, which enforces; the Worker's part is the real 404 for unknown paths and the listing page).
const PAGE_ROWS: Row[] = PAGE_ROUTE_IDS.map((id) => ({
  route: `PAGE ${id}`,
  request: async (w) => ({ path: await pagePath(id, w), headers: { Accept: "text/html" } }),
  expected: all(200),
}));
PAGE_ROWS.push({
  route: "PAGE listingBySlug",
  variant: "hidden listing",
  request: async (w) => ({ path: `/annonse/${(await w.hiddenListing()).seoSlug}`, headers: { Accept: "text/html" } }),
  expected: s(404, 404, 200, 200, 200, 200),
});
PAGE_ROWS.push({
  route: "PAGE listingBySlug",
  variant: "trade: the deal's listing",
  request: async (w) => ({ path: `/annonse/${(await w.dealListing("trade")).seoSlug}`, headers: { Accept: "text/html" } }),
  expected: all(200),
});

/**
 * Registered by `.use()` (and one `.all()` guard): they answer nothing themselves, their effect is
 * in the rows of the routes behind them. A new middleware path must be added here on purpose.
 */
const MIDDLEWARE = new Set([
  "ALL /api/conversations/*", // requireUser for the conversation routes
  "ALL /api/dev/*", // local mode only
  "ALL /api/dev/analytics/*",
  "ALL /api/dev/d1-usage/*",
  "ALL /api/dev/saved-searches/*",
  "ALL /api/favourites/*", // requireUser
  "ALL /api/images/*", // requireUser for uploads
  "ALL /api/me/*", // requireUser
  "ALL /api/me/vipps/*", // requireUser
  "ALL /api/moderation/*", // requireRole("moderator", "admin"), no-store
  "ALL /api/payments/*", // requireUser, no-store
  "ALL /api/payments/webhooks/*", // the webhooks' body limit
  "ALL /api/reviews/*", // requireUser, no-store
  "ALL /api/test-notifications/*", // local mode only
  "ALL /api/trade-offers/*", // requireUser
  "ALL /dev/*", // local mode only
  "ALL /*", // security headers, configuration
]);

const ROWS = [...API_ROWS, ...PAGE_ROWS, ...QUEUEING_ROWS];

// ------------------------------------------------------------------------------------------------

/** scrypt costs ~260 ms a hash: one hash for every owner that needs a password, one user to sign in. */
let passwordHash = "";
let signInUser: TestUser;
let ipCounter = 0;

beforeAll(async () => {
  await sitemapInTwoFiles();
  passwordHash = await hashPassword(PASSWORD);
  signInUser = await createUser({ password: PASSWORD });
});

/** sitemap.xml as an index of two files (sitemap-1.xml, sitemap-2.xml). */
async function sitemapInTwoFiles() {
  const { urls } = await generateSitemap(env, "http://localhost");
  await generateSitemap(env, "http://localhost", Math.ceil(urls / 2));
}

async function runCase(row: Row, role: Role): Promise<{ status: number; changed: string | null; unreadable: string | null }> {
  const caseStart = new Date().toISOString();
  const owner = await createUser();
  if (row.ownerPassword) await env.DB.prepare("UPDATE users SET password_hash = ?2 WHERE id = ?1").bind(owner.id, passwordHash).run();
  if (row.ownerConnected) await connectOwner(owner.id);
  if (role === "suspended") await suspend(owner.id);
  const actor =
    role === "visitor"
      ? null
      : role === "owner" || role === "suspended"
        ? owner
        : await createUser({ role: role === "other" ? "user" : role });
  return perform(row, row.expected[role], caseStart, owner, actor);
}

/** One request of a row as `actor` (null: a visitor) on `owner`'s objects; a refusal must change nothing. */
async function perform(
  row: Pick<Row, "request">,
  expected: number,
  caseStart: string,
  owner: TestUser,
  actor: TestUser | null,
): Promise<{ status: number; changed: string | null; unreadable: string | null }> {
  ipCounter += 1;
  const world = new World(owner, actor, `10.15.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`);
  const client = actor ? await signedInClient(actor.id) : new Client();
  const req = await row.request(world);
  // Only a refusal must leave everything as it was; successes are not snapshotted (it is costly).
  const before = expected >= 400 ? await storedState(caseStart) : null;
  let status: number;
  let unreadable: string | null = null;
  if (req.ws) {
    const { res, socket } = await upgrade(client, req.path);
    status = res.status;
    if (!socket) await res.text();
    socket?.close();
  } else {
    const headers = new Headers(req.headers);
    for (const [name, value] of Object.entries(req.cookies ?? {})) client.cookies.set(name, value);
    // A redirect is the route's answer (the plain forms answer 303), not something to follow.
    const res = await client.request(req.path, {
      method: req.method ?? "GET",
      json: req.json,
      body: req.body,
      headers,
      redirect: "manual",
    });
    status = res.status;
    if (status >= 400 && res.headers.get("Content-Type")?.includes("application/json")) {
      const { message } = await errorOf(res);
      if (!isNorwegianMessage(message)) unreadable = `${status} ${JSON.stringify(message)}`;
    } else {
      await res.arrayBuffer();
    }
  }
  let changed: string | null = null;
  if (before) {
    const diffs = stateChanges(before, await storedState(caseStart));
    if (diffs.length) changed = diffs.join(", ");
  }
  await settle(caseStart);
  return { status, changed, unreadable };
}

/**
 * A message's recipient who has never been online is mailed by the ConversationRoom's alarm a moment
 * later, and the alarm mirrors the room's messages to D1 (decision 107); run both now for the case's
 * conversations, so neither can land inside a later refusal's window.
 */
async function settle(since: string): Promise<void> {
  const { results } = await env.DB.prepare("SELECT id FROM conversations WHERE updated_at >= ?1 OR created_at >= ?1")
    .bind(since)
    .all<{ id: string }>();
  for (const { id } of results) {
    await mirrored(id);
    await runDurableObjectAlarm(env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(id)));
  }
}

/** Refusals first: a success's after-effects (waitUntil, queues) cannot fall into a refusal's window. */
const roleOrder = (expected: Expected) => [...ROLES].sort((a, b) => Number(expected[a] < 400) - Number(expected[b] < 400));

/** A staff case: the staff member (suspended or not) and the owner of the row's objects (themselves or another). */
async function runStaffCase(row: (typeof MODERATION_STAFF_ROWS)[number], name: StaffCase) {
  const caseStart = new Date().toISOString();
  const spec = STAFF_CASES[name];
  const actor = await createUser({ role: spec.actor });
  if (spec.suspended) await suspend(actor.id);
  const owner = spec.owner === "self" ? actor : await createUser({ role: spec.owner });
  return perform(row, row.expected[name], caseStart, owner, actor);
}

describe("staff rules (decision 052)", () => {
  it.each(MODERATION_STAFF_ROWS.map((row) => [`${row.route} (${row.variant})`, row] as const))("%s", async (_name, row) => {
    const got = {} as Record<StaffCase, number>;
    const changes: string[] = [];
    const messages: string[] = [];
    for (const name of STAFF_CASE_NAMES) {
      const { status, changed, unreadable } = await runStaffCase(row, name);
      got[name] = status;
      if (changed) changes.push(`${name} (${status}): ${changed}`);
      if (unreadable) messages.push(`${name}: ${unreadable}`);
    }
    const line = (e: Record<StaffCase, number>) => STAFF_CASE_NAMES.map((name) => `${name} ${e[name]}`).join(", ");
    expect(line(got), "status per staff case").toBe(line(row.expected));
    expect(changes, "a refusal changed stored state").toEqual([]);
    expect(messages, "every refusal says why in Norwegian").toEqual([]);
  });
});

describe("permission matrix", () => {
  it("every registered route and every page has a row, and every row a route", () => {
    const registered = new Set(app.routes.map((r) => `${r.method} ${r.path}`));
    const covered = new Set(ROWS.map((r) => r.route));
    const missing = [...registered].filter((r) => !covered.has(r) && !MIDDLEWARE.has(r));
    const missingPages = PAGE_ROUTE_IDS.map((id) => `PAGE ${id}`).filter((r) => !covered.has(r));
    expect({ missing, missingPages }, "routes without a row in the permission matrix").toEqual({ missing: [], missingPages: [] });
    const stale = [...covered].filter((r) => !registered.has(r) && !r.startsWith("PAGE "));
    const stalePages = [...covered].filter((r) => r.startsWith("PAGE ") && !(PAGE_ROUTE_IDS as string[]).includes(r.slice(5)));
    const staleMiddleware = [...MIDDLEWARE].filter((r) => !registered.has(r));
    expect({ stale, stalePages, staleMiddleware }, "rows for routes the app no longer has").toEqual({
      stale: [],
      stalePages: [],
      staleMiddleware: [],
    });
  });

  it.each(ROWS.map((row) => [`${row.route}${row.variant ? ` (${row.variant})` : ""}`, row] as const))("%s", async (_name, row) => {
    if (row.allowErrors) allowConsoleError(...row.allowErrors);
    const got = {} as Record<Role, number>;
    const changes: string[] = [];
    const messages: string[] = [];
    for (const role of roleOrder(row.expected)) {
      const { status, changed, unreadable } = await runCase(row, role);
      got[role] = status;
      if (changed) changes.push(`${role} (${status}): ${changed}`);
      if (unreadable) messages.push(`${role}: ${unreadable}`);
    }
    const line = (e: Expected) => ROLES.map((role) => `${role} ${e[role]}`).join(", ");
    expect(line(got), "status per role").toBe(line(row.expected));
    expect(changes, "a refusal changed stored state").toEqual([]);
    expect(messages, "every refusal of the API says why in Norwegian").toEqual([]);
    expect(Object.values(got)).not.toContain(BUSY);
  });
});
