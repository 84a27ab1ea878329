// Hostile input through the Worker's real fetch (./rules.ts; docs/security.md; docs/decisions/061):
// any analytics payload, any problem report and moderator's decision on held money, and forged payment
// webhooks. Every answer holds the suite's three rules: no 5xx, a refusal is a 4xx with a Norwegian
// message, and a refusal changes nothing stored.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createUser, signedInClient } from "../../factories";
import { Client } from "../support/http";
import { moneyFor, paidOrder } from "../support/orders";
import { stateChanges, storedState } from "../support/state";
import { judge, RUNS, text } from "./rules";

describe("analytics payloads", () => {
  const ENDPOINTS = ["/api/analytics/sessions", "/api/analytics/events", "/api/analytics/listing-views", "/api/analytics/searches"];
  const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      text,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(text, tie("value"), { maxKeys: 5 }),
    ),
  })).value;
  const field = fc.constantFrom(
    "sessionId",
    "events",
    "eventType",
    "metadata",
    "viewId",
    "listingId",
    "query",
    "filters",
    "resultCount",
    "userAgent",
    "deviceType",
    "scrollDepthPercent",
    "viewDurationMs",
    "__proto__",
    "constructor",
  );

  it("any JSON body: 202 or a Norwegian 400, never a 5xx, and nothing written to D1 or R2", async () => {
    let n = 0;
    const before = await storedState();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), fc.oneof(json, fc.dictionary(field, json, { maxKeys: 8 })), async (path, body) => {
        n += 1;
        const res = await new Client().post(path, body, { headers: { "CF-Connecting-IP": `10.61.0.${n % 250}` } });
        expect([202, 400]).toContain(await judge(res));
      }),
      RUNS,
    );
    // Accepted events go to the queue; none of these bodies is valid, so nothing was accepted either.
    expect(stateChanges(before, await storedState())).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------

// ------------------------------------------------------------------------------------------------

describe("held money (decision 105)", () => {
  // A real held order, then any body on the buyer's "Meld fra om et problem" and a moderator's
  // decision: 200 or a Norwegian 4xx, never a 5xx; a refusal changes nothing, and whatever was
  // accepted moved the money at most once (the sandbox's own record).
  const reasons = fc.oneof(fc.constantFrom("not_received", "not_as_described", "damaged", "other"), text, fc.integer());
  // Photos: anything where the ids go (decision 108); no id names an upload of this buyer, so a
  // report that names any is refused.
  const photos = fc.oneof(
    fc.array(fc.oneof(fc.uuid(), text, fc.integer(), fc.constant(null)), { maxLength: 6 }),
    text,
    fc.constant(null),
    fc.constant({}),
  );
  const problemBody = fc.oneof(
    fc.record({ reason: reasons, text: fc.oneof(text, fc.integer(), fc.constant(null)), photos }, { requiredKeys: [] }),
    fc.constantFrom(null, [], "x", 5),
  );
  const amount = fc.oneof(
    fc.integer({ min: -10, max: 40_000 }),
    fc.double(),
    text,
    fc.constant(null),
    fc.constant(30_000),
    fc.constant(Number.POSITIVE_INFINITY),
  );
  const decisionBody = fc.oneof(
    fc.record(
      { action: fc.oneof(fc.constantFrom("refund", "partial_refund", "release_by_moderator", "release", ""), text), refund_amount: amount },
      { requiredKeys: [] },
    ),
    fc.constantFrom(null, [], "refund", 1),
  );

  it("any problem report and any decision: 200 or a Norwegian 4xx, a refusal changes nothing, money moved at most once", async () => {
    const order = await paidOrder("card");
    const mod = await signedInClient((await createUser({ role: "moderator" })).id);
    await fc.assert(
      fc.asyncProperty(problemBody, async (body) => {
        const before = await storedState();
        const res = await order.buyerClient.post(`/api/payments/orders/${order.orderId}/problem`, body);
        expect([200, 400, 409]).toContain(await judge(res, before));
      }),
      RUNS,
    );
    await order.buyerClient.post(`/api/payments/orders/${order.orderId}/problem`, { reason: "other", text: "Leken kom aldri fram." });
    await fc.assert(
      fc.asyncProperty(decisionBody, async (body) => {
        const before = await storedState();
        const res = await mod.post(`/api/moderation/payment-cases/${order.orderId}/decision`, body);
        expect([200, 400, 409]).toContain(await judge(res, before));
      }),
      RUNS,
    );
    const moved = await moneyFor(order);
    expect(moved.transfers.length).toBeLessThanOrEqual(1);
    expect(moved.refunds.length).toBeLessThanOrEqual(1);
    // Two properties of requests through the sandbox's money calls: 20 s ran out beside the e2e suite.
  }, 60_000);
});

// ------------------------------------------------------------------------------------------------

describe("webhook forgery", () => {
  // The fixed cases (another secret, a tampered body, a stale timestamp, replays) are in
  // payments-stripe-webhooks and payments-vipps-webhooks; here any header and body at all.
  const header = fc.oneof(
    text,
    fc.tuple(fc.integer(), text, text).map(([t, v1, v0]) => `t=${t},v1=${v1},v0=${v0}`),
  );

  it("any Stripe-Signature and body: a Norwegian 4xx, nothing stored", async () => {
    const before = await storedState();
    await fc.assert(
      fc.asyncProperty(
        fc.option(header),
        fc.oneof(text, fc.constant(JSON.stringify({ id: "evt_1", type: "checkout.session.completed", data: { object: { id: "cs_1" } } }))),
        async (signature, body) => {
          const headers = new Headers({ "Content-Type": "application/json" });
          if (signature !== null) {
            try {
              headers.set("Stripe-Signature", signature);
            } catch {
              // a value no HTTP client can send: the header stays away, which is a case of its own
            }
          }
          const res = await new Client().request("/api/payments/webhooks/stripe", { method: "POST", body, headers });
          expect(await judge(res)).toBeGreaterThanOrEqual(400);
        },
      ),
      RUNS,
    );
    expect(stateChanges(before, await storedState())).toEqual([]);
  });

  it("any Vipps authentication headers and body: a Norwegian 4xx, nothing stored", async () => {
    const before = await storedState();
    const names = fc.constantFrom("Authorization", "x-ms-date", "x-ms-content-sha256", "Merchant-Serial-Number", "x-ms-signature");
    await fc.assert(
      fc.asyncProperty(fc.dictionary(names, text, { maxKeys: 5 }), text, async (extra, body) => {
        const headers = new Headers({ "Content-Type": "application/json" });
        for (const [k, v] of Object.entries(extra)) {
          try {
            headers.set(k, v);
          } catch {
            // a value no HTTP client can send
          }
        }
        const res = await new Client().request("/api/payments/webhooks/vipps", { method: "POST", body, headers });
        expect(await judge(res)).toBeGreaterThanOrEqual(400);
      }),
      RUNS,
    );
    expect(stateChanges(before, await storedState())).toEqual([]);
  });
});
