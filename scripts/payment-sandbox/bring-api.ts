// Bring's C2C parcels as the sandbox plays them (docs/decisions/147-carrier-api-and-sandbox.md):
// the Pickup Point API (places near a postal code), the Shipping Guide (prices and lead times,
// bring-guide.ts), the Booking API (services 5900/5901/5902 with a
// size VAS; VAS 1288 gives the label-free code the seller writes on the parcel), a cancellation,
// and Event Cast webhooks as a tester moves a parcel on (carrier-pages.ts, /__sandbox/bring/...).
//
// Authentication as Bring's APIs: X-MyBring-API-Uid and X-MyBring-API-Key. Bring documents no
// idempotency header; the sandbox honours Idempotency-Key (the Worker always sends one) and the
// decision says what that means against the real Bring.
import { randomInt, randomUUID } from "node:crypto";
import { shippingGuide } from "./bring-guide";
import { pickupPointById, pickupPointKind, pickupPointsNear, POSTAL_CODE_RE, type BringPickupPoint } from "./bring-places";
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
import { TESTER_PATH } from "./carrier-pages";
import { header, json, type Reply, type SandboxRequest } from "./http";
import type { Delivery, WebhookDispatcher, WebhookEndpoint } from "./webhooks";

/** Bring's C2C services and the size VAS each takes (developer.bring.com, "C2C platforms"). */
export const C2C_SIZES: Record<string, string[]> = {
  "5900": ["2528", "2529"],
  "5901": ["2528", "2529", "1377"],
  "5902": ["2528", "2529", "1377", "1378"],
};
const LABEL_FREE_VAS = "1288";
const PHONE_RE = /^(\+47)?[49]\d{7}$/;

/** The Event Cast code each of the tester's steps sends. */
const STEP_EVENTS: Record<TrackedStep, { code: string; description: string }> = {
  handed_in: { code: "HANDED_IN", description: "Sendingen er innlevert" },
  in_transit: { code: "IN_TRANSIT", description: "Sendingen er underveis" },
  ready_for_pickup: { code: "READY_FOR_PICKUP", description: "Sendingen er klar for henting" },
  delivered: { code: "DELIVERED", description: "Sendingen er utlevert" },
};

export interface BringParty {
  name: string;
  addressLine: string;
  postalCode: string;
  city: string;
  countryCode: string;
  contact?: { name?: string; email?: string | null; phoneNumber?: string | null };
}

export interface Parcel {
  consignmentNumber: string;
  packageNumber: string;
  labelFreeCode: string | null;
  correlationId: string | null;
  service: string;
  sizeVas: string;
  sender: BringParty;
  recipient: BringParty;
  pickupPoint: BringPickupPoint | null;
  status: ParcelStatus;
  createdAt: string;
  events: Array<{ code: string; at: string }>;
}

export interface BringSandboxOptions {
  apiUid: string;
  apiKey: string;
  customerNumber: string;
  publicUrl: string;
  dispatcher: WebhookDispatcher;
  hooks: WebhookEndpoint[];
}

export interface BringState {
  parcels: Parcel[];
}

/** A Bring-style error: `{ code, messages: [{ lang, message }] }` in a consignment's `errors`. */
class BookingError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const SERVICE_LABELS: Record<string, string> = {
  "5900": "Pakke i postkassen (5900)",
  "5901": "Pakke til pakkeboks (5901)",
  "5902": "Pakke til hentested (5902)",
};

const SIZE_LABELS: Record<string, string> = { "2528": "Liten", "2529": "Medium", "1377": "Stor", "1378": "Ekstra stor" };

export class BringSandbox implements SandboxCarrier {
  readonly carrier = "bring" as const;
  readonly parcels = new Map<string, Parcel>();
  private readonly calls = new CarrierCalls();
  readonly requests = this.calls.requests;

  constructor(private readonly options: BringSandboxOptions) {}

  handle(req: SandboxRequest): Reply | null {
    const path = req.url.pathname;
    if (!path.startsWith("/pickuppoint/api/") && !path.startsWith("/booking/api/") && !path.startsWith("/shippingguide/")) return null;
    const idempotencyKey = header(req, "idempotency-key") ?? null;
    const failure = this.calls.record(req, idempotencyKey);
    if (failure !== null) return json(failure, { errors: [error(`HTTP-${failure}`, "The service is temporarily unavailable.")] });
    if (header(req, "x-mybring-api-uid") !== this.options.apiUid || header(req, "x-mybring-api-key") !== this.options.apiKey)
      return json(401, { errors: [error("AUTHENTICATION_FAILED", "Invalid X-MyBring-API-Uid or X-MyBring-API-Key.")] });

    let m: RegExpExecArray | null;
    if (req.method === "GET" && (m = /^\/pickuppoint\/api\/pickuppoint\/([A-Z]{2})\/postalCode\/([^/.]+)\.json$/.exec(path)))
      return this.pickupPoints(m[1], m[2], req.url.searchParams);
    if (req.method === "POST" && path === "/shippingguide/v2/products") return shippingGuide(req.body);
    if (req.method === "POST" && path === "/booking/api/create")
      return this.idempotent(idempotencyKey, `create ${req.body}`, () => this.book(req.body));
    if (req.method === "DELETE" && (m = /^\/booking\/api\/consignments\/([^/]+)$/.exec(path)))
      return this.idempotent(idempotencyKey, `cancel ${m[1]}`, () => this.cancel(decodeURIComponent(m![1])));
    return json(404, { errors: [error("NOT_FOUND", `No route for ${req.method} ${path}.`)] });
  }

  failNext(times: number, status: number, scope: FailureScope = {}): void {
    this.calls.failNext(times, status, scope);
  }

  clearFailures(scope: FailureScope = {}): void {
    this.calls.clearFailures(scope);
  }

  // ---------------------------------------------------------------- Pickup Point API

  private pickupPoints(country: string, postalCode: string, params: URLSearchParams): Reply {
    if (country !== "NO") return json(400, { errors: [error("PICKUP-INPUT-001", "Only NO is available in the sandbox.")] });
    if (!POSTAL_CODE_RE.test(postalCode)) return json(400, { errors: [error("PICKUP-INPUT-002", `Invalid postal code: ${postalCode}`)] });
    const type = params.get("pickupPointType")?.toLowerCase();
    const limit = Math.min(Math.max(Number(params.get("numberOfResponses") ?? 10) || 10, 1), 12);
    const points = pickupPointsNear(postalCode).filter(
      (p) => !type || (type === "locker" ? pickupPointKind(p) === "locker" : pickupPointKind(p) === "manned"),
    );
    return json(200, { pickupPoint: points.slice(0, limit) });
  }

  // ---------------------------------------------------------------- Booking API

  private book(body: string): Reply {
    let correlationId: string | null = null;
    try {
      const request = parse(body);
      const consignment = request.consignments[0];
      correlationId = typeof consignment.correlationId === "string" ? consignment.correlationId : null;
      const parcel = this.validate(consignment);
      parcel.correlationId = correlationId;
      this.parcels.set(parcel.consignmentNumber, parcel);
      return json(200, { consignments: [{ correlationId, confirmation: confirmation(parcel, this.options.publicUrl), errors: null }] });
    } catch (e) {
      if (!(e instanceof BookingError)) throw e;
      return json(e.status, { consignments: [{ correlationId, confirmation: null, errors: [error(e.code, e.message)] }] });
    }
  }

  private validate(c: Record<string, unknown>): Parcel {
    const product = (c.product ?? {}) as { id?: unknown; customerNumber?: unknown; additionalServices?: unknown };
    const service = String(product.id ?? "");
    const sizes = C2C_SIZES[service];
    if (!sizes) throw new BookingError(400, "BOOK-INPUT-002", `Product ${service || "(none)"} is not a C2C service.`);
    if (product.customerNumber !== this.options.customerNumber)
      throw new BookingError(400, "BOOK-INPUT-003", "The customer number is not valid for this API user.");
    const vas = Array.isArray(product.additionalServices)
      ? product.additionalServices.map((s) => String((s as { id?: unknown })?.id ?? ""))
      : [];
    const size = vas.filter((id) => C2C_SIZES["5902"].includes(id));
    if (size.length !== 1 || !sizes.includes(size[0]))
      throw new BookingError(400, "BOOK-INPUT-004", `Service ${service} needs exactly one size VAS of ${sizes.join(", ")}.`);
    const parties = (c.parties ?? {}) as Record<string, unknown>;
    const sender = party(parties.sender, "sender", "BOOK-INPUT-005");
    const recipient = party(parties.recipient, "recipient", "BOOK-INPUT-006");
    if (!PHONE_RE.test((recipient.contact?.phoneNumber ?? "").replace(/\s/g, "")))
      throw new BookingError(400, "BOOK-INPUT-007", "recipient.contact.phoneNumber must be a Norwegian mobile number.");
    const pickupPoint = this.pickupPointFor(service, parties.pickupPoint);
    const serial = this.freshSerial();
    return {
      consignmentNumber: `70438101${serial}`,
      packageNumber: `370724${serial}123`,
      labelFreeCode: vas.includes(LABEL_FREE_VAS) ? labelFreeCode() : null,
      correlationId: null,
      service,
      sizeVas: size[0],
      sender,
      recipient,
      pickupPoint,
      status: "booked",
      createdAt: new Date().toISOString(),
      events: [],
    };
  }

  /** Nine random digits no parcel of this sandbox has yet (Bring's numbers are 17 and 18 digits). */
  private freshSerial(): string {
    for (;;) {
      const serial = String(randomInt(1_000_000_000)).padStart(9, "0");
      if (!this.parcels.has(`70438101${serial}`)) return serial;
    }
  }

  /** 5901 needs a locker from the Pickup Point API; 5902 may name a manned point; 5900 none. */
  private pickupPointFor(service: string, raw: unknown): BringPickupPoint | null {
    const id = raw && typeof raw === "object" ? String((raw as { id?: unknown }).id ?? "") : "";
    if (service === "5900") return null;
    if (!id) {
      if (service === "5901") throw new BookingError(400, "BOOK-INPUT-008", "Service 5901 requires parties.pickupPoint.id (a locker).");
      return null;
    }
    const point = pickupPointById(id);
    const wanted = service === "5901" ? "locker" : "manned";
    if (!point || pickupPointKind(point) !== wanted)
      throw new BookingError(400, "BOOK-INPUT-008", `Pickup point ${id} is not a ${wanted} pickup point.`);
    return point;
  }

  /** Not in Bring's public documentation (decision 147): DELETE before the parcel is handed in. */
  private cancel(consignmentNumber: string): Reply {
    const parcel = this.parcels.get(consignmentNumber);
    if (!parcel) return json(404, { errors: [error("BOOK-CANCEL-001", `No consignment ${consignmentNumber}.`)] });
    if (parcel.status !== "booked" && parcel.status !== "cancelled")
      return json(409, { errors: [error("BOOK-CANCEL-002", "The consignment has been handed in and cannot be cancelled.")] });
    parcel.status = "cancelled";
    return json(200, { consignmentNumber, status: "CANCELLED" });
  }

  private idempotent(key: string | null, fingerprint: string, run: () => Reply): Reply {
    return this.calls.idempotent(key, fingerprint, run, () =>
      json(422, { errors: [error("IDEMPOTENCY-001", "Idempotency-Key was used with a different request.")] }),
    );
  }

  // ---------------------------------------------------------------- the tester's moves

  /** The steps this parcel's service goes through (a mailbox parcel is never ready for pickup). */
  stepsFor(parcel: Parcel): TrackedStep[] {
    return routeFor(parcel.service !== "5900");
  }

  /** Moves the parcel on, sending the Event Cast webhook of every step on the way. */
  advance(consignmentNumber: string, step: ParcelStep): { parcel: Parcel; deliveries: Delivery[] } | { error: string } {
    const parcel = this.parcels.get(consignmentNumber);
    return advanceParcel(parcel, consignmentNumber, parcel ? this.stepsFor(parcel) : [], step, (p, s) => this.emit(p, s));
  }

  parcelList(): Parcel[] {
    return [...this.parcels.values()];
  }

  testerParcels(): TesterParcel[] {
    return this.parcelList().map((p) => ({
      carrier: "bring",
      number: p.consignmentNumber,
      code: p.labelFreeCode,
      service: SERVICE_LABELS[p.service] ?? p.service,
      size: `${SIZE_LABELS[p.sizeVas] ?? p.sizeVas} pakke`,
      from: `${p.sender.name} (${p.sender.postalCode} ${p.sender.city})`,
      to: `${p.recipient.name}: ${
        p.pickupPoint
          ? `${p.pickupPoint.name}, ${p.pickupPoint.address}, ${p.pickupPoint.postalCode} ${p.pickupPoint.city}`
          : `${p.recipient.addressLine}, ${p.recipient.postalCode} ${p.recipient.city}`
      }`,
      status: p.status,
      createdAt: p.createdAt,
      events: p.events.map((e) => e.code),
      moves: movesAhead(p, this.stepsFor(p)),
    }));
  }

  private emit(parcel: Parcel, step: TrackedStep): Delivery[] {
    const { code, description } = STEP_EVENTS[step];
    const at = new Date().toISOString();
    parcel.events.push({ code, at });
    const where = step === "handed_in" ? parcel.sender : (parcel.pickupPoint ?? parcel.recipient);
    const body = JSON.stringify({
      eventId: randomUUID(),
      trackingId: parcel.consignmentNumber,
      consignmentNumber: parcel.consignmentNumber,
      packageNumber: parcel.packageNumber,
      customerNumber: this.options.customerNumber,
      eventGroup: code,
      status: code,
      description,
      dateIso: at,
      postalCode: where.postalCode,
      city: where.city,
      countryCode: "NO",
    });
    return this.options.hooks
      .filter((h) => h.events.includes("*") || h.events.includes(code))
      .map((h) => this.options.dispatcher.send(h, code, parcel.consignmentNumber, body));
  }

  snapshot(): BringState {
    return { parcels: [...this.parcels.values()] };
  }

  restore(state: unknown): void {
    for (const p of (state as BringState | undefined)?.parcels ?? []) this.parcels.set(p.consignmentNumber, p);
  }
}

function error(code: string, message: string) {
  return { uniqueId: randomUUID(), code, messages: [{ lang: "en", message }] };
}

function parse(body: string): { consignments: Array<Record<string, unknown>> } {
  let request: unknown;
  try {
    request = JSON.parse(body);
  } catch {
    throw new BookingError(400, "BOOK-INPUT-001", "The request body is not valid JSON.");
  }
  const r = request as { schemaVersion?: unknown; consignments?: unknown } | null;
  if (r?.schemaVersion !== 1 || !Array.isArray(r.consignments) || r.consignments.length !== 1 || typeof r.consignments[0] !== "object")
    throw new BookingError(400, "BOOK-INPUT-001", "Expected schemaVersion 1 and exactly one consignment.");
  return r as { consignments: Array<Record<string, unknown>> };
}

function party(raw: unknown, name: string, code: string): BringParty {
  const p = (raw ?? {}) as Record<string, unknown>;
  for (const field of ["name", "addressLine", "postalCode", "city"] as const)
    if (typeof p[field] !== "string" || !(p[field] as string).trim()) throw new BookingError(400, code, `${name}.${field} is required.`);
  if (!POSTAL_CODE_RE.test(p.postalCode as string)) throw new BookingError(400, code, `${name}.postalCode is not a Norwegian postal code.`);
  if (p.countryCode !== "NO") throw new BookingError(400, code, `${name}.countryCode must be NO for C2C services.`);
  return p as unknown as BringParty;
}

/** "BRING-1234-5678", the format of Bring's label-free code (developer.bring.com, labels). */
function labelFreeCode(): string {
  const digits = () => String(randomInt(10_000)).padStart(4, "0");
  return `BRING-${digits()}-${digits()}`;
}

function confirmation(parcel: Parcel, publicUrl: string) {
  const expected = new Date(Date.now() + 5 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  return {
    consignmentNumber: parcel.consignmentNumber,
    productSpecificData: null,
    links: {
      labels: `${publicUrl}${TESTER_PATH}#p${parcel.consignmentNumber}`,
      tracking: `https://sporing.bring.no/sporing/${parcel.consignmentNumber}`,
    },
    dateAndTimes: { earliestPickup: null, expectedDelivery: expected },
    packages: [{ correlationId: null, packageNumber: parcel.packageNumber, labelFreeCode: parcel.labelFreeCode }],
  };
}
