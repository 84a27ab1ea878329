// Vipps MobilePay webhooks, authenticated as the Webhooks API documents (HMAC-SHA256 over method,
// path and query, x-ms-date, host and x-ms-content-sha256). An authorised payment is reserved (captured at release) and
// fulfilled; forged, altered, stale or replayed callbacks change nothing.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { verifyVippsWebhook } from "../../../worker/features/payments/vipps-signature";
import { errorOf } from "../support/http";
import {
  approveVipps,
  checkout,
  connectedSeller,
  deliver,
  oneDelivery,
  outboxTo,
  payableListing,
  paymentRow,
  saleCounts,
  sandboxRequests,
  signedIn,
  type HeldDelivery,
} from "../support/payments";

const enc = new TextEncoder();
const b64 = (buf: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(buf)));

/** Sign as Vipps signs (the test's own implementation of the documented algorithm). */
async function vippsHeaders(url: string, body: string, secret: string, date = new Date()): Promise<Record<string, string>> {
  const target = new URL(url);
  const hash = b64(await crypto.subtle.digest("SHA-256", enc.encode(body)));
  const msDate = date.toUTCString();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = b64(
    await crypto.subtle.sign("HMAC", key, enc.encode(`POST\n${target.pathname}${target.search}\n${msDate};${target.host};${hash}`)),
  );
  return {
    "x-ms-date": msDate,
    "x-ms-content-sha256": hash,
    authorization: `HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=${sig}`,
  };
}

describe("verifyVippsWebhook", () => {
  it("accepts the example from the Webhooks API documentation", async () => {
    // "Request authentication": secret, URL, body, date and the Authorization they give.
    const headers = new Headers({
      "x-ms-date": "Thu, 30 Mar 2023 08:38:32 GMT",
      "x-ms-content-sha256": "lNlsp1XA03N34HrQsVzPgJKtC+r7l/RBF4V3JQUWMj4=",
      authorization: "HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=agAiSyogQbDHpeucoNwYz+yAr5nJ+v+zasdkSbqzv+U=",
    });
    const request = {
      method: "POST",
      url: "https://webhook.site/e2cee29b-012e-4f1d-8ef4-e95fd74a7a63",
      headers,
      body: '{"some-unique-content":"ee6e441b-cc4a-46f8-895d-a5af79bcc233/hello-world"}',
    };
    const secret = "A0+AeKBRG2KRGvnNwJpQlb6IJFk48CKXCIcrLoHncVJKDILsQSxS6NWCccwWm6r6FhGKhiHTBsG2wo/xU6FY/A==";
    expect(await verifyVippsWebhook(request, secret, Date.parse("Thu, 30 Mar 2023 08:39:00 GMT"))).toBe("ok");
    expect(await verifyVippsWebhook(request, secret, Date.parse("Thu, 30 Mar 2023 09:39:00 GMT"))).toBe("stale-date");
    expect(
      await verifyVippsWebhook({ ...request, url: "https://webhook.site/other" }, secret, Date.parse("Thu, 30 Mar 2023 08:39:00 GMT")),
    ).toBe("bad-signature");
    expect(
      await verifyVippsWebhook(
        { ...request, body: request.body.replace("hello", "hallo") },
        secret,
        Date.parse("Thu, 30 Mar 2023 08:39:00 GMT"),
      ),
    ).toBe("bad-content-hash");
  });
});

async function authorisedVipps(price = 450) {
  const seller = await connectedSeller();
  const listing = await payableListing(seller.id, { price, title: "Dukkevogn" });
  const buyer = await signedIn({ displayName: "Vilde" });
  const { payment_id, url } = await checkout(buyer.client, listing.id, "vipps");
  expect((await approveVipps(url)).status).toBe(303);
  const ref = (await paymentRow(payment_id))!.provider_ref;
  const event = await oneDelivery(ref, "epayments.payment.authorized.v1");
  return { seller, listing, buyer, paymentId: payment_id, ref, event };
}

describe("epayments.payment.authorized.v1, correctly signed", () => {
  it("fulfils the purchase with the amount reserved, not captured (held until release, decision 105), and records the seller's payout as owed", async () => {
    const { seller, listing, paymentId, ref, event } = await authorisedVipps();
    expect(event.request.headers.authorization).toMatch(/^HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=/);
    const res = await deliver(event);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, duplicate: false });

    const payment = await paymentRow(paymentId);
    expect(payment).toMatchObject({ status: "completed", amount: 45000, captured_at: null });
    expect(await sandboxRequests(`/epayment/v1/payments/${ref}/capture`)).toEqual([]);

    const tx = await env.DB.prepare(
      "SELECT o.seller_payout, p.provider, p.amount, o.state FROM orders o JOIN payments p ON p.id = o.payment_id WHERE o.payment_id = ?1",
    )
      .bind(paymentId)
      .first();
    expect(tx).toEqual({ seller_payout: "owed", provider: "vipps", amount: 45000, state: "held" });
    expect(await saleCounts(listing.id)).toMatchObject({ orders: 1, completed: 1, messages: 1, listing_status: "sold" });
    const mail = await outboxTo(seller.email);
    expect(mail).toHaveLength(1);
    expect(mail[0].text_body).toContain("(betalt med Vipps)");
  });

  it("ABORTED (the buyer cancelled in Vipps) closes the payment as cancelled", async () => {
    const seller = await connectedSeller();
    const listing = await payableListing(seller.id);
    const { client } = await signedIn();
    const { payment_id, url } = await checkout(client, listing.id, "vipps");
    expect((await approveVipps(url, "cancel")).status).toBe(303);
    const ref = (await paymentRow(payment_id))!.provider_ref;
    expect((await deliver(await oneDelivery(ref, "epayments.payment.aborted.v1"))).status).toBe(200);
    expect((await paymentRow(payment_id))!.status).toBe("cancelled");
    expect((await saleCounts(listing.id)).listing_status).toBe("active");
  });
});

describe("forged, altered and stale callbacks are refused and change nothing", () => {
  const secret = () => env.VIPPS_WEBHOOK_SECRET;
  const CASES: Array<{ name: string; change: (d: HeldDelivery) => Promise<{ body?: string; headers?: Record<string, string | null> }> }> = [
    { name: "no Authorization header", change: async () => ({ headers: { authorization: null } }) },
    { name: "no x-ms-date", change: async () => ({ headers: { "x-ms-date": null } }) },
    {
      name: "signed with another secret",
      change: async (d) => ({ headers: await vippsHeaders(d.request.url, d.request.body, "not-the-secret") }),
    },
    {
      name: "a body changed under the original signature",
      change: async (d) => ({ body: d.request.body.replace('"value":45000', '"value":100') }),
    },
    {
      name: "a body changed with a matching content hash but the old signature",
      change: async (d) => {
        const body = d.request.body.replace('"value":45000', '"value":100');
        const fresh = await vippsHeaders(d.request.url, body, secret());
        return { body, headers: { "x-ms-content-sha256": fresh["x-ms-content-sha256"] } };
      },
    },
    { name: "a date changed after signing", change: async () => ({ headers: { "x-ms-date": new Date(Date.now() + 1000).toUTCString() } }) },
    {
      name: "correctly signed, but ten minutes old",
      change: async (d) => ({
        headers: await vippsHeaders(d.request.url, d.request.body, secret(), new Date(Date.now() - 10 * 60 * 1000)),
      }),
    },
    {
      name: "signed for another path",
      change: async (d) => ({ headers: await vippsHeaders(d.request.url.replace("/vipps", "/vipps-old"), d.request.body, secret()) }),
    },
    {
      name: "signed for another host",
      change: async (d) => ({ headers: await vippsHeaders(d.request.url.replace("localhost", "evil.example"), d.request.body, secret()) }),
    },
  ];

  it.each(CASES)("$name → 400", async ({ change }) => {
    const { listing, paymentId, ref, event } = await authorisedVipps();
    const before = await saleCounts(listing.id);
    const res = await deliver(event, await change(event));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe("INVALID_SIGNATURE");
    expect(await saleCounts(listing.id)).toEqual(before);
    expect((await paymentRow(paymentId))!.status).toBe("pending");
    expect(await sandboxRequests(`/epayment/v1/payments/${ref}/capture`)).toHaveLength(0);
  });

  it("refuses a correctly signed event for another sales unit (MSN)", async () => {
    const { listing, paymentId, event } = await authorisedVipps();
    const body = event.request.body.replace(`"msn":"${env.VIPPS_MERCHANT_SERIAL_NUMBER}"`, '"msn":"999999"');
    const res = await deliver(event, { body, headers: await vippsHeaders(event.request.url, body, env.VIPPS_WEBHOOK_SECRET) });
    expect(res.status).toBe(400);
    expect((await paymentRow(paymentId))!.status).toBe("pending");
    expect((await saleCounts(listing.id)).orders).toBe(0);
  });
});

describe("replays", () => {
  it("a replayed authorisation is recognised and neither captures again nor changes anything", async () => {
    const { seller, listing, ref, event } = await authorisedVipps();
    expect((await deliver(event)).status).toBe(200);
    const after = await saleCounts(listing.id);
    const requestsBefore = (await sandboxRequests(`/epayment/v1/payments/${ref}`)).length;
    // The sandbox signs anew on every attempt; a replay of the same bytes within the window is still a duplicate.
    const again = await deliver(event);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(await saleCounts(listing.id)).toEqual(after);
    expect((await sandboxRequests(`/epayment/v1/payments/${ref}`)).length).toBe(requestsBefore);
    expect(await outboxTo(seller.email)).toHaveLength(1);
  });
});
