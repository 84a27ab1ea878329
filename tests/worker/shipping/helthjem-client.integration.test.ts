// Helthjem's client against the sandbox carrier (started by the global setup, decision 154): its bearer
// token (kept, and asked for anew once when refused), Helthjem's service points near a postal code,
// a C2C booking with its drop-off code, an idempotent repeat, retries on 5xx up to the bound and a
// later try with the same key booking once, refusals with the seller's Norwegian message (Helthjem's,
// not Posten's) and no retry, and cancelling before and after hand-in.
//
// Each failure set on the sandbox's switch is scoped to this test's idempotency key or path, so the
// other files that call the carrier at the same time cannot take it.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SHIPPING_CHOICE_REFUSALS } from "../../../domain/carriers";
import { SHIPMENT_TEXTS } from "../../../domain/shipping";
import type { BookingRequest } from "../../../worker/features/carriers/carrier-client";
import { carrierRefusals } from "../../../worker/features/carriers/carrier-refusals";
import { HelthjemClient } from "../../../worker/features/carriers/helthjem-client";
import { helthjemConfig } from "../../../worker/features/carriers/carrier-config";
import type { Bindings } from "../../../worker/env";
import { sandboxRequests } from "../support/payments";
import { FAST_RETRY, failNextHelthjem, sandboxHelthjemClient, sandboxHelthjemParcel, TEST_PARTIES } from "../support/shipments";

const SANDBOX = env.TEST_SANDBOX_URL;
const REFUSALS = carrierRefusals("helthjem");
const client = sandboxHelthjemClient();

let counter = 0;
function key(): string {
  counter += 1;
  return `shipment-helthjem-${Date.now()}-${counter}`;
}

function request(overrides: Partial<BookingRequest> = {}): BookingRequest {
  return {
    method: "mailbox",
    size: "small",
    sender: TEST_PARTIES.sender,
    recipient: TEST_PARTIES.recipient,
    pickupPointId: null,
    reference: "ordre-1",
    ...overrides,
  };
}

async function nearestPoint(): Promise<string> {
  const points = await client.servicePoints(TEST_PARTIES.recipient.postalCode);
  if (!points.ok) throw new Error(JSON.stringify(points));
  return points.value[0].id;
}

describe("service points", () => {
  it("returns Helthjem's own shops nearest the postal code, all manned, with opening hours as Bring writes them", async () => {
    const result = await client.servicePoints("5003");
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.value).toHaveLength(5);
    expect(result.value.every((p) => p.kind === "manned" && p.city === "BERGEN" && p.postalCode === "5003")).toBe(true);
    expect(result.value[0].openingHours).toBe("Man-Fre: 0800-2200, Lør: 0800-1800");
    const km = result.value.map((p) => p.distanceKm);
    expect(km).toEqual([...km].sort((a, b) => a - b));
  });

  it("refuses a postal code that is not four digits before calling", async () => {
    const before = (await sandboxRequests("/parcels/v1/service-points/")).length;
    expect(await client.servicePoints("50")).toMatchObject({ ok: false, kind: "refused", field: "postal_code" });
    expect((await sandboxRequests("/parcels/v1/service-points/")).length).toBe(before);
  });
});

describe("the token", () => {
  it("is asked for once and kept for the client's calls", async () => {
    const own = sandboxHelthjemClient();
    const before = (await sandboxRequests("/auth/oauth2/v1/token")).length;
    expect((await own.servicePoints("0150")).ok).toBe(true);
    expect((await own.servicePoints("5003")).ok).toBe(true);
    expect((await sandboxRequests("/auth/oauth2/v1/token")).length).toBe(before + 1);
  });

  it("a token Helthjem no longer takes is asked for anew, once, and the call goes through", async () => {
    // The first call carries a token the sandbox never gave (as after its restart).
    let spoiled = false;
    const spoiling = sandboxHelthjemClient(FAST_RETRY, (input, init) => {
      const headers = new Headers(init.headers);
      if (!spoiled && headers.has("Authorization")) {
        spoiled = true;
        headers.set("Authorization", "Bearer forgotten");
      }
      return fetch(input, { ...init, headers });
    });
    const result = await spoiling.servicePoints("0150");
    expect(result.ok).toBe(true);
    expect(spoiled).toBe(true);
  });

  it("wrong client credentials are our fault, never retried", async () => {
    const config = helthjemConfig(env as Bindings)!;
    const wrong = new HelthjemClient({ ...config, clientSecret: "not-the-secret" }, FAST_RETRY);
    expect(await wrong.book(request(), key())).toMatchObject({
      ok: false,
      kind: "refused",
      code: "invalid.client",
      message: REFUSALS.request,
    });
  });
});

describe("booking", () => {
  it("books a parcel to the mailbox: the shipment number and the code the seller writes on it", async () => {
    const result = await client.book(request(), key());
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.value.consignmentNumber).toMatch(/^70724760\d{9}$/);
    expect(result.value.dropOffCode).toMatch(/^HH-\d{4}-\d{4}$/);
    const parcel = await sandboxHelthjemParcel(result.value.consignmentNumber);
    expect(parcel).toMatchObject({ transportSolutionId: 2, servicePoint: null, dropOffCode: result.value.dropOffCode });
  });

  it("books a large parcel to the service point the buyer chose", async () => {
    const point = await nearestPoint();
    const result = await client.book(request({ method: "pickup_point", size: "large", pickupPointId: point }), key());
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect((await sandboxHelthjemParcel(result.value.consignmentNumber))?.servicePoint?.servicePointExternalId).toBe(point);
  });

  it("a repeat with the same idempotency key returns the same shipment; another key books another", async () => {
    const k = key();
    const first = await client.book(request(), k);
    const again = await client.book(request(), k);
    const other = await client.book(request(), key());
    if (!first.ok || !again.ok || !other.ok) throw new Error("booking failed");
    expect(again.value).toEqual(first.value);
    expect(other.value.consignmentNumber).not.toBe(first.value.consignmentNumber);
    expect((await sandboxRequests("/parcels/v1/bookings")).filter((r) => r.idempotencyKey === k)).toHaveLength(2);
  });

  it("retries a 503 within the call and books once", async () => {
    const k = key();
    await failNextHelthjem(1, 503, { key: k });
    const result = await client.book(request(), k);
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.attempts).toBe(2);
    expect((await sandboxRequests("/parcels/v1/bookings")).filter((r) => r.idempotencyKey === k)).toHaveLength(2);
  });

  it("after the bound answers a failure the caller keeps, and a later try with the same key books once", async () => {
    const k = key();
    await failNextHelthjem(FAST_RETRY.attempts, 500, { key: k });
    expect(await client.book(request(), k)).toMatchObject({ ok: false, kind: "unavailable", attempts: FAST_RETRY.attempts, status: 500 });
    const later = await client.book(request(), k);
    const repeat = await client.book(request(), k);
    if (!later.ok || !repeat.ok) throw new Error("the later try failed");
    expect(repeat.value.consignmentNumber).toBe(later.value.consignmentNumber);
  });

  it.each([
    ["the seller's address", { sender: { ...TEST_PARTIES.sender, postalCode: "OSLO" } }, "sender", SHIPMENT_TEXTS.bookingFailedSeller],
    ["the buyer's phone number", { recipient: { ...TEST_PARTIES.recipient, phoneNumber: "22 00 00 00" } }, "recipient", REFUSALS.recipient],
    [
      "an address Helthjem does not reach",
      { recipient: { ...TEST_PARTIES.recipient, postalCode: "9171" } },
      "recipient",
      REFUSALS.recipient,
    ],
    [
      "a service point no search gave",
      { method: "pickup_point" as const, pickupPointId: "7500399" },
      "pickup_point",
      REFUSALS.pickup_point,
    ],
  ])("refuses %s with the seller's message, without retrying", async (_what, overrides, field, message) => {
    const k = key();
    const result = await client.book(request(overrides), k);
    expect(result).toMatchObject({ ok: false, kind: "refused", status: 400, field, message });
    expect((await sandboxRequests("/parcels/v1/bookings")).filter((r) => r.idempotencyKey === k)).toHaveLength(1);
  });

  it("names Helthjem, not Posten, when the buyer's address is refused", () => {
    expect(REFUSALS.recipient).toMatch(/^Helthjem godtok ikke kjøperens adresse/);
  });

  it.each([
    ["a medium parcel to the mailbox", request({ size: "medium" }), "offer", SHIPPING_CHOICE_REFUSALS.notOffered],
    [
      "a parcel locker (Helthjem has none)",
      request({ method: "parcel_locker", pickupPointId: "7500300" }),
      "offer",
      SHIPPING_CHOICE_REFUSALS.notOffered,
    ],
    ["a service-point parcel without a point", request({ method: "pickup_point" }), "pickup_point", REFUSALS.pickup_point],
  ])("refuses %s before calling", async (_what, req, field, message) => {
    const k = key();
    expect(await client.book(req, k)).toMatchObject({ ok: false, kind: "refused", field, message });
    expect((await sandboxRequests("/parcels/v1/bookings")).filter((r) => r.idempotencyKey === k)).toHaveLength(0);
  });
});

describe("cancelling", () => {
  it("cancels a booking not yet handed in, again without harm, and is refused once it is handed in", async () => {
    const booked = await client.book(request(), key());
    if (!booked.ok) throw new Error(JSON.stringify(booked));
    const n = booked.value.consignmentNumber;
    expect((await client.cancel(n, `cancel-${n}`)).ok).toBe(true);
    expect((await client.cancel(n, `cancel-${n}-again`)).ok).toBe(true);
    expect((await sandboxHelthjemParcel(n))?.status).toBe("cancelled");

    const other = await client.book(request(), key());
    if (!other.ok) throw new Error(JSON.stringify(other));
    const m = other.value.consignmentNumber;
    const advanced = await fetch(`${SANDBOX}/__sandbox/helthjem/parcels/${m}/advance`, {
      method: "POST",
      body: JSON.stringify({ step: "handed_in" }),
    });
    expect(advanced.status).toBe(200);
    expect(await client.cancel(m, `cancel-${m}`)).toMatchObject({ ok: false, kind: "refused", status: 409, field: "handed_in" });
  });
});
