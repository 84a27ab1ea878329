// The carrier's webhook signature (worker/features/carriers/carrier-signature.ts): HMAC-SHA256 over
// "<t>.<raw body>" with the shared secret. A tampered body or timestamp, a wrong secret, a replay
// older than five minutes and a timestamp from the future are refused; the sandbox's Node signer
// and the Worker's WebCrypto one agree.
import { describe, expect, it } from "vitest";
import { carrierSignatureHeader } from "../../scripts/payment-sandbox/webhooks";
import {
  CARRIER_CLOCK_SKEW_S,
  CARRIER_SIGNATURE_MAX_AGE_S,
  carrierSignature,
  verifyCarrierSignature,
} from "../../worker/features/carriers/carrier-signature";

const SECRET = "bring-webhook-secret";
const BODY = JSON.stringify({ eventId: "e1", trackingId: "70438101000000001", status: "DELIVERED" });
const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const T = NOW / 1000;

describe("verifyCarrierSignature", () => {
  it("accepts the body as signed, by either signer, and with any of the configured secrets", async () => {
    expect(await verifyCarrierSignature(BODY, await carrierSignature(BODY, SECRET, T), [SECRET], NOW)).toBe("ok");
    expect(await verifyCarrierSignature(BODY, carrierSignatureHeader(BODY, SECRET, T), [SECRET], NOW)).toBe("ok");
    expect(await carrierSignature(BODY, SECRET, T)).toBe(carrierSignatureHeader(BODY, SECRET, T));
    expect(await verifyCarrierSignature(BODY, await carrierSignature(BODY, SECRET, T), ["old-secret", SECRET], NOW)).toBe("ok");
  });

  it("refuses a tampered body, a tampered timestamp and a wrong secret", async () => {
    const header = await carrierSignature(BODY, SECRET, T);
    expect(await verifyCarrierSignature(BODY.replace("DELIVERED", "RETURN"), header, [SECRET], NOW)).toBe("bad-signature");
    expect(await verifyCarrierSignature(`${BODY} `, header, [SECRET], NOW)).toBe("bad-signature");
    expect(await verifyCarrierSignature(BODY, header.replace(`t=${T}`, `t=${T + 1}`), [SECRET], NOW)).toBe("bad-signature");
    expect(await verifyCarrierSignature(BODY, header, ["another-secret"], NOW)).toBe("bad-signature");
    expect(await verifyCarrierSignature(BODY, header, [], NOW)).toBe("bad-signature");
    expect(await verifyCarrierSignature(BODY, header, [""], NOW)).toBe("bad-signature");
  });

  it("refuses a replay older than five minutes and a timestamp from the future beyond the skew", async () => {
    const at = async (t: number) => verifyCarrierSignature(BODY, await carrierSignature(BODY, SECRET, t), [SECRET], NOW);
    expect(await at(T - CARRIER_SIGNATURE_MAX_AGE_S)).toBe("ok");
    expect(await at(T - CARRIER_SIGNATURE_MAX_AGE_S - 1)).toBe("stale");
    expect(await at(T - 24 * 3600)).toBe("stale");
    expect(await at(T + CARRIER_CLOCK_SKEW_S)).toBe("ok");
    expect(await at(T + CARRIER_CLOCK_SKEW_S + 1)).toBe("future");
  });

  it("says what is wrong with a missing or malformed header", async () => {
    const v1 = (await carrierSignature(BODY, SECRET, T)).split(",")[1];
    expect(await verifyCarrierSignature(BODY, null, [SECRET], NOW)).toBe("missing-header");
    expect(await verifyCarrierSignature(BODY, "", [SECRET], NOW)).toBe("missing-header");
    for (const header of [v1, `t=${T}`, `t=abc,${v1}`, `t=${T},v1=xyz`, `t=${T},${v1}=extra`, "garbage"])
      expect(await verifyCarrierSignature(BODY, header, [SECRET], NOW)).toBe("malformed-header");
  });

  it("accepts a header with several v1 values when one of them matches (a secret being rotated)", async () => {
    const good = (await carrierSignature(BODY, SECRET, T)).split(",")[1];
    const other = (await carrierSignature(BODY, "old-secret", T)).split(",")[1];
    expect(await verifyCarrierSignature(BODY, `t=${T},${other},${good}`, [SECRET], NOW)).toBe("ok");
  });
});
