// The sandbox's Vipps MobilePay: access token, ePayment (create, get, capture, cancel, refund), the
// landing page and "app", the Webhooks API registration, and webhooks signed as the docs describe.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentSandbox } from "../../scripts/payment-sandbox/server";
import { vippsSignatureHeaders } from "../../scripts/payment-sandbox/webhooks";
import { verifyVippsWebhook } from "../../worker/features/payments/vipps-signature";
import { form, KEYS, receiver, sandbox, vippsConfig } from "./helpers";

let sb: PaymentSandbox;
let hooks: Awaited<ReturnType<typeof receiver>>;

beforeAll(async () => {
  hooks = await receiver();
  sb = await sandbox({
    vipps: vippsConfig({ webhook: { url: `${hooks.url}/hooks/vipps?kilde=sandbox`, secret: KEYS.vippsWebhookSecret } }),
  });
});

afterAll(async () => {
  await sb.close();
  await hooks.close();
});

async function token(): Promise<string> {
  const res = await fetch(`${sb.url}/accesstoken/get`, {
    method: "POST",
    headers: {
      client_id: KEYS.clientId,
      client_secret: KEYS.clientSecret,
      "Ocp-Apim-Subscription-Key": KEYS.subscriptionKey,
      "Merchant-Serial-Number": KEYS.msn,
    },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function api(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(`${sb.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${await token()}`,
      "Ocp-Apim-Subscription-Key": KEYS.subscriptionKey,
      "Merchant-Serial-Number": KEYS.msn,
      "Content-Type": "application/json",
      ...extra,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

let counter = 0;
function newPayment(value = 45000) {
  counter += 1;
  return {
    amount: { currency: "NOK", value },
    paymentMethod: { type: "WALLET" },
    reference: `test-${Date.now()}-${counter}`,
    userFlow: "WEB_REDIRECT",
    returnUrl: "http://app.test/payment-success?session_id=x",
    paymentDescription: "Lekebytte: Dukkevogn",
  };
}

async function created(value = 45000) {
  const body = newPayment(value);
  const res = await api("POST", "/epayment/v1/payments", body, { "Idempotency-Key": `create-${body.reference}` });
  expect(res.status).toBe(201);
  return { body, res: (await res.json()) as { redirectUrl: string; reference: string } };
}

async function approve(redirectUrl: string, phone = "912 34 567") {
  const t = new URL(redirectUrl).searchParams.get("token")!;
  const landing = await fetch(`${sb.url}/vipps/landing`, form({ token: t, phone, action: "next" }));
  expect(landing.status).toBe(303);
  return fetch(`${sb.url}/vipps/app`, form({ token: t, action: "approve" }));
}

describe("access token", () => {
  it("issues a bearer token for the right credentials and refuses wrong ones", async () => {
    const ok = await fetch(`${sb.url}/accesstoken/get`, {
      method: "POST",
      headers: { client_id: KEYS.clientId, client_secret: KEYS.clientSecret, "Ocp-Apim-Subscription-Key": KEYS.subscriptionKey },
    });
    expect(await ok.json()).toMatchObject({
      token_type: "Bearer",
      expires_in: "3600",
      access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
    });
    const badSecret = await fetch(`${sb.url}/accesstoken/get`, {
      method: "POST",
      headers: { client_id: KEYS.clientId, client_secret: "wrong", "Ocp-Apim-Subscription-Key": KEYS.subscriptionKey },
    });
    expect(badSecret.status).toBe(401);
    expect(await badSecret.json()).toMatchObject({ error: "invalid_client" });
    const badKey = await fetch(`${sb.url}/accesstoken/get`, {
      method: "POST",
      headers: { client_id: KEYS.clientId, client_secret: KEYS.clientSecret, "Ocp-Apim-Subscription-Key": "wrong" },
    });
    expect(badKey.status).toBe(401);
  });

  it("ePayment refuses a request without a valid token (problem+json)", async () => {
    const res = await fetch(`${sb.url}/epayment/v1/payments/whatever-123`, {
      headers: { Authorization: "Bearer nope", "Ocp-Apim-Subscription-Key": KEYS.subscriptionKey, "Merchant-Serial-Number": KEYS.msn },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 401, title: "Unauthorized", traceId: expect.any(String) });
  });
});

describe("ePayment", () => {
  it("creates a payment, replays it for the same Idempotency-Key, and refuses a taken reference", async () => {
    const body = newPayment();
    const first = await api("POST", "/epayment/v1/payments", body, { "Idempotency-Key": "k-1" });
    expect(first.status).toBe(201);
    const created1 = (await first.json()) as { redirectUrl: string; reference: string };
    expect(created1.reference).toBe(body.reference);
    expect(created1.redirectUrl).toContain("/vipps/landing?token=");
    const replay = await api("POST", "/epayment/v1/payments", body, { "Idempotency-Key": "k-1" });
    expect(await replay.json()).toEqual(created1);
    const taken = await api("POST", "/epayment/v1/payments", body, { "Idempotency-Key": "k-2" });
    expect(taken.status).toBe(409);
    const get = await api("GET", `/epayment/v1/payments/${body.reference}`);
    expect(await get.json()).toMatchObject({
      reference: body.reference,
      state: "CREATED",
      amount: { currency: "NOK", value: 45000 },
      aggregate: { authorizedAmount: { value: 0 }, capturedAmount: { value: 0 } },
      paymentMethod: { type: "WALLET" },
    });
  });

  it("answers validation errors with the problem format and names the fields", async () => {
    const res = await api(
      "POST",
      "/epayment/v1/payments",
      { ...newPayment(), reference: "x", returnUrl: undefined, amount: { currency: "SEK", value: 5 } },
      { "Idempotency-Key": "bad-1" },
    );
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { title: string; extraDetails: Array<{ name: string }> };
    expect(problem.title).toBe("Bad Request");
    expect(problem.extraDetails.map((d) => d.name).sort()).toEqual(["amount.currency", "amount.value", "reference", "returnUrl"]);
    const noKey = await api("POST", "/epayment/v1/payments", newPayment());
    expect(noKey.status).toBe(400);
  });

  it("approve on the landing page and in the app authorises and returns to returnUrl; capture, refund and cancel follow the aggregate", async () => {
    const { body, res } = await created();
    const t = new URL(res.redirectUrl).searchParams.get("token")!;
    const landing = await fetch(`${sb.url}/vipps/landing?token=${t}`);
    expect(await landing.text()).toMatch(/450,00 kr/);
    const badPhone = await fetch(`${sb.url}/vipps/landing`, form({ token: t, phone: "123", action: "next" }));
    expect(badPhone.status).toBe(400);
    expect(await badPhone.text()).toContain("Skriv inn et norsk mobilnummer med 8 siffer.");
    const back = await approve(res.redirectUrl);
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(body.returnUrl);

    const ref = body.reference;
    expect(await (await api("GET", `/epayment/v1/payments/${ref}`)).json()).toMatchObject({
      state: "AUTHORIZED",
      aggregate: { authorizedAmount: { value: 45000 } },
    });
    const tooMuch = await api(
      "POST",
      `/epayment/v1/payments/${ref}/capture`,
      { modificationAmount: { currency: "NOK", value: 45001 } },
      { "Idempotency-Key": "c-0" },
    );
    expect(tooMuch.status).toBe(400);
    const capture = await api(
      "POST",
      `/epayment/v1/payments/${ref}/capture`,
      { modificationAmount: { currency: "NOK", value: 45000 } },
      { "Idempotency-Key": "c-1" },
    );
    expect(await capture.json()).toMatchObject({ state: "AUTHORIZED", aggregate: { capturedAmount: { value: 45000 } } });
    // The same key again is the same capture, not a second one.
    await api(
      "POST",
      `/epayment/v1/payments/${ref}/capture`,
      { modificationAmount: { currency: "NOK", value: 45000 } },
      { "Idempotency-Key": "c-1" },
    );
    expect(
      ((await (await api("GET", `/epayment/v1/payments/${ref}`)).json()) as { aggregate: { capturedAmount: { value: number } } }).aggregate
        .capturedAmount.value,
    ).toBe(45000);
    const refund = await api(
      "POST",
      `/epayment/v1/payments/${ref}/refund`,
      { modificationAmount: { currency: "NOK", value: 45000 } },
      { "Idempotency-Key": "r-1" },
    );
    expect(await refund.json()).toMatchObject({ aggregate: { refundedAmount: { value: 45000 } } });
    const cancelAfter = await api("POST", `/epayment/v1/payments/${ref}/cancel`, undefined, { "Idempotency-Key": "x-1" });
    expect(cancelAfter.status).toBe(400);
  });

  it("cancelling an authorised payment releases it (TERMINATED); a waiting one can be cancelled too", async () => {
    const { body, res } = await created();
    await approve(res.redirectUrl);
    const cancel = await api("POST", `/epayment/v1/payments/${body.reference}/cancel`, undefined, { "Idempotency-Key": "cancel-1" });
    expect(await cancel.json()).toMatchObject({
      state: "TERMINATED",
      aggregate: { cancelledAmount: { value: 45000 }, capturedAmount: { value: 0 } },
    });
    const waiting = await created();
    const cancelWaiting = await api("POST", `/epayment/v1/payments/${waiting.body.reference}/cancel`, undefined, {
      "Idempotency-Key": "cancel-2",
    });
    expect(await cancelWaiting.json()).toMatchObject({ state: "TERMINATED" });
    expect((await fetch(`${sb.url}/vipps/landing?token=${new URL(waiting.res.redirectUrl).searchParams.get("token")}`)).status).toBe(410);
  });

  it("a payment nobody approves expires", async () => {
    const quick = await sandbox({ vippsPaymentLifetimeMs: 50 });
    try {
      const t = await fetch(`${quick.url}/accesstoken/get`, {
        method: "POST",
        headers: { client_id: KEYS.clientId, client_secret: KEYS.clientSecret, "Ocp-Apim-Subscription-Key": KEYS.subscriptionKey },
      });
      const auth = {
        Authorization: `Bearer ${((await t.json()) as { access_token: string }).access_token}`,
        "Ocp-Apim-Subscription-Key": KEYS.subscriptionKey,
        "Merchant-Serial-Number": KEYS.msn,
      };
      const body = newPayment();
      await fetch(`${quick.url}/epayment/v1/payments`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json", "Idempotency-Key": "e-1" },
        body: JSON.stringify(body),
      });
      await new Promise((r) => setTimeout(r, 1300));
      const get = await fetch(`${quick.url}/epayment/v1/payments/${body.reference}`, { headers: auth });
      expect(((await get.json()) as { state: string }).state).toBe("EXPIRED");
    } finally {
      await quick.close();
    }
  });
});

describe("webhooks", () => {
  it("signs with the documented algorithm: the documentation's own example comes out the same", () => {
    const headers = vippsSignatureHeaders(
      "https://webhook.site/e2cee29b-012e-4f1d-8ef4-e95fd74a7a63",
      '{"some-unique-content":"ee6e441b-cc4a-46f8-895d-a5af79bcc233/hello-world"}',
      "A0+AeKBRG2KRGvnNwJpQlb6IJFk48CKXCIcrLoHncVJKDILsQSxS6NWCccwWm6r6FhGKhiHTBsG2wo/xU6FY/A==",
      new Date("Thu, 30 Mar 2023 08:38:32 GMT"),
    );
    expect(headers).toEqual({
      "x-ms-date": "Thu, 30 Mar 2023 08:38:32 GMT",
      "x-ms-content-sha256": "lNlsp1XA03N34HrQsVzPgJKtC+r7l/RBF4V3JQUWMj4=",
      authorization: "HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=agAiSyogQbDHpeucoNwYz+yAr5nJ+v+zasdkSbqzv+U=",
    });
  });

  it("sends epayments.payment.*.v1 events the app's verifier accepts, in order", async () => {
    const { body, res } = await created(39900);
    await approve(res.redirectUrl);
    await sb.dispatcher.idle();
    const mine = hooks.received.filter((r) => JSON.parse(r.body).reference === body.reference);
    expect(mine.map((r) => JSON.parse(r.body).name)).toEqual(["CREATED", "AUTHORIZED"]);
    const authorized = JSON.parse(mine[1].body);
    expect(authorized).toMatchObject({
      msn: KEYS.msn,
      reference: body.reference,
      name: "AUTHORIZED",
      amount: { currency: "NOK", value: 39900 },
      success: true,
    });
    for (const hit of mine) {
      expect(hit.url).toBe("/hooks/vipps?kilde=sandbox");
      const verdict = await verifyVippsWebhook(
        { method: hit.method, url: `${hooks.url}${hit.url}`, headers: new Headers(hit.headers as Record<string, string>), body: hit.body },
        KEYS.vippsWebhookSecret,
      );
      expect(verdict).toBe("ok");
    }
  });

  it("registers a webhook through the Webhooks API, with its own secret", async () => {
    const extra = await receiver();
    try {
      const reg = await api("POST", "/webhooks/v1/webhooks", {
        url: `${extra.url}/registered`,
        events: ["epayments.payment.authorized.v1"],
      });
      expect(reg.status).toBe(201);
      const { id, secret } = (await reg.json()) as { id: string; secret: string };
      const list = (await (await api("GET", "/webhooks/v1/webhooks")).json()) as { webhooks: Array<{ id: string }> };
      expect(list.webhooks.map((w) => w.id)).toContain(id);
      const { res } = await created();
      await approve(res.redirectUrl);
      await sb.dispatcher.idle();
      expect(extra.received).toHaveLength(1);
      const hit = extra.received[0];
      expect(
        await verifyVippsWebhook(
          { method: "POST", url: `${extra.url}${hit.url}`, headers: new Headers(hit.headers as Record<string, string>), body: hit.body },
          secret,
        ),
      ).toBe("ok");
      expect((await api("DELETE", `/webhooks/v1/webhooks/${id}`)).status).toBe(204);
      const bad = await api("POST", "/webhooks/v1/webhooks", { url: "ftp://x", events: [] });
      expect(bad.status).toBe(400);
    } finally {
      await extra.close();
    }
  });

  it("retries a failing hook, holding the payment's later events until the earlier one is accepted", async () => {
    const flaky = await receiver([500]);
    const ordered = await sandbox({
      vipps: {
        clientId: KEYS.clientId,
        clientSecret: KEYS.clientSecret,
        subscriptionKey: KEYS.subscriptionKey,
        msn: KEYS.msn,
        webhook: { url: flaky.url, secret: KEYS.vippsWebhookSecret },
      },
    });
    try {
      const t = await fetch(`${ordered.url}/accesstoken/get`, {
        method: "POST",
        headers: { client_id: KEYS.clientId, client_secret: KEYS.clientSecret, "Ocp-Apim-Subscription-Key": KEYS.subscriptionKey },
      });
      const auth = {
        Authorization: `Bearer ${((await t.json()) as { access_token: string }).access_token}`,
        "Ocp-Apim-Subscription-Key": KEYS.subscriptionKey,
        "Merchant-Serial-Number": KEYS.msn,
        "Content-Type": "application/json",
      };
      const body = newPayment();
      const createdRes = (await (
        await fetch(`${ordered.url}/epayment/v1/payments`, {
          method: "POST",
          headers: { ...auth, "Idempotency-Key": "o-1" },
          body: JSON.stringify(body),
        })
      ).json()) as { redirectUrl: string };
      const tok = new URL(createdRes.redirectUrl).searchParams.get("token")!;
      await fetch(`${ordered.url}/vipps/landing`, form({ token: tok, phone: "41234567", action: "next" }));
      await fetch(`${ordered.url}/vipps/app`, form({ token: tok, action: "approve" }));
      await ordered.dispatcher.idle();
      expect(flaky.received.map((r) => [JSON.parse(r.body).name])).toEqual([["CREATED"], ["CREATED"], ["AUTHORIZED"]]);
      // Each attempt carries a fresh signature.
      expect(flaky.received[0].headers.authorization).toBeDefined();
    } finally {
      await ordered.close();
      await flaky.close();
    }
  });
});
