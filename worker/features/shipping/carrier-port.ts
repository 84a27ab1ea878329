// What the shipment code needs from a carrier (docs/decisions/145-shipping-rules.md): book a parcel
// and cancel a booking, each with Lekebytte's idempotency key, answering in three ways the code
// treats differently. The carrier's HTTP client implements it; the tests implement it in-test.
import type { Carrier, DeliveryMethod, ParcelSize } from "../../../domain/carriers";

/** The parcel as the carrier books it. */
export interface ParcelBooking {
  shipmentId: string;
  orderId: string;
  carrier: Carrier;
  method: DeliveryMethod;
  parcelSize: ParcelSize;
  /** The buyer's pickup point or parcel locker; null for the mailbox. */
  pickupPointId: string | null;
  /** When the parcel was created (ISO): the same on every try, so a repeat is the same request. */
  createdAt: string;
}

/**
 * booked: the carrier's shipment number and the code the seller writes on the parcel.
 * refused: the carrier answered no (a bad address, a size it does not take): the seller must act.
 * unavailable: no answer (network, timeout, 5xx): the same call is repeated later with the same key.
 */
export type BookingResult =
  | { kind: "booked"; shipmentNumber: string; dropOffCode: string }
  | { kind: "refused"; message: string }
  | { kind: "unavailable"; message: string };

/** cancelled: the booking is gone (or was already); unavailable: repeat later with the same key. */
export type CancelResult = { kind: "cancelled" } | { kind: "unavailable"; message: string };

export interface CarrierPort {
  /**
   * The carriers this port reaches (absent: every carrier). The cron asks it only about their
   * parcels, so a parcel of a carrier not configured waits, untouched, for a run that has it.
   */
  readonly carriers?: readonly Carrier[];
  book(parcel: ParcelBooking, idempotencyKey: string): Promise<BookingResult>;
  cancel(carrier: Carrier, shipmentNumber: string, idempotencyKey: string): Promise<CancelResult>;
}

/** The key of a shipment's cancellation: derived from its booking's, so every retry is the same call. */
export function cancelKey(bookingKey: string): string {
  return `cancel-${bookingKey}`;
}
