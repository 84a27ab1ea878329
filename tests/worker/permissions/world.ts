// What a permission-matrix row's request acts on: a World holds the row's owner, the caller and the
// owner's objects (listings, chats, trades, orders, reports, ...), each made on first use, fresh for
// every role.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
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
} from "../../factories";
import { Client } from "../support/http";
import { checkout, connectedSeller, deliver, oneDelivery, payableListing, payByCard, paymentRow } from "../support/payments";

/** What a row's request needs: the owner's objects, built on first use (fresh for every role). */
export class World {
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
          "INSERT INTO orders (id, payment_id, paid_at, seller_notified_at, state, settled_at, money_moved_at) VALUES (?1, ?2, ?3, ?3, 'released', ?3, ?3)",
        ).bind(crypto.randomUUID(), paymentId, new Date().toISOString()),
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
export async function connectOwner(ownerId: string): Promise<void> {
  const seller = await connectedSeller();
  await env.DB.prepare(
    "UPDATE profiles SET stripe_account_id = (SELECT stripe_account_id FROM profiles WHERE user_id = ?2), stripe_charges_enabled = 1, stripe_payouts_enabled = 1, stripe_details_submitted = 1 WHERE user_id = ?1",
  )
    .bind(ownerId, seller.id)
    .run();
  await env.DB.prepare("UPDATE profiles SET stripe_account_id = NULL WHERE user_id = ?1").bind(seller.id).run();
}

/** An active suspension of a week, as a moderator's "Steng ute midlertidig" leaves it. */
export async function suspend(userId: string): Promise<void> {
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
