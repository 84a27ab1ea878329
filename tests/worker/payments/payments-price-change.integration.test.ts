// The seller changes the price while a buyer is in checkout (decision 087), against the
// payment sandbox: the edit expires open Stripe Checkout Sessions and cancels waiting Vipps payments,
// and a payment made at the old price before the edit is refunded (card) or released (Vipps) by
// settlement, never fulfilled: the listing stays for sale at the new price.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ListingRow } from "../../factories";
import { signedInClient } from "../../factories";
import type { Client } from "../support/http";
import { editFormOf } from "../support/listing-form";
import {
  approveVipps,
  checkout,
  connectedSeller,
  deliver,
  oneDelivery,
  outboxTo,
  payableListing,
  payByCard,
  paymentRow,
  saleCounts,
  sandboxRequests,
  signedIn,
  stripeGet,
} from "../support/payments";

/** A payable 100 kr listing with a photo (so the edit form can keep it) and its seller signed in. */
async function listingAt100() {
  const seller = await connectedSeller({ displayName: "Siri Selger" });
  const listing = await payableListing(seller.id, { price: 100, title: "Brio togbane", images: [`${seller.id}/1700000000000-brio.jpg`] });
  return { listing, sellerClient: await signedInClient(seller.id) };
}

async function edit(client: Client, row: ListingRow, change: Record<string, unknown>) {
  const res = await client.request(`/api/listings/${row.id}`, { method: "PUT", json: editFormOf(row, change) });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe("an open checkout when the seller changes the price", () => {
  it("card: the edit expires the Checkout Session; the old session can no longer be paid and nothing is sold", async () => {
    const { listing, sellerClient } = await listingAt100();
    const buyer = await signedIn();
    const open = await checkout(buyer.client, listing.id, "card");
    const sessionId = (await paymentRow(open.payment_id))!.provider_ref;

    await edit(sellerClient, listing, { price: 5000 });

    expect((await paymentRow(open.payment_id))!.status).toBe("expired");
    expect(await sandboxRequests(`/v1/checkout/sessions/${sessionId}/expire`)).toHaveLength(1);
    expect((await stripeGet<{ status: string }>(`/v1/checkout/sessions/${sessionId}`)).status).toBe("expired");
    expect((await payByCard(open.url)).status).toBe(410);
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 0, completed: 0, listing_status: "active" });
    expect((await env.DB.prepare("SELECT price FROM listings WHERE id = ?1").bind(listing.id).first<{ price: number }>())!.price).toBe(
      5000,
    );
  });

  it("Vipps: the edit cancels the payment still waiting for the user", async () => {
    const { listing, sellerClient } = await listingAt100();
    const buyer = await signedIn();
    const open = await checkout(buyer.client, listing.id, "vipps");
    const ref = (await paymentRow(open.payment_id))!.provider_ref;

    await edit(sellerClient, listing, { price: 5000 });

    expect((await paymentRow(open.payment_id))!.status).toBe("expired");
    expect(await sandboxRequests(`/epayment/v1/payments/${ref}/cancel`)).toHaveLength(1);
  });

  it("turning the listing into a give-away closes the checkout too", async () => {
    const { listing, sellerClient } = await listingAt100();
    const open = await checkout((await signedIn()).client, listing.id, "card");
    await edit(sellerClient, listing, { is_free: true, price: null });
    expect((await paymentRow(open.payment_id))!.status).toBe("expired");
  });

  it("an edit that leaves the terms alone (title, description) keeps the checkout open", async () => {
    const { listing, sellerClient } = await listingAt100();
    const open = await checkout((await signedIn()).client, listing.id, "card");
    const sessionId = (await paymentRow(open.payment_id))!.provider_ref;
    await edit(sellerClient, listing, { title: "Brio togbane med bro", description: "Komplett." });
    expect((await paymentRow(open.payment_id))!.status).toBe("pending");
    expect(await sandboxRequests(`/v1/checkout/sessions/${sessionId}/expire`)).toHaveLength(0);
  });
});

describe("a payment at the old price that arrives after the change", () => {
  it("card: paid at 100 kr before the seller asked 5,000 kr; the event is refused and refunded, the listing stays for sale", async () => {
    const { listing, sellerClient } = await listingAt100();
    const { user, client } = await signedIn({ displayName: "Kari Kjøper" });
    const { payment_id, url } = await checkout(client, listing.id, "card");
    expect((await payByCard(url)).status).toBe(303);
    const sessionId = (await paymentRow(payment_id))!.provider_ref;
    const event = await oneDelivery(sessionId, "checkout.session.completed");

    // The session is complete, so the edit cannot expire it: settlement is the second guard.
    await edit(sellerClient, listing, { price: 5000 });
    expect((await paymentRow(payment_id))!.status).toBe("pending");

    expect((await deliver(event)).status).toBe(200);
    expect((await paymentRow(payment_id))!.status).toBe("refunded");
    expect((await sandboxRequests("/v1/refunds")).filter((r) => r.idempotencyKey === `refund-${payment_id}`)).toHaveLength(1);
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 0, completed: 0, listing_status: "active" });
    expect(await outboxTo(user.email)).toHaveLength(1);
  });

  it("Vipps: approved at 100 kr before the change; the authorisation is cancelled and nothing is captured", async () => {
    const { listing, sellerClient } = await listingAt100();
    const buyer = await signedIn();
    const { payment_id, url } = await checkout(buyer.client, listing.id, "vipps");
    expect((await approveVipps(url)).status).toBe(303);
    const ref = (await paymentRow(payment_id))!.provider_ref;
    const event = await oneDelivery(ref, "epayments.payment.authorized.v1");

    await edit(sellerClient, listing, { price: 5000 });
    expect((await deliver(event)).status).toBe(200);
    expect((await paymentRow(payment_id))!.status).toBe("cancelled");
    expect(await sandboxRequests(`/epayment/v1/payments/${ref}/capture`)).toHaveLength(0);
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 0, listing_status: "active" });
  });

  it("the same price back again: a payment at that price is fulfilled as usual", async () => {
    const { listing, sellerClient } = await listingAt100();
    const { client } = await signedIn();
    const { payment_id, url } = await checkout(client, listing.id, "card");
    expect((await payByCard(url)).status).toBe(303);
    const event = await oneDelivery((await paymentRow(payment_id))!.provider_ref, "checkout.session.completed");
    await edit(sellerClient, listing, { price: 5000 });
    await edit(sellerClient, { ...listing, price: 5000 }, { price: 100 });
    expect((await deliver(event)).status).toBe(200);
    expect((await paymentRow(payment_id))!.status).toBe("completed");
    expect((await saleCounts(listing.id)).listing_status).toBe("sold");
  });
});
