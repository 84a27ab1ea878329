// The Worker's carrier client against the real sandbox carrier (started by the global setup): the
// pickup-point search, a booking with its drop-off code, an idempotent repeat, retries on 5xx, 429
// and network errors up to the bound and then a failure the caller keeps and retries later with
// the same key, refusals (4xx) with the seller's Norwegian message, and cancelling.
//
// The sandbox's failure switch is global: each failure here is scoped to its call's idempotency key
// or path, so the other files that call the carrier at the same time cannot take it.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { SHIPPING_CHOICE_REFUSALS } from "../../../domain/carriers";
import { SHIPMENT_TEXTS } from "../../../domain/shipping";
import { BringClient, type BookingRequest, type RetryPolicy } from "../../../worker/features/carriers/carrier-client";
import { bringConfig } from "../../../worker/features/carriers/carrier-config";
import { CARRIER_REFUSALS } from "../../../worker/features/carriers/carrier-refusals";
import { sandboxRequests } from "../support/payments";

const SANDBOX = env.TEST_SANDBOX_URL;
const FAST: RetryPolicy = { attempts: 3, baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 5_000 };
const config = bringConfig(env);
if (!config) throw new Error("the Worker tests bind the sandbox's Bring keys (vitest.worker.config.mts)");
const client = new BringClient(config, FAST);

let counter = 0;
function key(): string {
  counter += 1;
  return `book:ordre-${Date.now()}-${counter}`;
}

function request(overrides: Partial<BookingRequest> = {}): BookingRequest {
  return {
    method: "pickup_point",
    size: "small",
    sender: { name: "Kari Selger", addressLine: "Storgata 1", postalCode: "0150", city: "OSLO", phoneNumber: "+4791234567" },
    recipient: { name: "Ola Kjøper", addressLine: "Bryggen 2", postalCode: "5003", city: "BERGEN", phoneNumber: "+4798765432" },
    pickupPointId: null,
    reference: "ordre-1",
    // Fixed, as the shipment's own creation time is in the app: left out, each try would send the
    // second it was made, and two tries a second apart with one key are two different requests.
    shippingDateTime: "2026-11-30T10:00:00",
    ...overrides,
  };
}

// A test that fails before taking all its failures must not hand them to the next one. The keyed
// ones name this test's own key, which no later call uses; only the pickup points' are forgotten
// (not every failure: another file's would go too).
afterEach(async () => {
  await fetch(`${SANDBOX}/__sandbox/bring/fail?path=${encodeURIComponent("/pickuppoint/")}`, { method: "DELETE" });
});

async function failNext(times: number, status: number, scope: { key?: string; path?: string }): Promise<void> {
  const res = await fetch(`${SANDBOX}/__sandbox/bring/fail`, { method: "POST", body: JSON.stringify({ times, status, ...scope }) });
  expect(res.status).toBe(200);
}

describe("pickup points", () => {
  it("returns the places nearest the postal code, and only lockers when asked", async () => {
    const all = await client.pickupPoints("5003");
    if (!all.ok) throw new Error(JSON.stringify(all));
    expect(all.value).toHaveLength(10);
    expect(all.value[0]).toMatchObject({ postalCode: "5003", city: "BERGEN", kind: "manned" });
    expect(all.value.map((p) => p.distanceKm)).toEqual([...all.value.map((p) => p.distanceKm)].sort((a, b) => a - b));
    const lockers = await client.pickupPoints("5003", "locker");
    expect(lockers.ok && lockers.value.length > 0 && lockers.value.every((p) => p.kind === "locker")).toBe(true);
  });

  it("refuses a postal code that is not four digits before calling", async () => {
    const before = (await sandboxRequests("/pickuppoint/")).length;
    const result = await client.pickupPoints("50");
    expect(result).toMatchObject({ ok: false, kind: "refused", field: "postal_code", message: CARRIER_REFUSALS.postal_code });
    expect((await sandboxRequests("/pickuppoint/")).length).toBe(before);
  });
});

describe("prices", () => {
  it("answers the price and lead time of each method that takes the size, as the checkout's table", async () => {
    const small = await client.prices("0150", "5003", "small");
    if (!small.ok) throw new Error(JSON.stringify(small));
    expect(small.value).toEqual([
      { method: "mailbox", service: "5900", priceOre: 7_900, workingDays: 4 },
      { method: "parcel_locker", service: "5901", priceOre: 6_900, workingDays: 5 },
      { method: "pickup_point", service: "5902", priceOre: 7_900, workingDays: 5 },
    ]);
    const large = await client.prices("0150", "5003", "large");
    expect(large.ok && large.value.map((p) => p.method)).toEqual(["parcel_locker", "pickup_point"]);
  });
});

describe("booking", () => {
  it("books a parcel to a locker and returns the shipment number and the code for the parcel", async () => {
    const lockers = await client.pickupPoints("5003", "locker");
    if (!lockers.ok) throw new Error(JSON.stringify(lockers));
    const result = await client.book(request({ method: "parcel_locker", size: "large", pickupPointId: lockers.value[0].id }), key());
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.value.consignmentNumber).toMatch(/^\d{17}$/);
    expect(result.value.dropOffCode).toMatch(/^BRING-\d{4}-\d{4}$/);
    expect(result.attempts).toBe(1);
  });

  it("a repeat with the same idempotency key returns the same shipment; another key books another", async () => {
    const k = key();
    const first = await client.book(request(), k);
    const again = await client.book(request(), k);
    const other = await client.book(request(), key());
    if (!first.ok || !again.ok || !other.ok) throw new Error("booking failed");
    expect(again.value).toEqual(first.value);
    expect(other.value.consignmentNumber).not.toBe(first.value.consignmentNumber);
    const sent = (await sandboxRequests("/booking/api/create")).filter((r) => r.idempotencyKey === k);
    expect(sent).toHaveLength(2);
  });

  it("retries a 503 within the call and books once", async () => {
    const k = key();
    await failNext(1, 503, { key: k });
    const result = await client.book(request(), k);
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.attempts).toBe(2);
    expect((await sandboxRequests("/booking/api/create")).filter((r) => r.idempotencyKey === k)).toHaveLength(2);
    const parcels = (await (await fetch(`${SANDBOX}/__sandbox/bring/parcels`)).json()) as Array<{ consignmentNumber: string }>;
    expect(parcels.filter((p) => p.consignmentNumber === result.value.consignmentNumber)).toHaveLength(1);
  });

  it("retries a 429 too", async () => {
    await failNext(1, 429, { path: "/pickuppoint/" });
    const result = await client.pickupPoints("0150");
    expect(result.ok && result.attempts).toBe(2);
  });

  it("after the bound answers a failure the caller keeps, and a later try with the same key books", async () => {
    const k = key();
    await failNext(FAST.attempts, 500, { key: k });
    const failed = await client.book(request(), k);
    expect(failed).toMatchObject({ ok: false, kind: "unavailable", attempts: FAST.attempts, status: 500 });
    const later = await client.book(request(), k);
    const repeat = await client.book(request(), k);
    if (!later.ok || !repeat.ok) throw new Error(`the later try failed: ${JSON.stringify({ later, repeat })}`);
    expect(repeat.value.consignmentNumber).toBe(later.value.consignmentNumber);
  });

  // workerd logs each refused connection ("Network connection lost"): expected here.
  it("a carrier that cannot be reached is a failure to keep, after the bound", async () => {
    const down = new BringClient({ ...config, baseUrl: "http://127.0.0.1:9" }, FAST);
    const result = await down.book(request(), key());
    expect(result).toMatchObject({ ok: false, kind: "unavailable", attempts: FAST.attempts, status: null });
  });

  it.each([
    ["the seller's address", { sender: { ...request().sender, postalCode: "OSLO" } }, "sender", SHIPMENT_TEXTS.bookingFailedSeller],
    [
      "the buyer's phone number",
      { recipient: { ...request().recipient, phoneNumber: "22 00 00 00" } },
      "recipient",
      CARRIER_REFUSALS.recipient,
    ],
    [
      "a manned point as a locker",
      { method: "parcel_locker" as const, pickupPointId: "1500300" },
      "pickup_point",
      CARRIER_REFUSALS.pickup_point,
    ],
  ])("a refusal of %s is not retried and tells the seller what to do", async (_what, overrides, field, message) => {
    const k = key();
    const result = await client.book(request(overrides), k);
    expect(result).toMatchObject({ ok: false, kind: "refused", status: 400, field, message });
    expect((await sandboxRequests("/booking/api/create")).filter((r) => r.idempotencyKey === k)).toHaveLength(1);
  });

  it("refuses a method the size cannot take before calling, and a wrong API key as our own fault", async () => {
    const notOffered = await client.book(request({ method: "mailbox", size: "large" }), key());
    expect(notOffered).toMatchObject({ ok: false, kind: "refused", field: "offer", message: SHIPPING_CHOICE_REFUSALS.notOffered });
    const wrongKey = await new BringClient({ ...config, apiKey: "wrong" }, FAST).book(request(), key());
    expect(wrongKey).toMatchObject({ ok: false, kind: "refused", status: 401, field: "request", message: CARRIER_REFUSALS.request });
  });
});

describe("cancelling", () => {
  it("cancels a booking before hand-in, again without harm, and is refused once the parcel is handed in", async () => {
    const booked = await client.book(request(), key());
    if (!booked.ok) throw new Error(JSON.stringify(booked));
    const n = booked.value.consignmentNumber;
    expect((await client.cancel(n, `cancel:${n}`)).ok).toBe(true);
    expect((await client.cancel(n, `cancel:${n}`)).ok).toBe(true);

    const handed = await client.book(request(), key());
    if (!handed.ok) throw new Error(JSON.stringify(handed));
    const m = handed.value.consignmentNumber;
    const advanced = await fetch(`${SANDBOX}/__sandbox/bring/parcels/${m}/advance`, {
      method: "POST",
      body: JSON.stringify({ step: "handed_in" }),
    });
    expect(advanced.status).toBe(200);
    const late = await client.cancel(m, `cancel:${m}`);
    expect(late).toMatchObject({ ok: false, kind: "refused", status: 409, field: "handed_in", message: CARRIER_REFUSALS.handed_in });
  });
});
