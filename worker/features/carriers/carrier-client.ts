// A small client for Bring's C2C parcels (decision 147): pickup points near a postal code (Pickup
// Point API), prices and lead times (Shipping Guide), booking with a size and a label-free code (Booking API), and cancelling a booking.
// Its own client because the base URL comes from configuration: the same code talks to Bring and
// to the local sandbox (scripts/payment-sandbox/bring-api.ts).
//
// Every call answers with a result, never a throw: the caller keeps an `unavailable` one (network,
// 5xx, 429 after a few quick retries) and tries again later with the same idempotency key (the cron
// will), and shows a `refused` one's Norwegian message to the seller. The result types and the
// retrying call (`carrierCall`) serve Helthjem's client too (helthjem-client.ts).
import {
  type Carrier,
  DELIVERY_METHODS,
  type DeliveryMethod,
  type ParcelSize,
  SHIPPING_OFFERS,
  shippingOffer,
} from "../../../domain/carriers";
import type { BringConfig } from "./carrier-config";
import { carrierRefusal, type RefusalField } from "./carrier-refusals";

/** Bring's size VAS for each of our sizes (developer.bring.com, "C2C platforms"). */
export const SIZE_VAS: Record<ParcelSize, string> = { small: "2528", medium: "2529", large: "1377" };
/** VAS 1288: a label-free code the seller writes on the parcel instead of printing a label. */
export const LABEL_FREE_VAS = "1288";

export interface RetryPolicy {
  /** Attempts within one call, the first included. */
  attempts: number;
  /** Wait before the second attempt; doubles for each further one, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Per attempt. */
  timeoutMs: number;
}

/** Three attempts within about a second: a booking is made while the buyer's request waits. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 250, maxDelayMs: 2_000, timeoutMs: 10_000 };

export type Unavailable = { ok: false; kind: "unavailable"; attempts: number; status: number | null; detail: string };
export type Refused = {
  ok: false;
  kind: "refused";
  status: number;
  /** The carrier's error code (or LOCAL-… when we refused before calling). */
  code: string;
  field: RefusalField;
  /** What the seller should do, in Norwegian. */
  message: string;
  detail: string;
};
export type CarrierResult<T> = { ok: true; value: T; attempts: number } | Unavailable | Refused;

export interface PickupPoint {
  id: string;
  name: string;
  kind: "manned" | "locker";
  address: string;
  postalCode: string;
  city: string;
  openingHours: string;
  distanceKm: number;
  latitude: number;
  longitude: number;
}

/** Bring's price and lead time for one service (Shipping Guide). */
export interface CarrierPrice {
  method: DeliveryMethod;
  service: string;
  /** With VAT, in øre. */
  priceOre: number;
  workingDays: number;
}

export interface Party {
  name: string;
  addressLine: string;
  postalCode: string;
  city: string;
  /** Required for the recipient (the carrier's SMS notices); the sender's when known. */
  phoneNumber: string | null;
  email?: string | null;
}

export interface BookingRequest {
  method: DeliveryMethod;
  size: ParcelSize;
  sender: Party;
  recipient: Party;
  /** A locker for parcel_locker (required), a manned point for pickup_point (optional). */
  pickupPointId: string | null;
  /** Ours, e.g. the order id: Bring echoes it and shows it on the consignment. */
  reference: string;
  /**
   * Bring's shippingDateTime (ISO, seconds). Give the same on every try with one idempotency key:
   * a repeat must be the same request to be answered with the first booking. Default: now.
   */
  shippingDateTime?: string;
}

export interface Booking {
  consignmentNumber: string;
  packageNumber: string;
  /** What the seller writes on the parcel: "Sendekode: {kode}". */
  dropOffCode: string;
  trackingUrl: string | null;
  expectedDelivery: string | null;
}

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export class BringClient {
  constructor(
    private readonly config: BringConfig,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    private readonly fetchImpl: Fetch = (input, init) => fetch(input, init),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Places near the postal code, nearest first; `locker` for parcel lockers, `manned` for the rest. */
  async pickupPoints(postalCode: string, kind?: "manned" | "locker"): Promise<CarrierResult<PickupPoint[]>> {
    if (!/^\d{4}$/.test(postalCode)) return refusedHere("postal_code", "LOCAL-POSTAL-CODE");
    const query = kind ? `?pickupPointType=${kind === "locker" ? "Locker" : "Manned"}` : "";
    const result = await this.call("GET", `/pickuppoint/api/pickuppoint/NO/postalCode/${postalCode}.json${query}`);
    if (!result.ok) return result;
    const points = (result.value as { pickupPoint?: unknown[] } | null)?.pickupPoint;
    if (!Array.isArray(points)) return unexpected(result.attempts, "pickupPoint list missing");
    return { ok: true, attempts: result.attempts, value: points.map(toPickupPoint) };
  }

  /** What Bring charges for each of its C2C methods that takes this size, between two postal codes. */
  async prices(fromPostalCode: string, toPostalCode: string, size: ParcelSize): Promise<CarrierResult<CarrierPrice[]>> {
    if (!/^\d{4}$/.test(fromPostalCode) || !/^\d{4}$/.test(toPostalCode)) return refusedHere("postal_code", "LOCAL-POSTAL-CODE");
    const methods = DELIVERY_METHODS.filter((m) => SHIPPING_OFFERS.bring[m]);
    const services = methods.map((m) => SHIPPING_OFFERS.bring[m]?.service as string);
    const result = await this.call("POST", "/shippingguide/v2/products", {
      consignments: [
        {
          id: "1",
          fromCountryCode: "NO",
          fromPostalCode,
          toCountryCode: "NO",
          toPostalCode,
          products: services.map((id) => ({
            id,
            customerNumber: this.config.customerNumber,
            additionalServices: [{ id: SIZE_VAS[size] }],
          })),
        },
      ],
      withPrice: true,
      withExpectedDelivery: true,
    });
    if (!result.ok) return result;
    const products = (result.value as { consignments?: Array<{ products?: GuideProduct[] }> } | null)?.consignments?.[0]?.products;
    if (!Array.isArray(products)) return unexpected(result.attempts, "shipping guide without products");
    const prices = products.flatMap((p): CarrierPrice[] => {
      const amount = p.price?.listPrice?.priceWithAdditionalServices?.amountWithVAT;
      const method = methods[services.indexOf(String(p.id))];
      if (p.errors?.length || !method || amount === undefined) return [];
      return [
        { method, service: String(p.id), priceOre: Math.round(Number(amount) * 100), workingDays: Number(p.expectedDelivery?.workingDays) },
      ];
    });
    return { ok: true, attempts: result.attempts, value: prices };
  }

  /**
   * Books one parcel. The idempotency key must be the same on every try for the same parcel (e.g.
   * `book:{order id}`), so a retry after a lost answer returns the parcel already booked.
   */
  async book(request: BookingRequest, idempotencyKey: string): Promise<CarrierResult<Booking>> {
    const offer = shippingOffer("bring", request.method, request.size);
    if (!offer) return refusedHere("offer", "LOCAL-NOT-OFFERED");
    if (request.method === "parcel_locker" && !request.pickupPointId) return refusedHere("pickup_point", "LOCAL-NO-LOCKER");
    const body = {
      schemaVersion: 1,
      consignments: [
        {
          shippingDateTime: (request.shippingDateTime ?? new Date().toISOString()).slice(0, 19),
          correlationId: request.reference,
          product: {
            id: offer.service,
            customerNumber: this.config.customerNumber,
            additionalServices: [{ id: SIZE_VAS[request.size] }, { id: LABEL_FREE_VAS }],
          },
          parties: {
            sender: party(request.sender, request.reference),
            recipient: party(request.recipient, null),
            pickupPoint: request.method === "mailbox" || !request.pickupPointId ? null : { id: request.pickupPointId, countryCode: "NO" },
          },
          packages: [{ correlationId: request.reference, weightInKg: null, dimensions: null }],
        },
      ],
    };
    const result = await this.call("POST", "/booking/api/create", body, idempotencyKey);
    if (!result.ok) return result;
    const confirmation = (result.value as { consignments?: Array<{ confirmation?: BringConfirmation | null }> } | null)?.consignments?.[0]
      ?.confirmation;
    const pkg = confirmation?.packages?.[0];
    if (!confirmation?.consignmentNumber || !pkg?.packageNumber || !pkg.labelFreeCode)
      return unexpected(result.attempts, "booking confirmation without consignment number or label-free code");
    return {
      ok: true,
      attempts: result.attempts,
      value: {
        consignmentNumber: confirmation.consignmentNumber,
        packageNumber: pkg.packageNumber,
        dropOffCode: pkg.labelFreeCode,
        trackingUrl: confirmation.links?.tracking ?? null,
        expectedDelivery: confirmation.dateAndTimes?.expectedDelivery ?? null,
      },
    };
  }

  /** Cancels a booking not yet handed in; cancelling one already cancelled succeeds again. */
  async cancel(consignmentNumber: string, idempotencyKey: string): Promise<CarrierResult<{ consignmentNumber: string }>> {
    const result = await this.call(
      "DELETE",
      `/booking/api/consignments/${encodeURIComponent(consignmentNumber)}`,
      undefined,
      idempotencyKey,
    );
    return result.ok ? { ok: true, attempts: result.attempts, value: { consignmentNumber } } : result;
  }

  /** One request to Bring, retried on network errors, 5xx and 429 with a doubling wait, up to the bound. */
  private async call(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<CarrierResult<unknown>> {
    const headers: Record<string, string> = {
      "X-MyBring-API-Uid": this.config.apiUid,
      "X-MyBring-API-Key": this.config.apiKey,
      "X-Bring-Client-URL": "https://lekebytte.no",
      Accept: "application/json",
    };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    return carrierCall(
      { retry: this.retry, fetchImpl: this.fetchImpl, sleep: this.sleep },
      `${this.config.baseUrl}${path}`,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
      errorCode,
    );
  }
}

/** How a carrier client calls: its retry bound, and (for tests) its fetch and its wait. */
export interface CarrierHttp {
  retry: RetryPolicy;
  fetchImpl: Fetch;
  sleep: (ms: number) => Promise<void>;
}

/**
 * One request to a carrier, retried on network errors, timeouts, 5xx and 429 with a doubling wait
 * (429's Retry-After, capped), up to the bound; a 4xx is a refusal with the seller's message for the
 * code `errorCode` reads from its body, never retried.
 */
export async function carrierCall(
  http: CarrierHttp,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  errorCode: (text: string) => string | null,
  carrier: Carrier = "bring",
): Promise<CarrierResult<unknown>> {
  let last: Unavailable = { ok: false, kind: "unavailable", attempts: 0, status: null, detail: "not tried" };
  let retryAfterMs: number | null = null;
  for (let attempt = 1; attempt <= http.retry.attempts; attempt++) {
    if (attempt > 1) await http.sleep(Math.min(retryAfterMs ?? http.retry.baseDelayMs * 2 ** (attempt - 2), http.retry.maxDelayMs));
    retryAfterMs = null;
    let res: Response;
    try {
      res = await http.fetchImpl(url, { ...init, signal: AbortSignal.timeout(http.retry.timeoutMs) });
    } catch (error) {
      last = {
        ok: false,
        kind: "unavailable",
        attempts: attempt,
        status: null,
        detail: error instanceof Error ? error.message : String(error),
      };
      continue;
    }
    const text = await res.text();
    if (res.ok) {
      try {
        return { ok: true, attempts: attempt, value: text ? JSON.parse(text) : null };
      } catch {
        return unexpected(attempt, `HTTP ${res.status} with a body that is not JSON`);
      }
    }
    if (res.status >= 500 || res.status === 429) {
      last = { ok: false, kind: "unavailable", attempts: attempt, status: res.status, detail: summarise(text) };
      // 429 may say how long to wait (seconds); a longer wait than the bound is the cron's to make.
      const retryAfter = res.headers.get("Retry-After");
      if (retryAfter && /^\d+$/.test(retryAfter)) retryAfterMs = Number(retryAfter) * 1000;
      continue;
    }
    const code = errorCode(text) ?? `HTTP-${res.status}`;
    return { ...carrierRefusal(code, undefined, carrier), ok: false, kind: "refused", status: res.status, code, detail: summarise(text) };
  }
  return last;
}

interface GuideProduct {
  id?: string;
  errors?: unknown[];
  price?: { listPrice?: { priceWithAdditionalServices?: { amountWithVAT?: string } } };
  expectedDelivery?: { workingDays?: string };
}

interface BringConfirmation {
  consignmentNumber?: string;
  links?: { tracking?: string };
  dateAndTimes?: { expectedDelivery?: string | null };
  packages?: Array<{ packageNumber?: string; labelFreeCode?: string | null }>;
}

function party(p: Party, reference: string | null) {
  return {
    name: p.name,
    addressLine: p.addressLine,
    postalCode: p.postalCode,
    city: p.city,
    countryCode: "NO",
    reference,
    contact: { name: p.name, email: p.email ?? null, phoneNumber: p.phoneNumber },
  };
}

function toPickupPoint(raw: unknown): PickupPoint {
  const p = raw as Record<string, string | number | undefined>;
  return {
    id: String(p.id),
    name: String(p.name ?? ""),
    kind: String(p.type) === "37" ? "locker" : "manned",
    address: String(p.visitingAddress ?? p.address ?? ""),
    postalCode: String(p.visitingPostalCode ?? p.postalCode ?? ""),
    city: String(p.visitingCity ?? p.city ?? ""),
    openingHours: String(p.openingHoursNorwegian ?? ""),
    distanceKm: Number(p.distanceInKm ?? 0),
    latitude: Number(p.latitude ?? 0),
    longitude: Number(p.longitude ?? 0),
  };
}

/** Bring's errors: `consignments[0].errors[0].code` for a booking, `errors[0].code` otherwise. */
function errorCode(text: string): string | null {
  try {
    const body = JSON.parse(text) as { consignments?: Array<{ errors?: Array<{ code?: string }> }>; errors?: Array<{ code?: string }> };
    return body.consignments?.[0]?.errors?.[0]?.code ?? body.errors?.[0]?.code ?? null;
  } catch {
    return null;
  }
}

function summarise(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

export function refusedHere(field: RefusalField, code: string, carrier: Carrier = "bring"): Refused {
  return {
    ok: false,
    kind: "refused",
    status: 400,
    code,
    ...carrierRefusal(code, field, carrier),
    detail: "refused before calling the carrier",
  };
}

/** A 2xx whose body is not what the carrier documents: keep it and try later, like a 5xx. */
export function unexpected(attempts: number, detail: string): Unavailable {
  return { ok: false, kind: "unavailable", attempts, status: null, detail };
}
