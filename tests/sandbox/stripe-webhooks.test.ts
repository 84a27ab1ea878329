// The sandbox's Stripe webhooks, checked with the SDK's own signature verification (signing, retries
// with backoff, giving up), and its state kept across a restart.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeSignatureHeader } from "../../scripts/payment-sandbox/webhooks";
import { KEYS, receiver, sandbox } from "./helpers";
import { hooks, sb, sessionParams, stripe, withStripeSandbox } from "./stripe-setup";

withStripeSandbox();

describe("webhooks", () => {
  it("signs every event as Stripe does (the SDK's constructEvent accepts it) and delivers it", async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    await stripe.checkout.sessions.expire(session.id);
    await sb.dispatcher.idle();
    const hit = hooks.received.find((r) => JSON.parse(r.body).data.object.id === session.id);
    expect(hit).toBeDefined();
    expect(hit!.url).toBe("/hooks/stripe");
    const event = stripe.webhooks.constructEvent(hit!.body, hit!.headers["stripe-signature"] as string, KEYS.stripeWebhookSecret);
    expect(event).toMatchObject({
      object: "event",
      type: "checkout.session.expired",
      data: { object: { id: session.id, status: "expired" } },
    });
    expect(() => stripe.webhooks.constructEvent(hit!.body, hit!.headers["stripe-signature"] as string, "whsec_other")).toThrow();
  });

  it("matches Stripe's own test header for the same payload, secret and time", async () => {
    const payload = '{"id":"evt_1","object":"event"}';
    const expected = stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_x", timestamp: 1700000000 });
    expect(stripeSignatureHeader(payload, "whsec_x", 1700000000)).toBe(expected);
  });

  it("retries a failing receiver with backoff, signing each attempt anew, until it answers 2xx", async () => {
    const flaky = await receiver([500, 503]);
    const retrying = await sandbox({
      stripe: { secretKey: KEYS.stripeKey, webhook: { url: flaky.url, secret: KEYS.stripeWebhookSecret } },
    });
    try {
      const client = new Stripe(KEYS.stripeKey, { host: "127.0.0.1", port: retrying.port, protocol: "http" });
      const session = await client.checkout.sessions.create(sessionParams());
      await client.checkout.sessions.expire(session.id);
      await retrying.dispatcher.idle();
      expect(flaky.received).toHaveLength(3);
      for (const attempt of flaky.received) {
        expect(() =>
          client.webhooks.constructEvent(attempt.body, attempt.headers["stripe-signature"] as string, KEYS.stripeWebhookSecret),
        ).not.toThrow();
      }
      const [delivery] = retrying.dispatcher.deliveries;
      expect(delivery.state).toBe("delivered");
      expect(delivery.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
    } finally {
      await retrying.close();
      await flaky.close();
    }
  });

  it("gives up after the last attempt", async () => {
    const down = await receiver([500, 500, 500, 500, 500]);
    const retrying = await sandbox({ stripe: { secretKey: KEYS.stripeKey, webhook: { url: down.url, secret: KEYS.stripeWebhookSecret } } });
    try {
      const client = new Stripe(KEYS.stripeKey, { host: "127.0.0.1", port: retrying.port, protocol: "http" });
      await client.checkout.sessions.expire((await client.checkout.sessions.create(sessionParams())).id);
      await retrying.dispatcher.idle();
      expect(retrying.dispatcher.deliveries[0]).toMatchObject({ state: "failed" });
      expect(down.received).toHaveLength(4);
    } finally {
      await retrying.close();
      await down.close();
    }
  });
});

describe("state across restarts", () => {
  it("keeps accounts and sessions in its state file", async () => {
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const stateFile = path.join(mkdtempSync(path.join(tmpdir(), "sandbox-")), "state.json");
    const first = await sandbox({ stateFile });
    const client = new Stripe(KEYS.stripeKey, { host: "127.0.0.1", port: first.port, protocol: "http" });
    const account = await client.accounts.create({ type: "express" });
    const session = await client.checkout.sessions.create(sessionParams());
    await first.close();

    const second = await sandbox({ stateFile });
    try {
      const again = new Stripe(KEYS.stripeKey, { host: "127.0.0.1", port: second.port, protocol: "http" });
      expect((await again.accounts.retrieve(account.id)).id).toBe(account.id);
      expect((await again.checkout.sessions.retrieve(session.id)).status).toBe("open");
    } finally {
      await second.close();
    }
  });
});
