// Helthjem's parcels as the sandbox plays them (docs/decisions/154-helthjem-carrier.md), in the
// shapes Helthjem's public clients show: a bearer token from a client id and secret
// (POST /auth/oauth2/v1/token), service points near a postal code (POST /parcels/v1/service-points/nearby,
// grouped by freight product), a booking (POST /parcels/v1/bookings: shopId, transportSolutionId,
// parties, items) answering a shipment id, and errors as `{ errorKey, statusCode, message }`.
//
// The sandbox's own, where Helthjem publishes nothing: the C2C code the seller writes on the parcel
// instead of a label (`withDropOffCode` in, `dropOffCode` out), cancelling a booking
// (DELETE /parcels/v1/bookings/{shipmentNumber}), Idempotency-Key replays like the Bring sandbox's,
// and signed tracking webhooks with TRACKING_CODES.helthjem (domain/carriers.ts) as a tester moves
// a parcel on (carrier-pages.ts, /__sandbox/helthjem/...).
import { randomInt, randomUUID } from "node:crypto";
import { POSTAL_CODE_RE } from "./bring-places";
import { type HelthjemServicePoint, NOT_COVERED_RE, servicePointById, servicePointsNear } from "./helthjem-service-points";
import {
  advanceParcel,
  CarrierCalls,
  type FailureScope,
  movesAhead,
  routeFor,
  type ParcelStatus,
  type ParcelStep,
  type SandboxCarrier,
  type TesterParcel,
  type TrackedStep,
} from "./carrier-sandbox";
import { header, json, type Reply, type SandboxRequest } from "./http";
import { HelthjemError, type HelthjemParty, misused, parse, party, refusal } from "./helthjem-requests";
import type { Delivery, WebhookDispatcher, WebhookEndpoint } from "./webhooks";

/**
 * The transport solutions the sandbox's agreement has: home delivery to the mailbox or doormat,
 * and Helthjem's own service points (the ids Helthjem's public clients use for "home only" and
 * "service points"; the real ones come with the agreement). No parcel lockers (decision 145).
 */
export const HELTHJEM_SOLUTIONS = { mailbox: 2, servicePoint: 86 } as const;

/** What each solution takes, in cm and grams: the mailbox 35 × 25 × 12 cm and 5 kg (Helthjem's terms). */
const LIMITS: Record<number, { sides: [number, number, number]; grams: number }> = {
  [HELTHJEM_SOLUTIONS.mailbox]: { sides: [35, 25, 12], grams: 5_000 },
  [HELTHJEM_SOLUTIONS.servicePoint]: { sides: [120, 60, 60], grams: 35_000 },
};

const PHONE_RE = /^(\+47|0047)?[49]\d{7}$/;
const TOKEN_LIFETIME_S = 3_600;

const STEP_EVENTS: Record<TrackedStep, Array<{ code: string; description: string }>> = {
  handed_in: [{ code: "HANDED_IN", description: "Pakken er levert inn" }],
  in_transit: [{ code: "TERMINAL_SCAN", description: "Skannet inn på terminalen" }],
  ready_for_pickup: [{ code: "READY_FOR_PICKUP", description: "Pakken er klar til henting" }],
  delivered: [{ code: "DELIVERED", description: "Utlevert til kunde" }],
};
/** A mailbox parcel goes out with the night's newspaper round before it is delivered. */
const OUT_FOR_DELIVERY = { code: "OUT_FOR_DELIVERY", description: "Pakken er ute for levering" };

export interface HelthjemParcel {
  shipmentNumber: string;
  trackingNumber: string;
  orderId: string;
  dropOffCode: string | null;
  transportSolutionId: number;
  consignor: HelthjemParty;
  consignee: HelthjemParty;
  servicePoint: HelthjemServicePoint | null;
  item: { weight: number; length: number; width: number; height: number };
  status: ParcelStatus;
  createdAt: string;
  events: Array<{ code: string; at: string }>;
}

export interface HelthjemSandboxOptions {
  clientId: string;
  clientSecret: string;
  shopId: number;
  dispatcher: WebhookDispatcher;
  hooks: WebhookEndpoint[];
}

export interface HelthjemState {
  parcels: HelthjemParcel[];
}

export class HelthjemSandbox implements SandboxCarrier {
  readonly carrier = "helthjem" as const;
  readonly parcels = new Map<string, HelthjemParcel>();
  private readonly calls = new CarrierCalls();
  readonly requests = this.calls.requests;
  /** Tokens handed out, with when they run out (ms); a restart forgets them, as a real expiry would. */
  private readonly tokens = new Map<string, number>();

  constructor(private readonly options: HelthjemSandboxOptions) {}

  handle(req: SandboxRequest): Reply | null {
    const path = req.url.pathname;
    if (!path.startsWith("/auth/oauth2/") && !path.startsWith("/parcels/v1/")) return null;
    const idempotencyKey = header(req, "idempotency-key") ?? null;
    const failure = this.calls.record(req, idempotencyKey);
    if (failure !== null) return refusal(new HelthjemError(failure, "service.unavailable", "The service is temporarily unavailable."));
    try {
      if (req.method === "POST" && path === "/auth/oauth2/v1/token") return this.token(req);
      this.authenticate(req);
      let m: RegExpExecArray | null;
      if (req.method === "POST" && path === "/parcels/v1/service-points/nearby") return this.nearby(req.body);
      if (req.method === "POST" && path === "/parcels/v1/bookings")
        return this.calls.idempotent(idempotencyKey, `book ${req.body}`, () => this.attempt(() => this.book(req.body)), misused);
      if (req.method === "DELETE" && (m = /^\/parcels\/v1\/bookings\/([^/]+)$/.exec(path))) {
        const number = decodeURIComponent(m[1]);
        return this.calls.idempotent(idempotencyKey, `cancel ${number}`, () => this.attempt(() => this.cancel(number)), misused);
      }
      return refusal(new HelthjemError(404, "not.found", `No route for ${req.method} ${path}.`));
    } catch (e) {
      if (e instanceof HelthjemError) return refusal(e);
      throw e;
    }
  }

  failNext(times: number, status: number, scope: FailureScope = {}): void {
    this.calls.failNext(times, status, scope);
  }

  clearFailures(scope: FailureScope = {}): void {
    this.calls.clearFailures(scope);
  }

  // ---------------------------------------------------------------- authentication

  /** The client credentials grant, as JSON or as a form. */
  private token(req: SandboxRequest): Reply {
    const type = header(req, "content-type") ?? "";
    let body: Record<string, unknown> = {};
    try {
      body = type.includes("json") ? (JSON.parse(req.body) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(req.body));
    } catch {
      throw new HelthjemError(400, "invalid.request", "The request body is not valid JSON.");
    }
    if (body.grant_type !== "client_credentials")
      throw new HelthjemError(400, "unsupported.grant.type", "grant_type must be client_credentials.");
    if (body.client_id !== this.options.clientId || body.client_secret !== this.options.clientSecret)
      throw new HelthjemError(401, "invalid.client", "Unknown client_id or wrong client_secret.");
    const token = randomUUID().replaceAll("-", "");
    this.tokens.set(token, Date.now() + TOKEN_LIFETIME_S * 1000);
    return json(200, { token, expires_in: TOKEN_LIFETIME_S, token_type: "Bearer" });
  }

  private authenticate(req: SandboxRequest): void {
    const token = /^Bearer (\S+)$/.exec(header(req, "authorization") ?? "")?.[1];
    const until = token ? this.tokens.get(token) : undefined;
    if (!until || until < Date.now()) throw new HelthjemError(401, "invalid.token", "Missing, unknown or expired bearer token.");
  }

  private shop(raw: unknown): void {
    if (raw !== this.options.shopId) throw new HelthjemError(403, "no.access.shop.id", "These credentials have no access to that shopId.");
  }

  // ---------------------------------------------------------------- service points

  private nearby(body: string): Reply {
    const request = parse(body);
    this.shop(request.shopId);
    if (request.transportSolutionId !== HELTHJEM_SOLUTIONS.servicePoint)
      throw new HelthjemError(400, "invalid.transport.solution", "The transport solution does not deliver to service points.");
    const zip = String(request.zipCode ?? "");
    if (request.countryCode !== "NO" || !POSTAL_CODE_RE.test(zip))
      throw new HelthjemError(400, "invalid.zip.code", `Invalid zipCode: ${zip}`);
    const points = servicePointsNear(zip);
    return json(200, {
      freightProducts: points.length ? [{ freightProductId: 2, freightProductName: "Helthjem hentested", servicePoints: points }] : [],
    });
  }

  // ---------------------------------------------------------------- bookings

  private attempt(run: () => Reply): Reply {
    try {
      return run();
    } catch (e) {
      if (e instanceof HelthjemError) return refusal(e);
      throw e;
    }
  }

  private book(body: string): Reply {
    const request = parse(body);
    this.shop(request.shopId);
    const solution = Number(request.transportSolutionId);
    const limits = LIMITS[solution];
    if (!limits) throw new HelthjemError(400, "invalid.transport.solution", `Unknown transportSolutionId ${request.transportSolutionId}.`);
    const parties = Array.isArray(request.parties) ? (request.parties as Array<Record<string, unknown>>) : [];
    const consignor = party(
      parties.find((p) => p?.type === "consignor"),
      "consignor",
    );
    const consignee = party(
      parties.find((p) => p?.type === "consignee"),
      "consignee",
    );
    if (!PHONE_RE.test(String(consignee.phone1 ?? "").replace(/\s/g, "")))
      throw new HelthjemError(400, "invalid.consignee.phone", "consignee.phone1 must be a Norwegian mobile number.");
    if (NOT_COVERED_RE.test(consignee.zipCode))
      throw new HelthjemError(400, "no.carrier.support", "Helthjem does not deliver to this address.");
    const servicePoint = this.servicePointFor(
      solution,
      parties.find((p) => p?.type === "servicePoint"),
    );
    const item = this.item(request.items, limits);
    const serial = this.freshSerial();
    const parcel: HelthjemParcel = {
      shipmentNumber: `70724760${serial}`,
      trackingNumber: `370724760${serial}`,
      orderId: `HH-${serial}`,
      dropOffCode: request.withDropOffCode === true ? dropOffCode() : null,
      transportSolutionId: solution,
      consignor,
      consignee,
      servicePoint,
      item,
      status: "booked",
      createdAt: new Date().toISOString(),
      events: [],
    };
    this.parcels.set(parcel.shipmentNumber, parcel);
    return json(200, {
      shipmentId: `(401)${parcel.shipmentNumber}`,
      orderId: parcel.orderId,
      freightProductId: solution === HELTHJEM_SOLUTIONS.mailbox ? 1 : 2,
      trackingNumbers: [parcel.trackingNumber],
      dropOffCode: parcel.dropOffCode,
    });
  }

  /** A service point solution needs one of Helthjem's points; home delivery takes none. */
  private servicePointFor(solution: number, raw: Record<string, unknown> | undefined): HelthjemServicePoint | null {
    if (solution === HELTHJEM_SOLUTIONS.mailbox) {
      if (raw) throw new HelthjemError(400, "invalid.service.point", "Home delivery takes no service point.");
      return null;
    }
    const id = String(raw?.id ?? "");
    const point = servicePointById(id);
    if (!point) throw new HelthjemError(400, "invalid.service.point", `Unknown service point ${id || "(none)"}.`);
    return point;
  }

  /** Exactly one item, within what the solution takes (any orientation). */
  private item(raw: unknown, limits: (typeof LIMITS)[number]): HelthjemParcel["item"] {
    const items = Array.isArray(raw) ? (raw as Array<Record<string, unknown>>) : [];
    if (items.length !== 1) throw new HelthjemError(400, "invalid.items", "Exactly one item is required.");
    const [i] = items;
    const item = { weight: Number(i.weight), length: Number(i.length), width: Number(i.width), height: Number(i.height) };
    if (!Object.values(item).every((v) => Number.isInteger(v) && v > 0))
      throw new HelthjemError(400, "invalid.items", "An item needs weight (grams) and length, width and height (cm).");
    const sides = [item.length, item.width, item.height].sort((a, b) => b - a);
    const max = [...limits.sides].sort((a, b) => b - a);
    if (item.weight > limits.grams || sides.some((side, n) => side > max[n]))
      throw new HelthjemError(400, "item.exceeds.limits", "The item is larger or heavier than the transport solution takes.");
    return item;
  }

  private freshSerial(): string {
    for (;;) {
      const serial = String(randomInt(1_000_000_000)).padStart(9, "0");
      if (!this.parcels.has(`70724760${serial}`)) return serial;
    }
  }

  /** The sandbox's own: Helthjem publishes no cancellation. Before hand-in only; again is fine. */
  private cancel(shipmentNumber: string): Reply {
    const parcel = this.parcels.get(shipmentNumber.replace(/^\(\d+\)/, ""));
    if (!parcel) throw new HelthjemError(404, "shipment.not.found", `No shipment ${shipmentNumber}.`);
    if (parcel.status !== "booked" && parcel.status !== "cancelled")
      throw new HelthjemError(409, "shipment.already.handed.in", "The shipment has been handed in and cannot be cancelled.");
    parcel.status = "cancelled";
    return json(200, { shipmentNumber: parcel.shipmentNumber, status: "CANCELLED" });
  }

  // ---------------------------------------------------------------- the tester's moves

  /** A home delivery goes straight from the terminal to the mailbox: never ready for pickup. */
  stepsFor(parcel: HelthjemParcel): TrackedStep[] {
    return routeFor(parcel.servicePoint !== null);
  }

  advance(shipmentNumber: string, step: ParcelStep): { parcel: HelthjemParcel; deliveries: Delivery[] } | { error: string } {
    const parcel = this.parcels.get(shipmentNumber);
    return advanceParcel(parcel, shipmentNumber, parcel ? this.stepsFor(parcel) : [], step, (p, s) => this.emit(p, s));
  }

  private emit(parcel: HelthjemParcel, step: TrackedStep): Delivery[] {
    const events = step === "delivered" && !parcel.servicePoint ? [OUT_FOR_DELIVERY, ...STEP_EVENTS.delivered] : STEP_EVENTS[step];
    return events.flatMap(({ code, description }) => {
      const at = new Date().toISOString();
      parcel.events.push({ code, at });
      const where =
        step === "handed_in"
          ? `${parcel.consignor.postalName}`
          : parcel.servicePoint
            ? `${parcel.servicePoint.servicePointName}, ${parcel.servicePoint.visitingAddress.postalName}`
            : parcel.consignee.postalName;
      const body = JSON.stringify({
        eventId: randomUUID(),
        shopId: this.options.shopId,
        shipmentNumber: parcel.shipmentNumber,
        trackingNumber: parcel.trackingNumber,
        eventTimeUtc: at,
        eventType: { apiKey: code, description },
        locationContext: where,
      });
      return this.options.hooks
        .filter((h) => h.events.includes("*") || h.events.includes(code))
        .map((h) => this.options.dispatcher.send(h, code, parcel.shipmentNumber, body));
    });
  }

  parcelList(): HelthjemParcel[] {
    return [...this.parcels.values()];
  }

  testerParcels(): TesterParcel[] {
    return this.parcelList().map((p) => ({
      carrier: "helthjem",
      number: p.shipmentNumber,
      code: p.dropOffCode,
      service: p.servicePoint ? `Helthjem hentested (${p.transportSolutionId})` : `Helthjem i postkassen (${p.transportSolutionId})`,
      size: `${p.item.length} × ${p.item.width} × ${p.item.height} cm, ${p.item.weight / 1000} kg`,
      from: `${p.consignor.name} (${p.consignor.zipCode} ${p.consignor.postalName})`,
      to: `${p.consignee.name}: ${
        p.servicePoint
          ? `${p.servicePoint.servicePointName}, ${p.servicePoint.visitingAddress.streetName} ${p.servicePoint.visitingAddress.streetNumber}, ${p.servicePoint.visitingAddress.postalCode} ${p.servicePoint.visitingAddress.postalName}`
          : `${p.consignee.address}, ${p.consignee.zipCode} ${p.consignee.postalName}`
      }`,
      status: p.status,
      createdAt: p.createdAt,
      events: p.events.map((e) => e.code),
      moves: movesAhead(p, this.stepsFor(p)),
    }));
  }

  snapshot(): HelthjemState {
    return { parcels: this.parcelList() };
  }

  restore(state: unknown): void {
    for (const p of (state as HelthjemState | undefined)?.parcels ?? []) this.parcels.set(p.shipmentNumber, p);
  }
}

/** "HH-1234-5678": the sandbox's C2C code, written on the parcel instead of a label. */
function dropOffCode(): string {
  const digits = () => String(randomInt(10_000)).padStart(4, "0");
  return `HH-${digits()}-${digits()}`;
}
