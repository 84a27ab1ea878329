// A small client for Helthjem's parcels (docs/decisions/154-helthjem-carrier.md): a bearer token from
// the client id and secret, Helthjem's service points near a postal code, booking a C2C parcel with
// the code the seller writes on it, and cancelling a booking. The base URL comes from configuration:
// the same code talks to Helthjem and to the local sandbox (scripts/payment-sandbox/helthjem-api.ts).
//
// Like Bring's client (carrier-client.ts, whose result types and retrying call it shares) every call
// answers with a result, never a throw: `unavailable` is kept and repeated later with the same
// idempotency key, `refused` carries the seller's Norwegian message.
import { PARCEL_SIZE_LIMITS, shippingOffer } from "../../../domain/carriers";
import {
  type Booking,
  type BookingRequest,
  type CarrierHttp,
  type CarrierResult,
  carrierCall,
  DEFAULT_RETRY,
  type Fetch,
  type Party,
  type PickupPoint,
  type RetryPolicy,
  refusedHere,
  unexpected,
} from "./carrier-client";
import type { HelthjemConfig } from "./carrier-config";

/**
 * The transport solutions parcels are booked with: home delivery (the mailbox or doormat) and
 * Helthjem's service points. The ids Helthjem's public clients use for "home only" and "service
 * points"; the agreement gives the real ones, and this is the one place to change them.
 */
export const HELTHJEM_TRANSPORT_SOLUTIONS = { mailbox: 2, pickup_point: 86 } as const;

/** A token is asked for again this long before Helthjem says it runs out. */
const TOKEN_MARGIN_MS = 60_000;

const DAY_NAMES: Record<string, string> = {
  MONDAY: "Man",
  TUESDAY: "Tir",
  WEDNESDAY: "Ons",
  THURSDAY: "Tor",
  FRIDAY: "Fre",
  SATURDAY: "Lør",
  SUNDAY: "Søn",
};

export class HelthjemClient {
  private token: { value: string; until: number } | null = null;
  private readonly http: CarrierHttp;

  constructor(
    private readonly config: HelthjemConfig,
    retry: RetryPolicy = DEFAULT_RETRY,
    fetchImpl: Fetch = (input, init) => fetch(input, init),
    sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {
    this.http = { retry, fetchImpl, sleep };
  }

  /** Helthjem's service points near the postal code, nearest first (all manned: Helthjem has no lockers here). */
  async servicePoints(postalCode: string): Promise<CarrierResult<PickupPoint[]>> {
    if (!/^\d{4}$/.test(postalCode)) return refusedHere("postal_code", "LOCAL-POSTAL-CODE", "helthjem");
    const result = await this.call("POST", "/parcels/v1/service-points/nearby", {
      shopId: this.config.shopId,
      transportSolutionId: HELTHJEM_TRANSPORT_SOLUTIONS.pickup_point,
      countryCode: "NO",
      zipCode: postalCode,
    });
    if (!result.ok) return result;
    const products = (result.value as { freightProducts?: Array<{ servicePoints?: unknown[] }> } | null)?.freightProducts;
    if (!Array.isArray(products)) return unexpected(result.attempts, "freightProducts missing");
    const seen = new Set<string>();
    const points = products
      .flatMap((p) => (Array.isArray(p.servicePoints) ? p.servicePoints : []))
      .map(toPickupPoint)
      .filter((p) => !seen.has(p.id) && seen.add(p.id));
    return { ok: true, attempts: result.attempts, value: points };
  }

  /**
   * Books one parcel with a drop-off code instead of a label. The idempotency key must be the same on
   * every try for the same parcel, and so must the request: nothing in it depends on the call's time.
   */
  async book(request: BookingRequest, idempotencyKey: string): Promise<CarrierResult<Booking>> {
    if (request.method === "parcel_locker" || !shippingOffer("helthjem", request.method, request.size))
      return refusedHere("offer", "LOCAL-NOT-OFFERED", "helthjem");
    if (request.method === "pickup_point" && !request.pickupPointId)
      return refusedHere("pickup_point", "LOCAL-NO-PICKUP-POINT", "helthjem");
    const limits = PARCEL_SIZE_LIMITS[request.size];
    const body = {
      shopId: this.config.shopId,
      transportSolutionId: HELTHJEM_TRANSPORT_SOLUTIONS[request.method],
      shipmentId: null,
      withDropOffCode: true,
      parties: [
        party("consignee", request.recipient, request.reference),
        party("consignor", request.sender, request.reference),
        ...(request.method === "pickup_point" ? [{ type: "servicePoint", id: request.pickupPointId, countryCode: "NO" }] : []),
      ],
      // The seller promises the parcel fits the size: its limits are what Helthjem is told.
      items: [
        {
          itemNumber: 1,
          trackingReference: request.reference,
          weight: limits.weightKg * 1000,
          length: limits.lengthCm,
          width: limits.widthCm,
          height: limits.heightCm,
          contents: "Leker",
        },
      ],
    };
    const result = await this.call("POST", "/parcels/v1/bookings", body, idempotencyKey);
    if (!result.ok) return result;
    const answer = result.value as { shipmentId?: string; trackingNumbers?: string[]; dropOffCode?: string | null } | null;
    // "(401)70724760…": the GS1 prefix is not part of the number tracking and cancelling use.
    const shipmentNumber = answer?.shipmentId?.replace(/^\(\d+\)/, "");
    if (!shipmentNumber || !answer?.dropOffCode) return unexpected(result.attempts, "booking without shipment id or drop-off code");
    return {
      ok: true,
      attempts: result.attempts,
      value: {
        consignmentNumber: shipmentNumber,
        packageNumber: answer.trackingNumbers?.[0] ?? shipmentNumber,
        dropOffCode: answer.dropOffCode,
        trackingUrl: null,
        expectedDelivery: null,
      },
    };
  }

  /** Cancels a booking not yet handed in; cancelling one already cancelled succeeds again. */
  async cancel(shipmentNumber: string, idempotencyKey: string): Promise<CarrierResult<{ consignmentNumber: string }>> {
    const result = await this.call("DELETE", `/parcels/v1/bookings/${encodeURIComponent(shipmentNumber)}`, undefined, idempotencyKey);
    return result.ok ? { ok: true, attempts: result.attempts, value: { consignmentNumber: shipmentNumber } } : result;
  }

  /** A call with the bearer token; a token Helthjem no longer takes (401) is asked for anew, once. */
  private async call(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<CarrierResult<unknown>> {
    for (let fresh = 0; ; fresh++) {
      const token = await this.bearer();
      if (!token.ok) return token;
      const headers: Record<string, string> = { Authorization: `Bearer ${token.value}`, Accept: "application/json" };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
      const result = await carrierCall(
        this.http,
        `${this.config.baseUrl}${path}`,
        { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
        errorKey,
        "helthjem",
      );
      if (result.ok || result.kind !== "refused" || result.status !== 401 || fresh > 0) return result;
      this.token = null;
    }
  }

  /** The bearer token, kept for this client's calls until a minute before it runs out. */
  private async bearer(): Promise<CarrierResult<string>> {
    if (this.token && this.token.until > Date.now()) return { ok: true, attempts: 0, value: this.token.value };
    const result = await carrierCall(
      this.http,
      `${this.config.baseUrl}/auth/oauth2/v1/token`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          client_id: this.config.clientId,
          client_secret: this.config.clientSecret,
          grant_type: "client_credentials",
        }),
      },
      errorKey,
      "helthjem",
    );
    if (!result.ok) return result;
    const answer = result.value as { token?: string; expires_in?: number } | null;
    if (!answer?.token) return unexpected(result.attempts, "token answer without a token");
    const lifetimeMs = (Number(answer.expires_in) || 3_600) * 1000;
    this.token = { value: answer.token, until: Date.now() + lifetimeMs - TOKEN_MARGIN_MS };
    return { ok: true, attempts: result.attempts, value: answer.token };
  }
}

function party(type: "consignee" | "consignor", p: Party, reference: string) {
  return {
    type,
    name: p.name,
    address: p.addressLine,
    zipCode: p.postalCode,
    postalName: p.city,
    countryCode: "NO",
    phone1: p.phoneNumber,
    email: p.email ?? null,
    reference,
  };
}

function toPickupPoint(raw: unknown): PickupPoint {
  const p = raw as {
    servicePointExternalId?: string;
    servicePointName?: string;
    visitingAddress?: { streetName?: string; streetNumber?: string; postalCode?: string; postalName?: string };
    openingHours?: Array<{ day?: string; from1?: string; to1?: string }>;
    coordinates?: { latitude?: number; longitude?: number };
    distanceInMeters?: number;
  };
  const a = p.visitingAddress ?? {};
  return {
    id: String(p.servicePointExternalId ?? ""),
    name: String(p.servicePointName ?? ""),
    kind: "manned",
    address: [a.streetName, a.streetNumber].filter(Boolean).join(" "),
    postalCode: String(a.postalCode ?? ""),
    city: String(a.postalName ?? ""),
    openingHours: openingHours(p.openingHours ?? []),
    distanceKm: Math.round(Number(p.distanceInMeters ?? 0) / 100) / 10,
    latitude: Number(p.coordinates?.latitude ?? 0),
    longitude: Number(p.coordinates?.longitude ?? 0),
  };
}

/** "Man-Fre: 0800-2200, Lør: 0800-1800", as Bring writes its opening hours: days in a row with the same hours together. */
function openingHours(days: Array<{ day?: string; from1?: string; to1?: string }>): string {
  const runs: Array<{ first: string; last: string; hours: string }> = [];
  for (const d of days) {
    const name = DAY_NAMES[d.day ?? ""];
    if (!name || !d.from1 || !d.to1) continue;
    const hours = `${d.from1}-${d.to1}`;
    const run = runs.at(-1);
    if (run && run.hours === hours) run.last = name;
    else runs.push({ first: name, last: name, hours });
  }
  return runs.map((r) => `${r.first === r.last ? r.first : `${r.first}-${r.last}`}: ${r.hours}`).join(", ");
}

/** Helthjem's errors carry an `errorKey` (e.g. no.carrier.support). */
function errorKey(text: string): string | null {
  try {
    const key = (JSON.parse(text) as { errorKey?: unknown }).errorKey;
    return typeof key === "string" ? key : null;
  } catch {
    return null;
  }
}
