// The sandbox's carrier (Bring's C2C parcels): pickup points near a postal code, booking with a size
// and a label-free code, idempotent repeats, cancelling, the tester's moves sending signed Event
// Cast webhooks (retried until the receiver answers 2xx), and the failure switch for retry tests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentSandbox, SandboxConfig } from "../../scripts/payment-sandbox/server";
import { verifyCarrierSignature } from "../../worker/features/carriers/carrier-signature";
import { form, receiver, sandbox } from "./helpers";

const BRING = { apiUid: "uid@example.invalid", apiKey: "bring-key", customerNumber: "20012345678" };
const SECRET = "bring-webhook-secret";
const AUTH = { "X-MyBring-API-Uid": BRING.apiUid, "X-MyBring-API-Key": BRING.apiKey };

let sb: PaymentSandbox;
let hooks: Awaited<ReturnType<typeof receiver>>;

function bringConfig(url: string): SandboxConfig["bring"] {
  return { ...BRING, webhook: { url: `${url}/api/shipping/webhooks/bring`, secret: SECRET } };
}

beforeAll(async () => {
  hooks = await receiver();
  sb = await sandbox({ bring: bringConfig(hooks.url) });
});

afterAll(async () => {
  await sb.close();
  await hooks.close();
});

interface Point {
  id: string;
  name: string;
  type: string;
  distanceInKm: string;
  openingHoursNorwegian: string;
  address: string;
  city: string;
}

async function points(postalCode: string, query = "", url = sb.url): Promise<Response> {
  return fetch(`${url}/pickuppoint/api/pickuppoint/NO/postalCode/${postalCode}.json${query}`, { headers: AUTH });
}

function booking(service: string, vas: string[], pickupPoint: string | null = null, correlationId = "ordre-1") {
  const party = (name: string, postalCode: string) => ({
    name,
    addressLine: "Storgata 1",
    postalCode,
    city: "OSLO",
    countryCode: "NO",
    contact: { name, email: null, phoneNumber: "+4791234567" },
  });
  return {
    schemaVersion: 1,
    consignments: [
      {
        shippingDateTime: "2026-11-29T12:00:00",
        correlationId,
        product: { id: service, customerNumber: BRING.customerNumber, additionalServices: vas.map((id) => ({ id })) },
        parties: {
          sender: party("Kari Selger", "0150"),
          recipient: party("Ola Kjøper", "5003"),
          pickupPoint: pickupPoint && { id: pickupPoint },
        },
        packages: [{ correlationId }],
      },
    ],
  };
}

async function book(body: unknown, key?: string, url = sb.url): Promise<Response> {
  return fetch(`${url}/booking/api/create`, {
    method: "POST",
    headers: { ...AUTH, "Content-Type": "application/json", ...(key ? { "Idempotency-Key": key } : {}) },
    body: JSON.stringify(body),
  });
}

interface Confirmed {
  consignments: Array<{ confirmation: { consignmentNumber: string; packages: Array<{ labelFreeCode: string | null }> } }>;
}

async function booked(service = "5902", vas = ["2528", "1288"], pickupPoint: string | null = null, url = sb.url): Promise<string> {
  const res = await book(booking(service, vas, pickupPoint), undefined, url);
  expect(res.status).toBe(200);
  return ((await res.json()) as Confirmed).consignments[0].confirmation.consignmentNumber;
}

async function advance(consignment: string, step: string, url = sb.url): Promise<Response> {
  return fetch(`${url}/__sandbox/bring/parcels/${consignment}/advance`, { method: "POST", body: JSON.stringify({ step }) });
}

describe("pickup points", () => {
  it("lists Norwegian-looking shops and lockers near a postal code, nearest first, the same every time", async () => {
    const res = await points("5003");
    expect(res.status).toBe(200);
    const list = ((await res.json()) as { pickupPoint: Point[] }).pickupPoint;
    expect(list).toHaveLength(10);
    const km = list.map((p) => Number(p.distanceInKm));
    expect(km).toEqual([...km].sort((a, b) => a - b));
    expect(new Set(list.map((p) => p.type))).toEqual(new Set(["4", "37"]));
    expect(list.every((p) => p.city === "BERGEN" && p.address && p.openingHoursNorwegian.startsWith("Man-"))).toBe(true);
    const again = ((await (await points("5003")).json()) as { pickupPoint: Point[] }).pickupPoint;
    expect(again).toEqual(list);
  });

  it("filters parcel lockers and refuses a postal code that is not four digits or a wrong API key", async () => {
    const lockers = ((await (await points("0150", "?pickupPointType=Locker")).json()) as { pickupPoint: Point[] }).pickupPoint;
    expect(lockers.length).toBeGreaterThan(0);
    expect(lockers.every((p) => p.type === "37" && p.name.startsWith("Pakkeboks"))).toBe(true);
    const bad = await points("15");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: Array<{ code: string }> }).errors[0].code).toBe("PICKUP-INPUT-002");
    const denied = await fetch(`${sb.url}/pickuppoint/api/pickuppoint/NO/postalCode/0150.json`, {
      headers: { ...AUTH, "X-MyBring-API-Key": "wrong" },
    });
    expect(denied.status).toBe(401);
  });
});

describe("prices", () => {
  it("answers each C2C product's price with VAT and working days, and an error for a size it does not take", async () => {
    const res = await fetch(`${sb.url}/shippingguide/v2/products`, {
      method: "POST",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({
        consignments: [
          {
            id: "1",
            fromPostalCode: "0150",
            toPostalCode: "5003",
            products: [
              { id: "5901", additionalServices: [{ id: "2529" }] },
              { id: "5900", additionalServices: [{ id: "1377" }] },
            ],
          },
        ],
      }),
    });
    expect(res.status).toBe(200);
    const [locker, mailbox] = ((await res.json()) as { consignments: Array<{ products: Array<Record<string, unknown>> }> }).consignments[0]
      .products;
    expect(locker).toMatchObject({
      id: "5901",
      price: { listPrice: { currencyCode: "NOK", priceWithAdditionalServices: { amountWithVAT: "89.00", amountWithoutVAT: "71.20" } } },
      expectedDelivery: { workingDays: "5" },
    });
    expect(mailbox).toMatchObject({ id: "5900", errors: [{ code: "PRODUCT_NOT_AVAILABLE" }] });
    const bad = await fetch(`${sb.url}/shippingguide/v2/products`, {
      method: "POST",
      headers: AUTH,
      body: JSON.stringify({ consignments: [{ fromPostalCode: "1", toPostalCode: "5003" }] }),
    });
    expect(bad.status).toBe(400);
  });
});

describe("booking", () => {
  it("books a C2C parcel with a shipment number and a label-free code the seller writes on the parcel", async () => {
    const res = await book(booking("5900", ["2529", "1288"]));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Confirmed & { consignments: Array<{ errors: unknown }> };
    expect(body.consignments[0].errors).toBeNull();
    expect(body.consignments[0].confirmation.consignmentNumber).toMatch(/^70438101\d{9}$/);
    expect(body.consignments[0].confirmation.packages[0].labelFreeCode).toMatch(/^BRING-\d{4}-\d{4}$/);
  });

  it("returns the same shipment for a repeated Idempotency-Key, and refuses the key with another request", async () => {
    const first = await book(booking("5902", ["2528", "1288"]), "book:ordre-7");
    const again = await book(booking("5902", ["2528", "1288"]), "book:ordre-7");
    const a = (await first.json()) as Confirmed;
    const b = (await again.json()) as Confirmed;
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(b.consignments[0].confirmation.consignmentNumber).toBe(a.consignments[0].confirmation.consignmentNumber);
    const other = await booked();
    expect(other).not.toBe(a.consignments[0].confirmation.consignmentNumber);
    const misuse = await book(booking("5902", ["2529", "1288"]), "book:ordre-7");
    expect(misuse.status).toBe(422);
  });

  it.each([
    ["a size the service does not take (Large to the mailbox)", booking("5900", ["1377", "1288"]), "BOOK-INPUT-004"],
    ["no size", booking("5902", ["1288"]), "BOOK-INPUT-004"],
    ["a locker parcel without a locker", booking("5901", ["2528", "1288"]), "BOOK-INPUT-008"],
    ["a locker parcel to a manned point", booking("5901", ["2528", "1288"], "1015000"), "BOOK-INPUT-008"],
    ["an unknown service", booking("3584", ["2528"]), "BOOK-INPUT-002"],
    [
      "a recipient without a mobile number",
      (() => {
        const b = booking("5902", ["2528"]);
        b.consignments[0].parties.recipient.contact.phoneNumber = "22 00 00 00";
        return b;
      })(),
      "BOOK-INPUT-007",
    ],
  ])("refuses %s with a 400 and Bring's kind of error body", async (_what, body, code) => {
    const res = await book(body);
    expect(res.status).toBe(400);
    const errors = (
      (await res.json()) as { consignments: Array<{ confirmation: null; errors: Array<{ code: string; messages: unknown[] }> }> }
    ).consignments[0];
    expect(errors.confirmation).toBeNull();
    expect(errors.errors[0].code).toBe(code);
    expect(errors.errors[0].messages).toHaveLength(1);
  });

  it("books a locker parcel to a locker from the pickup-point search", async () => {
    const locker = ((await (await points("0150", "?pickupPointType=Locker")).json()) as { pickupPoint: Point[] }).pickupPoint[0];
    await booked("5901", ["1377", "1288"], locker.id);
    const parcels = (await (await fetch(`${sb.url}/__sandbox/bring/parcels`)).json()) as Array<{ pickupPoint: { id: string } | null }>;
    expect(parcels.some((p) => p.pickupPoint?.id === locker.id)).toBe(true);
  });
});

describe("cancelling", () => {
  const cancel = (n: string) => fetch(`${sb.url}/booking/api/consignments/${n}`, { method: "DELETE", headers: AUTH });

  it("cancels before hand-in (again without harm), and refuses once the parcel is handed in", async () => {
    const n = await booked();
    expect((await cancel(n)).status).toBe(200);
    expect((await cancel(n)).status).toBe(200);
    const m = await booked();
    expect((await advance(m, "handed_in")).status).toBe(200);
    const late = await cancel(m);
    expect(late.status).toBe(409);
    expect(((await late.json()) as { errors: Array<{ code: string }> }).errors[0].code).toBe("BOOK-CANCEL-002");
    expect((await cancel("70438101000000000")).status).toBe(404);
  });
});

describe("the tester's moves", () => {
  async function deliveriesFor(n: string): Promise<Array<{ eventType: string; state: string; attempts: unknown[] }>> {
    await sb.dispatcher.idle();
    return (await (await fetch(`${sb.url}/__sandbox/deliveries?provider=bring&object=${n}`)).json()) as Array<{
      eventType: string;
      state: string;
      attempts: unknown[];
    }>;
  }

  it("moving a pickup-point parcel to «Levert» on the page sends every step's webhook, in order, signed", async () => {
    const n = await booked("5902");
    const page = await fetch(`${sb.url}/frakt/tester`);
    const html = await page.text();
    for (const label of ["Levert inn", "På vei", "Klar til henting", "Levert"]) expect(html).toContain(`>${label}</button>`);
    expect(html).toContain(`Posten: sending ${n}`);
    const res = await fetch(`${sb.url}/frakt/tester`, form({ carrier: "bring", number: n, step: "delivered" }));
    expect(res.status).toBe(303);
    expect((await deliveriesFor(n)).map((d) => d.eventType)).toEqual(["HANDED_IN", "IN_TRANSIT", "READY_FOR_PICKUP", "DELIVERED"]);
    const received = hooks.received.filter((r) => r.body.includes(n));
    expect(received.map((r) => (JSON.parse(r.body) as { status: string }).status)).toEqual([
      "HANDED_IN",
      "IN_TRANSIT",
      "READY_FOR_PICKUP",
      "DELIVERED",
    ]);
    for (const r of received) {
      expect(r.url).toBe("/api/shipping/webhooks/bring");
      expect(await verifyCarrierSignature(r.body, r.headers["x-lekebytte-signature"] as string, [SECRET])).toBe("ok");
      expect(await verifyCarrierSignature(r.body, r.headers["x-lekebytte-signature"] as string, ["another-secret"])).toBe("bad-signature");
    }
    const event = JSON.parse(received[3].body) as Record<string, unknown>;
    expect(event).toMatchObject({ trackingId: n, consignmentNumber: n, eventGroup: "DELIVERED", countryCode: "NO" });
  });

  it("a mailbox parcel is never ready for pickup; «Tapt» sends nothing more; a delivered parcel stays delivered", async () => {
    const n = await booked("5900", ["2528", "1288"]);
    expect((await advance(n, "ready_for_pickup")).status).toBe(409);
    expect((await advance(n, "lost")).status).toBe(409);
    expect((await advance(n, "in_transit")).status).toBe(200);
    expect((await advance(n, "lost")).status).toBe(200);
    expect((await advance(n, "delivered")).status).toBe(409);
    expect((await deliveriesFor(n)).map((d) => d.eventType)).toEqual(["HANDED_IN", "IN_TRANSIT"]);
    const m = await booked("5900", ["2528", "1288"]);
    expect((await advance(m, "delivered")).status).toBe(200);
    expect((await advance(m, "in_transit")).status).toBe(409);
  });

  it("retries a webhook until the receiver answers 2xx, signing each attempt anew", async () => {
    const flaky = await receiver([500, 503]);
    const own = await sandbox({ bring: bringConfig(flaky.url) });
    try {
      const n = await booked("5902", ["2528", "1288"], null, own.url);
      expect((await advance(n, "handed_in", own.url)).status).toBe(200);
      await own.dispatcher.idle();
      const [delivery] = own.dispatcher.deliveries;
      expect(delivery.state).toBe("delivered");
      expect(delivery.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
      expect(flaky.received).toHaveLength(3);
      for (const r of flaky.received)
        expect(await verifyCarrierSignature(r.body, r.headers["x-lekebytte-signature"] as string, [SECRET])).toBe("ok");
    } finally {
      await own.close();
      await flaky.close();
    }
  });
});

describe("the tester page's old path", () => {
  it("leads to /frakt/tester, and a form posted there from an old page still moves the parcel", async () => {
    const old = await fetch(`${sb.url}/bring/tester?melding=x`, { redirect: "manual" });
    expect(old.status).toBe(303);
    expect(old.headers.get("location")).toBe("/frakt/tester?melding=x");
    const n = await booked("5902");
    const posted = await fetch(`${sb.url}/bring/tester`, form({ consignment: n, step: "handed_in" }));
    expect(posted.status).toBe(307);
    expect(posted.headers.get("location")).toBe("/frakt/tester");
    // What a browser does with a 307: the same form to the new place.
    const moved = await fetch(`${sb.url}/frakt/tester`, form({ consignment: n, step: "handed_in" }));
    expect(moved.status).toBe(303);
    expect((await deliveriesOf(n)).map((d) => d.eventType)).toEqual(["HANDED_IN"]);
  });
});

async function deliveriesOf(n: string): Promise<Array<{ eventType: string }>> {
  await sb.dispatcher.idle();
  return (await (await fetch(`${sb.url}/__sandbox/deliveries?provider=bring&object=${n}`)).json()) as Array<{ eventType: string }>;
}

describe("the failure switch", () => {
  it("makes the next calls fail with the chosen status, then answers again", async () => {
    const set = await fetch(`${sb.url}/__sandbox/bring/fail`, { method: "POST", body: JSON.stringify({ times: 2, status: 503 }) });
    expect(set.status).toBe(200);
    expect((await points("0150")).status).toBe(503);
    expect((await book(booking("5902", ["2528", "1288"]), "book:switch")).status).toBe(503);
    const after = await book(booking("5902", ["2528", "1288"]), "book:switch");
    expect(after.status).toBe(200);
    expect(after.headers.get("Idempotent-Replayed")).toBeNull();
    await fetch(`${sb.url}/__sandbox/bring/fail`, { method: "POST", body: JSON.stringify({ times: 3, status: 500 }) });
    expect((await fetch(`${sb.url}/__sandbox/bring/fail`, { method: "DELETE" })).status).toBe(200);
    expect((await points("0150")).status).toBe(200);
  });

  it("a failure with a key or a path is taken only by a call with that key or under that path", async () => {
    await fetch(`${sb.url}/__sandbox/bring/fail`, { method: "POST", body: JSON.stringify({ times: 1, status: 503, key: "book:mine" }) });
    await fetch(`${sb.url}/__sandbox/bring/fail`, {
      method: "POST",
      body: JSON.stringify({ times: 1, status: 429, path: "/pickuppoint/" }),
    });
    expect((await book(booking("5902", ["2528", "1288"]), "book:theirs")).status).toBe(200);
    expect((await book(booking("5902", ["2528", "1288"]), "book:mine")).status).toBe(503);
    expect((await points("0150")).status).toBe(429);
    expect((await points("0150")).status).toBe(200);
    expect((await book(booking("5902", ["2528", "1288"]), "book:mine")).status).toBe(200);
  });

  it("forgets only the failures of one key or path when asked to", async () => {
    const fail = (scope: Record<string, string>) =>
      fetch(`${sb.url}/__sandbox/bring/fail`, { method: "POST", body: JSON.stringify({ times: 1, status: 503, ...scope }) });
    await fail({ key: "book:kept" });
    await fail({ key: "book:dropped" });
    await fail({ path: "/pickuppoint/" });
    expect((await fetch(`${sb.url}/__sandbox/bring/fail?key=book:dropped`, { method: "DELETE" })).status).toBe(200);
    expect((await fetch(`${sb.url}/__sandbox/bring/fail?path=/pickuppoint/`, { method: "DELETE" })).status).toBe(200);
    expect((await points("0150")).status).toBe(200);
    expect((await book(booking("5902", ["2528", "1288"]), "book:dropped")).status).toBe(200);
    expect((await book(booking("5902", ["2528", "1288"]), "book:kept")).status).toBe(503);
  });
});
