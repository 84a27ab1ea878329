// Shipping test helpers (decision 145): a carrier that answers the way a real one does (the same
// booking for the same key, a refusal, no answer), a paid order with its parcel, and reading rows.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { Carrier } from "../../../domain/carriers";
import type { BookingResult, CancelResult, CarrierPort, ParcelBooking } from "../../../worker/features/shipping/carrier-port";
import type { ShipmentRow } from "../../../worker/features/shipping/shipment-moves";
import { BringCarrier, type Parties } from "../../../worker/features/shipping/bring-carrier";
import { BringClient, type RetryPolicy } from "../../../worker/features/carriers/carrier-client";
import { bringConfig, helthjemConfig } from "../../../worker/features/carriers/carrier-config";
import { HelthjemClient } from "../../../worker/features/carriers/helthjem-client";
import { HelthjemCarrier } from "../../../worker/features/shipping/helthjem-carrier";
import type { Carrier as CarrierName, DeliveryMethod, ParcelSize } from "../../../domain/carriers";
import { dropOffDeadline } from "../../../domain/shipping";
import { bookShipment } from "../../../worker/features/shipping/shipments";
import { handleShipmentQueue } from "../../../worker/features/shipping/booking-queue";
import type { Bindings } from "../../../worker/env";
import { type PaidOrder, paidOrder } from "./orders";

let booked = 0;

/**
 * An in-test carrier: books once per idempotency key (a repeat returns the first booking, as
 * Bring's does), cancels once per number, and can be told to refuse or not to answer.
 */
export class TestCarrier implements CarrierPort {
  answer: "book" | "refuse" | "unavailable" = "book";
  readonly bookCalls: string[] = [];
  readonly cancelCalls: Array<{ number: string; key: string }> = [];
  readonly cancelled = new Set<string>();
  private readonly bookings = new Map<string, { shipmentNumber: string; dropOffCode: string }>();

  async book(_parcel: ParcelBooking, key: string): Promise<BookingResult> {
    this.bookCalls.push(key);
    if (this.answer === "unavailable") return { kind: "unavailable", message: "503 Service Unavailable" };
    if (this.answer === "refuse") return { kind: "refused", message: "Avsenders telefonnummer mangler" };
    let booking = this.bookings.get(key);
    if (!booking) {
      // Unique across the file's tests (one database per file), as the carrier's numbers are.
      const n = String(++booked).padStart(7, "0");
      booking = { shipmentNumber: `70712345${n}`, dropOffCode: `LL12 ${n.slice(0, 4)} ${n.slice(4)}` };
      this.bookings.set(key, booking);
    }
    return { kind: "booked", ...booking };
  }

  async cancel(_carrier: Carrier, shipmentNumber: string, key: string): Promise<CancelResult> {
    this.cancelCalls.push({ number: shipmentNumber, key });
    if (this.answer === "unavailable") return { kind: "unavailable", message: "503 Service Unavailable" };
    this.cancelled.add(shipmentNumber);
    return { kind: "cancelled" };
  }
}

export interface SentOrder extends PaidOrder {
  shipmentId: string;
  paidAt: string;
}

/** A paid order whose toy is sent to a Posten pickup point (139 kr for a large parcel); booked unless told not to. */
export async function sentOrder(method: "card" | "vipps", carrier: TestCarrier, book = true): Promise<SentOrder> {
  const order = await paidOrder(method);
  const { paid_at } = (await env.DB.prepare("SELECT paid_at FROM orders WHERE id = ?1").bind(order.orderId).first<{ paid_at: string }>())!;
  const shipment = await createShipment(env.DB, order.orderId, paid_at, {
    carrier: "bring",
    method: "pickup_point",
    parcelSize: "large",
    pickupPoint: { id: "121212", name: "Coop Extra Grünerløkka", address: "Thorvald Meyers gate 40, 0555 Oslo" },
    shippingPrice: 13_900,
  });
  if (book) await bookShipment(env as Bindings, shipment.id, carrier);
  return { ...order, shipmentId: shipment.id, paidAt: paid_at };
}

export async function shipment(id: string): Promise<ShipmentRow> {
  return (await env.DB.prepare("SELECT * FROM shipments WHERE id = ?1").bind(id).first<ShipmentRow>())!;
}

export async function orderState(orderId: string) {
  return (await env.DB.prepare(
    "SELECT state, release_due_at, handed_over_at, problem_reason, problem_text, refund_amount FROM orders WHERE id = ?1",
  )
    .bind(orderId)
    .first<{
      state: string;
      release_due_at: string | null;
      handed_over_at: string | null;
      problem_reason: string | null;
      problem_text: string | null;
      refund_amount: number;
    }>())!;
}

export async function events(shipmentNumber: string) {
  const { results } = await env.DB.prepare(
    "SELECT event_id, code, applied FROM shipment_events WHERE shipment_number = ?1 ORDER BY received_at, event_id",
  )
    .bind(shipmentNumber)
    .all<{ event_id: string; code: string; applied: string | null }>();
  return results;
}

let eventCount = 0;
/** A Bring tracking event for the parcel, with a fresh event id unless one is given. */
export function bringEvent(shipmentNumber: string, code: string, eventId = `evt-${Date.now()}-${++eventCount}`) {
  return { carrier: "bring" as const, eventId, shipmentNumber, code, occurredAt: new Date().toISOString() };
}

/** Quick retries: a test that makes the sandbox fail does not wait a real carrier's back-off. */
export const FAST_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 5_000 };

/** The seller and buyer as the carrier books them (the profile keeps no street address yet). */
export const TEST_PARTIES: Parties = {
  sender: { name: "Siri Selger", addressLine: "Storgata 1", postalCode: "0150", city: "OSLO", phoneNumber: "+4791234567" },
  recipient: { name: "Kari Kjøper", addressLine: "Bryggen 2", postalCode: "5003", city: "BERGEN", phoneNumber: "+4798765432" },
};

/** The carrier client against the sandbox carrier (the Worker tests bind its keys and URL). */
export function sandboxBringClient(retry: RetryPolicy = FAST_RETRY): BringClient {
  const config = bringConfig(env as Bindings);
  if (!config) throw new Error("the Worker tests bind the sandbox's Bring keys (vitest.worker.config.mts)");
  return new BringClient(config, retry);
}

/** The Bring carrier against the sandbox, with TEST_PARTIES. */
export function sandboxBring(): BringCarrier {
  return new BringCarrier(sandboxBringClient(), async () => TEST_PARTIES);
}

/** A paid order's parcel waiting for its booking, to a pickup point the sandbox knows near the buyer. */
export async function bringOrder(method: "card" | "vipps" = "card"): Promise<SentOrder> {
  const order = await sentOrder(method, new TestCarrier(), false);
  const points = await sandboxBringClient().pickupPoints(TEST_PARTIES.recipient.postalCode, "manned");
  if (!points.ok) throw new Error(JSON.stringify(points));
  const point = points.value[0];
  await env.DB.prepare("UPDATE shipments SET pickup_point_id = ?2, pickup_point_name = ?3 WHERE id = ?1")
    .bind(order.shipmentId, point.id, point.name)
    .run();
  return order;
}

export interface SandboxParcel {
  consignmentNumber: string;
  labelFreeCode: string | null;
  correlationId: string | null;
  status: string;
  sender: SandboxParty;
  recipient: SandboxParty;
}

interface SandboxParty {
  name: string;
  addressLine: string;
  postalCode: string;
  city: string;
  contact?: { phoneNumber?: string };
}

/** The sandbox carrier's parcel with this number. */
export async function sandboxParcel(number: string): Promise<SandboxParcel | undefined> {
  const parcels = (await (await fetch(`${env.TEST_SANDBOX_URL}/__sandbox/bring/parcels`)).json()) as SandboxParcel[];
  return parcels.find((p) => p.consignmentNumber === number);
}

/** The sandbox carrier's next `times` calls with this idempotency key answer `status`. */
export async function failNextBring(times: number, status: number, key: string): Promise<void> {
  const res = await fetch(`${env.TEST_SANDBOX_URL}/__sandbox/bring/fail`, { method: "POST", body: JSON.stringify({ times, status, key }) });
  expect(res.status).toBe(200);
}

export interface ShipmentChoice {
  carrier: CarrierName;
  method: DeliveryMethod;
  parcelSize: ParcelSize;
  pickupPoint: { id: string; name: string; address: string } | null;
  /** Øre, from the offer the buyer paid (domain/carriers.ts shippingOffer). */
  shippingPrice: number;
}

/**
 * A paid order's parcel waiting for its booking, as the paid payment's batch writes it
 * (worker/features/payments/settle.ts), for orders paid without a checkout's "Sending"; its deadline
 * counts from the payment. The buyer's address is TEST_PARTIES' recipient.
 */
export async function createShipment(db: D1Database, orderId: string, paidAt: string, choice: ShipmentChoice): Promise<ShipmentRow> {
  await db
    .prepare(
      `INSERT INTO shipments (id, order_id, carrier, method, parcel_size, pickup_point_id, pickup_point_name, pickup_point_address,
         shipping_price, state, idempotency_key, drop_off_deadline,
         recipient_name, recipient_address_line, recipient_postal_code, recipient_city, recipient_phone)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'booking', ?10, ?11, ?12, ?13, ?14, ?15, ?16)`,
    )
    .bind(
      crypto.randomUUID(),
      orderId,
      choice.carrier,
      choice.method,
      choice.parcelSize,
      choice.pickupPoint?.id ?? null,
      choice.pickupPoint?.name ?? null,
      choice.pickupPoint?.address ?? null,
      choice.shippingPrice,
      `shipment-${orderId}`,
      dropOffDeadline(paidAt),
      TEST_PARTIES.recipient.name,
      TEST_PARTIES.recipient.addressLine,
      TEST_PARTIES.recipient.postalCode,
      "Bergen",
      "98765432",
    )
    .run();
  return (await db.prepare("SELECT * FROM shipments WHERE order_id = ?1").bind(orderId).first<ShipmentRow>())!;
}

// ---- Helthjem (decision 154) -----------------------------------------------------------------

/** Helthjem's client against the sandbox (the Worker tests bind its keys and URL). */
export function sandboxHelthjemClient(
  retry: RetryPolicy = FAST_RETRY,
  fetchImpl?: (input: string, init: RequestInit) => Promise<Response>,
) {
  const config = helthjemConfig(env as Bindings);
  if (!config) throw new Error("the Worker tests bind the sandbox's Helthjem keys (vitest.worker.config.mts)");
  return new HelthjemClient(config, retry, fetchImpl);
}

/** The Helthjem carrier against the sandbox, with TEST_PARTIES. */
export function sandboxHelthjem(): HelthjemCarrier {
  return new HelthjemCarrier(sandboxHelthjemClient(), async () => TEST_PARTIES);
}

/**
 * A paid order whose small toy goes with Helthjem: to the mailbox, or to the nearest of Helthjem's
 * service points near the buyer (from the sandbox's search); waiting for its booking.
 */
export async function helthjemOrder(
  delivery: "mailbox" | "pickup_point" = "pickup_point",
  method: "card" | "vipps" = "card",
): Promise<SentOrder> {
  const order = await paidOrder(method);
  const { paid_at } = (await env.DB.prepare("SELECT paid_at FROM orders WHERE id = ?1").bind(order.orderId).first<{ paid_at: string }>())!;
  let pickupPoint: { id: string; name: string; address: string } | null = null;
  if (delivery === "pickup_point") {
    const points = await sandboxHelthjemClient().servicePoints(TEST_PARTIES.recipient.postalCode);
    if (!points.ok) throw new Error(JSON.stringify(points));
    const [p] = points.value;
    pickupPoint = { id: p.id, name: p.name, address: `${p.address}, ${p.postalCode} ${p.city}` };
  }
  const shipment = await createShipment(env.DB, order.orderId, paid_at, {
    carrier: "helthjem",
    method: delivery,
    parcelSize: "small",
    pickupPoint,
    shippingPrice: delivery === "mailbox" ? 6_900 : 7_900,
  });
  return { ...order, shipmentId: shipment.id, paidAt: paid_at };
}

export interface SandboxHelthjemParcel {
  shipmentNumber: string;
  dropOffCode: string | null;
  status: string;
  transportSolutionId: number;
  consignee: { name: string; reference?: string | null };
  servicePoint: { servicePointExternalId: string } | null;
}

/** The sandbox's Helthjem parcel with this number. */
export async function sandboxHelthjemParcel(number: string): Promise<SandboxHelthjemParcel | undefined> {
  const parcels = (await (await fetch(`${env.TEST_SANDBOX_URL}/__sandbox/helthjem/parcels`)).json()) as SandboxHelthjemParcel[];
  return parcels.find((p) => p.shipmentNumber === number);
}

/** The sandbox's next `times` Helthjem calls with this idempotency key (or under this path) answer `status`. */
export async function failNextHelthjem(times: number, status: number, scope: { key?: string; path?: string }): Promise<void> {
  const res = await fetch(`${env.TEST_SANDBOX_URL}/__sandbox/helthjem/fail`, {
    method: "POST",
    body: JSON.stringify({ times, status, ...scope }),
  });
  expect(res.status).toBe(200);
}

/**
 * Deliver the shipment-booking queue's message for this order to the consumer, as the queue does,
 * with the Worker's own carrier port unless a test gives one.
 */
export async function runBookingQueue(orderId: string, port?: CarrierPort): Promise<"ack" | "retry"> {
  let outcome: "ack" | "retry" = "ack";
  const message = {
    id: crypto.randomUUID(),
    timestamp: new Date(),
    attempts: 1,
    body: { order_id: orderId },
    ack: () => void (outcome = "ack"),
    retry: () => void (outcome = "retry"),
  };
  const batch = { queue: "shipment-booking", messages: [message] } as unknown as MessageBatch<unknown>;
  // Without a port the consumer takes its own default, the Worker's (carrierPortFor).
  await handleShipmentQueue(batch, env as Bindings, port);
  return outcome;
}
