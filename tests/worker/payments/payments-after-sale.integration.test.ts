// What a settled sale changes beyond the order, whichever path settled it (the webhook, the result
// pages' verification when the webhook is late, the hourly cron): the listing's cached pages and API
// answers show it sold at once (decision 116), and the buyer gets one receipt (decision 117), also
// when every path settles at the same moment.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shortOrderId } from "../../../domain/payments";
import { reconcilePendingPayments } from "../../../worker/features/payments/results";
import { Client } from "../support/http";
import {
  checkout,
  connectedSeller,
  deliver,
  oneDelivery,
  outboxTo,
  payableListing,
  payByCard,
  paymentRow,
  saleCounts,
  signedIn,
} from "../support/payments";

const word = () => `kvitto${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;

/** A card purchase paid at the sandbox whose webhook is held back: nothing has settled it yet. */
async function paidNotSettled() {
  const seller = await connectedSeller({ displayName: "Sara Selger" });
  const title = `${word()} lekekjøkken`;
  const listing = await payableListing(seller.id, { price: 1250, title });
  const { user: buyerUser, client: buyer } = await signedIn({ displayName: "Kari Kjøper" });
  const { payment_id, url } = await checkout(buyer, listing.id, "card");
  expect((await payByCard(url)).status).toBe(303);
  const sessionId = (await paymentRow(payment_id))!.provider_ref;
  expect((await saleCounts(listing.id)).listing_status).toBe("active");
  return { seller, listing, title, buyer, buyerUser, paymentId: payment_id, sessionId };
}

/** What an anonymous visitor is served at each address that shows the listing. */
async function visitorSees(listing: { id: string; seoSlug: string | null }, title: string) {
  const q = encodeURIComponent(title.split(" ")[0]);
  const api = await new Client().get(`/api/listings/${listing.id}`);
  const page = await (await new Client().get(`/annonse/${listing.seoSlug}`)).text();
  const search = await (await new Client().get(`/api/search?q=${q}`)).text();
  return {
    api: ((await api.json()) as { status: string }).status,
    page: page.includes('"status":"sold"') ? "sold" : page.includes('"status":"active"') ? "active" : "?",
    search: search.includes(listing.id) ? "listed" : "gone",
  };
}

async function cache(listing: { id: string; seoSlug: string | null }, title: string) {
  expect(await visitorSees(listing, title)).toEqual({ api: "active", page: "active", search: "listed" });
  // Stored: the next read is the edge's copy.
  expect((await new Client().get(`/api/listings/${listing.id}`)).headers.get("X-Edge-Cache")).toBe("HIT");
}

describe("a sale settled by any path purges the listing's cached pages", () => {
  it("the result page's GET /api/payments/details, with the webhook withheld", async () => {
    const sale = await paidNotSettled();
    await cache(sale.listing, sale.title);
    const details = await sale.buyer.get(`/api/payments/details?session_id=${encodeURIComponent(sale.sessionId)}`);
    expect(details.status).toBe(200);
    await details.body?.cancel();
    expect((await saleCounts(sale.listing.id)).listing_status).toBe("sold");
    expect(await visitorSees(sale.listing, sale.title)).toEqual({ api: "sold", page: "sold", search: "gone" });
  });

  it("the hourly cron, with the webhook withheld", async () => {
    const sale = await paidNotSettled();
    await cache(sale.listing, sale.title);
    expect(await reconcilePendingPayments(env, new Date(Date.now() + 2 * 3600_000))).toBeGreaterThan(0);
    expect(await visitorSees(sale.listing, sale.title)).toEqual({ api: "sold", page: "sold", search: "gone" });
  });

  it("the webhook", async () => {
    const sale = await paidNotSettled();
    await cache(sale.listing, sale.title);
    expect((await deliver(await oneDelivery(sale.sessionId, "checkout.session.completed"))).status).toBe(200);
    expect(await visitorSees(sale.listing, sale.title)).toEqual({ api: "sold", page: "sold", search: "gone" });
  });
});

describe("the buyer's receipt", () => {
  it("is mailed once with what was bought, the price, fee, total, method, order reference and the held money", async () => {
    const sale = await paidNotSettled();
    const details = await sale.buyer.get(`/api/payments/details?session_id=${encodeURIComponent(sale.sessionId)}`);
    expect(details.status).toBe(200);
    await details.body?.cancel();
    const receipts = (await outboxTo(sale.buyerUser.email)).filter((m) => m.subject.startsWith("Kvittering"));
    expect(receipts.map((m) => m.subject)).toEqual([`Kvittering for «${sale.title}»`]);
    const order = await env.DB.prepare("SELECT id, conversation_id FROM orders WHERE payment_id = ?1")
      .bind(sale.paymentId)
      .first<{ id: string; conversation_id: string }>();
    const text = receipts[0].text_body;
    for (const line of [
      "Hei Kari Kjøper!",
      `Leke: «${sale.title}»`,
      "Selger: Sara Selger",
      "Pris: 1 250,00 kr",
      "Gebyr: 0,00 kr",
      "Totalt betalt: 1 250,00 kr",
      "Betalt med: Kort",
      `Ordrereferanse: ${shortOrderId(order!.id)}`,
      "Pengene holdes trygt til du har fått varen (trygg betaling)",
      "«Jeg har fått varen»",
      `/chat/${order!.conversation_id}`,
    ])
      expect(text.replace(/\u00a0/g, " ")).toContain(line);
    // The seller's mail is the seller's: the buyer gets no copy of it, and the seller no receipt.
    expect((await outboxTo(sale.seller.email)).map((m) => m.subject)).toEqual([`Du har solgt «${sale.title}»`]);
  });

  it("is mailed once when the webhook, both result pages and the cron settle the sale at the same moment", async () => {
    const sale = await paidNotSettled();
    const delivery = await oneDelivery(sale.sessionId, "checkout.session.completed");
    const answers = await Promise.all([
      deliver(delivery),
      deliver(delivery),
      sale.buyer.get(`/api/payments/details?session_id=${encodeURIComponent(sale.sessionId)}`),
      sale.buyer.post("/api/payments/verify", { session_id: sale.sessionId, payment_id: sale.paymentId }),
      reconcilePendingPayments(env, new Date(Date.now() + 2 * 3600_000)).then(() => new Response(null, { status: 200 })),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(200);
      await res.body?.cancel();
    }
    // And once more later (a replayed webhook, the details page opened again).
    expect((await deliver(delivery)).status).toBe(200);
    await (await sale.buyer.get(`/api/payments/details?session_id=${encodeURIComponent(sale.sessionId)}`)).body?.cancel();
    const subjects = (await outboxTo(sale.buyerUser.email)).map((m) => m.subject);
    expect(subjects.filter((s) => s.startsWith("Kvittering"))).toEqual([`Kvittering for «${sale.title}»`]);
  });
});
