// The sandbox's second carrier (Helthjem, decision 154): a bearer token from the client id and secret,
// Helthjem's own shops near a postal code (no parcel lockers), booking a C2C parcel that answers a
// shipment number and a code for the parcel, refusals in Helthjem's `{ errorKey }` shape, idempotent
// repeats, cancelling before hand-in, and the tester page moving a Helthjem parcel with signed
// tracking webhooks in Helthjem's codes, beside Bring's parcels on the same page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRACKING_CODES } from "../../domain/carriers";
import type { PaymentSandbox, SandboxConfig } from "../../scripts/payment-sandbox/server";
import { verifyCarrierSignature } from "../../worker/features/carriers/carrier-signature";
import { form, receiver, sandbox } from "./helpers";

const HELTHJEM = { clientId: "helthjem-client", clientSecret: "helthjem-secret", shopId: 4242 };
const SECRET = "helthjem-webhook-secret";
const BRING = { apiUid: "uid@example.invalid", apiKey: "bring-key", customerNumber: "20012345678" };
const MAILBOX = 2;
const SERVICE_POINT = 86;

let sb: PaymentSandbox;
let hooks: Awaited<ReturnType<typeof receiver>>;
let token: string;

function helthjemConfig(url: string): SandboxConfig["helthjem"] {
  return { ...HELTHJEM, webhook: { url: `${url}/api/shipping/webhooks/helthjem`, secret: SECRET } };
}

async function tokenFor(url: string, body: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/auth/oauth2/v1/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_id: HELTHJEM.clientId, client_secret: HELTHJEM.clientSecret, grant_type: "client_credentials", ...body }),
  });
}

beforeAll(async () => {
  hooks = await receiver();
  sb = await sandbox({ helthjem: helthjemConfig(hooks.url), bring: { ...BRING } });
  token = ((await (await tokenFor(sb.url)).json()) as { token: string }).token;
});

afterAll(async () => {
  await sb.close();
  await hooks.close();
});

async function api(path: string, body: unknown, options: { key?: string; method?: string; bearer?: string; url?: string } = {}) {
  return fetch(`${options.url ?? sb.url}${path}`, {
    method: options.method ?? "POST",
    headers: {
      Authorization: `Bearer ${options.bearer ?? token}`,
      "Content-Type": "application/json",
      ...(options.key ? { "Idempotency-Key": options.key } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

interface ServicePoint {
  servicePointExternalId: string;
  servicePointName: string;
  visitingAddress: { streetName: string; postalName: string; postalCode: string };
  distanceInMeters: number;
}

async function nearby(zipCode: string, extra: Record<string, unknown> = {}) {
  return api("/parcels/v1/service-points/nearby", {
    shopId: HELTHJEM.shopId,
    transportSolutionId: SERVICE_POINT,
    countryCode: "NO",
    zipCode,
    ...extra,
  });
}

async function points(zipCode: string): Promise<ServicePoint[]> {
  const res = await nearby(zipCode);
  expect(res.status).toBe(200);
  return ((await res.json()) as { freightProducts: Array<{ servicePoints: ServicePoint[] }> }).freightProducts.flatMap(
    (p) => p.servicePoints,
  );
}

const party = (type: string, name: string, zipCode: string, phone1 = "+4791234567") => ({
  type,
  name,
  address: "Storgata 1",
  zipCode,
  postalName: "OSLO",
  countryCode: "NO",
  phone1,
  email: null,
  reference: "ordre-1",
});

/** A small parcel (35 × 25 × 11 cm, 5 kg) to the mailbox, or to a service point when one is named. */
function booking(overrides: Record<string, unknown> = {}, servicePoint: string | null = null) {
  return {
    shopId: HELTHJEM.shopId,
    transportSolutionId: servicePoint ? SERVICE_POINT : MAILBOX,
    shipmentId: null,
    withDropOffCode: true,
    parties: [
      party("consignee", "Ola Kjøper", "5003"),
      party("consignor", "Kari Selger", "0150"),
      ...(servicePoint ? [{ type: "servicePoint", id: servicePoint, countryCode: "NO" }] : []),
    ],
    items: [{ itemNumber: 1, weight: 5000, length: 35, width: 25, height: 11, contents: "Leker" }],
    ...overrides,
  };
}

interface Booked {
  shipmentId: string;
  dropOffCode: string | null;
  trackingNumbers: string[];
}

async function booked(servicePoint: string | null = null): Promise<string> {
  const res = await api("/parcels/v1/bookings", booking({}, servicePoint));
  expect(res.status).toBe(200);
  return ((await res.json()) as Booked).shipmentId.replace("(401)", "");
}

async function advance(number: string, step: string): Promise<Response> {
  return fetch(`${sb.url}/__sandbox/helthjem/parcels/${number}/advance`, { method: "POST", body: JSON.stringify({ step }) });
}

async function deliveriesFor(n: string): Promise<Array<{ eventType: string }>> {
  await sb.dispatcher.idle();
  return (await (await fetch(`${sb.url}/__sandbox/deliveries?provider=helthjem&object=${n}`)).json()) as Array<{ eventType: string }>;
}

describe("the token", () => {
  it("is given for the client id and secret, as JSON or a form, and refused otherwise", async () => {
    const res = await tokenFor(sb.url);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token: expect.any(String), expires_in: 3600, token_type: "Bearer" });
    const asForm = await fetch(`${sb.url}/auth/oauth2/v1/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: HELTHJEM.clientId,
        client_secret: HELTHJEM.clientSecret,
        grant_type: "client_credentials",
      }).toString(),
    });
    expect(asForm.status).toBe(200);
    const wrong = await tokenFor(sb.url, { client_secret: "wrong" });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ errorKey: "invalid.client", statusCode: 401 });
  });

  it("is needed for every other call", async () => {
    const res = await api("/parcels/v1/bookings", booking(), { bearer: "made-up" });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ errorKey: "invalid.token" });
    expect((await fetch(`${sb.url}/parcels/v1/service-points/nearby`, { method: "POST", body: "{}" })).status).toBe(401);
  });
});

describe("service points", () => {
  it("lists five of Helthjem's own shops near a postal code, nearest first, the same every time, no parcel lockers", async () => {
    const list = await points("5003");
    expect(list).toHaveLength(5);
    const metres = list.map((p) => p.distanceInMeters);
    expect(metres).toEqual([...metres].sort((a, b) => a - b));
    expect(
      list.every(
        (p) => p.visitingAddress.postalName === "BERGEN" && p.visitingAddress.streetName && !/pakkeboks/i.test(p.servicePointName),
      ),
    ).toBe(true);
    expect(await points("5003")).toEqual(list);
  });

  it("refuses a postal code that is not four digits, another shop and home delivery's solution; Svalbard has none", async () => {
    expect(await (await nearby("50")).json()).toMatchObject({ errorKey: "invalid.zip.code", statusCode: 400 });
    const shop = await nearby("5003", { shopId: 1 });
    expect(shop.status).toBe(403);
    expect(await shop.json()).toMatchObject({ errorKey: "no.access.shop.id" });
    expect(await (await nearby("5003", { transportSolutionId: MAILBOX })).json()).toMatchObject({ errorKey: "invalid.transport.solution" });
    expect(await points("9170")).toEqual([]);
  });
});

describe("booking", () => {
  it("books a C2C parcel: a shipment number and a code the seller writes on the parcel, no label", async () => {
    const res = await api("/parcels/v1/bookings", booking());
    expect(res.status).toBe(200);
    const body = (await res.json()) as Booked;
    expect(body.shipmentId).toMatch(/^\(401\)70724760\d{9}$/);
    expect(body.dropOffCode).toMatch(/^HH-\d{4}-\d{4}$/);
    expect(body.trackingNumbers[0]).toMatch(/^370724760\d{9}$/);
  });

  it("books a larger parcel to one of the service points the search gave", async () => {
    const [point] = await points("5003");
    const res = await api(
      "/parcels/v1/bookings",
      booking({ items: [{ itemNumber: 1, weight: 10000, length: 58, width: 43, height: 23 }] }, point.servicePointExternalId),
    );
    expect(res.status).toBe(200);
  });

  it("returns the same shipment for a repeated Idempotency-Key, and refuses the key with another request", async () => {
    const first = await api("/parcels/v1/bookings", booking(), { key: "shipment-helthjem-7" });
    const again = await api("/parcels/v1/bookings", booking(), { key: "shipment-helthjem-7" });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    const a = (await first.json()) as Booked;
    expect(((await again.json()) as Booked).shipmentId).toBe(a.shipmentId);
    expect(await booked()).not.toBe(a.shipmentId.replace("(401)", ""));
    const misuse = await api("/parcels/v1/bookings", booking({ withDropOffCode: false }), { key: "shipment-helthjem-7" });
    expect(misuse.status).toBe(422);
    expect(await misuse.json()).toMatchObject({ errorKey: "idempotency.key.reused" });
  });

  const withConsignee = (changes: Record<string, unknown>) => {
    const b = booking();
    b.parties[0] = { ...b.parties[0], ...changes };
    return b;
  };
  it.each([
    [
      "a medium parcel to the mailbox",
      booking({ items: [{ itemNumber: 1, weight: 5000, length: 45, width: 30, height: 15 }] }),
      400,
      "item.exceeds.limits",
    ],
    [
      "a parcel heavier than the mailbox takes",
      booking({ items: [{ itemNumber: 1, weight: 5001, length: 30, width: 20, height: 10 }] }),
      400,
      "item.exceeds.limits",
    ],
    ["no item", booking({ items: [] }), 400, "invalid.items"],
    ["a service-point parcel without a point", booking({ transportSolutionId: SERVICE_POINT }), 400, "invalid.service.point"],
    ["a service point no search gave", booking({}, "9999999"), 400, "invalid.service.point"],
    ["an unknown transport solution", booking({ transportSolutionId: 1 }), 400, "invalid.transport.solution"],
    ["another shop", booking({ shopId: 1 }), 403, "no.access.shop.id"],
    ["a consignee without a mobile number", withConsignee({ phone1: "22 00 00 00" }), 400, "invalid.consignee.phone"],
    ["a consignee without an address", withConsignee({ address: "" }), 400, "invalid.consignee"],
    ["an address Helthjem does not cover", withConsignee({ zipCode: "9171" }), 400, "no.carrier.support"],
    [
      "a consignor without a postal code",
      (() => {
        const b = booking();
        b.parties[1] = { ...b.parties[1], zipCode: "OSLO" };
        return b;
      })(),
      400,
      "invalid.consignor",
    ],
  ])("refuses %s in Helthjem's shape", async (_what, body, status, errorKey) => {
    const res = await api("/parcels/v1/bookings", body);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ errorKey, statusCode: status, message: expect.any(String) });
  });
});

describe("cancelling", () => {
  const cancel = (n: string) => api(`/parcels/v1/bookings/${n}`, undefined, { method: "DELETE" });

  it("cancels before hand-in (again without harm), and refuses once the parcel is handed in", async () => {
    const n = await booked();
    expect((await cancel(n)).status).toBe(200);
    expect((await cancel(n)).status).toBe(200);
    const m = await booked();
    expect((await advance(m, "handed_in")).status).toBe(200);
    const late = await cancel(m);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ errorKey: "shipment.already.handed.in" });
    expect((await cancel("70724760000000000")).status).toBe(404);
  });
});

describe("the tester's moves", () => {
  it("one page lists both carriers' parcels; «Levert» on a service-point parcel sends every step's Helthjem code, in order, signed", async () => {
    const [point] = await points("5003");
    const n = await booked(point.servicePointExternalId);
    const bring = await fetch(`${sb.url}/booking/api/create`, {
      method: "POST",
      headers: { "X-MyBring-API-Uid": BRING.apiUid, "X-MyBring-API-Key": BRING.apiKey, "Content-Type": "application/json" },
      body: JSON.stringify({
        schemaVersion: 1,
        consignments: [
          {
            product: { id: "5900", customerNumber: BRING.customerNumber, additionalServices: [{ id: "2528" }, { id: "1288" }] },
            parties: {
              sender: { name: "Kari", addressLine: "Storgata 1", postalCode: "0150", city: "OSLO", countryCode: "NO" },
              recipient: {
                name: "Ola",
                addressLine: "Bryggen 2",
                postalCode: "5003",
                city: "BERGEN",
                countryCode: "NO",
                contact: { phoneNumber: "+4798765432" },
              },
            },
          },
        ],
      }),
    });
    expect(bring.status).toBe(200);
    const html = await (await fetch(`${sb.url}/frakt/tester`)).text();
    expect(html).toContain(`Helthjem: sending ${n}`);
    expect(html).toContain("Posten: sending");
    for (const label of ["Levert inn", "På vei", "Klar til henting", "Levert"]) expect(html).toContain(`>${label}</button>`);
    expect(html).toContain('name="carrier" value="helthjem"');

    const res = await fetch(`${sb.url}/frakt/tester`, form({ carrier: "helthjem", number: n, step: "delivered" }));
    expect(res.status).toBe(303);
    const codes = ["HANDED_IN", "TERMINAL_SCAN", "READY_FOR_PICKUP", "DELIVERED"];
    expect((await deliveriesFor(n)).map((d) => d.eventType)).toEqual(codes);
    const received = hooks.received.filter((r) => r.body.includes(n));
    expect(received.map((r) => (JSON.parse(r.body) as { eventType: { apiKey: string } }).eventType.apiKey)).toEqual(codes);
    for (const r of received) {
      expect(r.url).toBe("/api/shipping/webhooks/helthjem");
      expect(await verifyCarrierSignature(r.body, r.headers["x-lekebytte-signature"] as string, [SECRET])).toBe("ok");
      expect(await verifyCarrierSignature(r.body, r.headers["x-lekebytte-signature"] as string, ["another-secret"])).toBe("bad-signature");
      const code = (JSON.parse(r.body) as { eventType: { apiKey: string } }).eventType.apiKey;
      expect(Object.hasOwn(TRACKING_CODES.helthjem, code)).toBe(true);
    }
    expect(JSON.parse(received[3].body)).toMatchObject({ shipmentNumber: n, shopId: HELTHJEM.shopId, eventTimeUtc: expect.any(String) });
  });

  it("a mailbox parcel goes out for delivery and is never ready for pickup; «Tapt» sends nothing more", async () => {
    const n = await booked();
    expect((await advance(n, "ready_for_pickup")).status).toBe(409);
    expect((await advance(n, "lost")).status).toBe(409);
    expect((await advance(n, "delivered")).status).toBe(200);
    expect((await deliveriesFor(n)).map((d) => d.eventType)).toEqual(["HANDED_IN", "TERMINAL_SCAN", "OUT_FOR_DELIVERY", "DELIVERED"]);
    expect((await advance(n, "in_transit")).status).toBe(409);
    const m = await booked();
    expect((await advance(m, "in_transit")).status).toBe(200);
    expect((await advance(m, "lost")).status).toBe(200);
    expect((await advance(m, "delivered")).status).toBe(409);
    expect((await deliveriesFor(m)).map((d) => d.eventType)).toEqual(["HANDED_IN", "TERMINAL_SCAN"]);
  });
});

describe("the failure switch", () => {
  it("is Helthjem's own: a failure set there is taken by Helthjem's calls with that key, not by Bring's", async () => {
    const fail = (body: Record<string, unknown>) =>
      fetch(`${sb.url}/__sandbox/helthjem/fail`, { method: "POST", body: JSON.stringify({ times: 1, status: 503, ...body }) });
    expect((await fail({ key: "shipment-switch" })).status).toBe(200);
    const failed = await api("/parcels/v1/bookings", booking(), { key: "shipment-switch" });
    expect(failed.status).toBe(503);
    expect(await failed.json()).toMatchObject({ errorKey: "service.unavailable" });
    expect((await api("/parcels/v1/bookings", booking(), { key: "shipment-switch" })).status).toBe(200);
    await fail({ path: "/parcels/v1/service-points/" });
    expect((await fetch(`${sb.url}/__sandbox/helthjem/fail?path=/parcels/v1/service-points/`, { method: "DELETE" })).status).toBe(200);
    expect((await nearby("0150")).status).toBe(200);
  });
});
