// The CarrierPort over a carrier's HTTP client (decisions 145, 147, 154): the shipment code's booking
// and cancellation with the shipment's own idempotency key, so a retry after a lost answer is the
// carrier's replay and never a second parcel. The client's three answers map one to one: ok →
// booked / cancelled, refused → refused (the seller's Norwegian message), unavailable → unavailable
// (the cron repeats the same call). Bring (bring-carrier.ts) and Helthjem (helthjem-carrier.ts)
// differ only in their clients.
import type { Carrier } from "../../../domain/carriers";
import type { Booking, BookingRequest, CarrierResult, Party } from "../carriers/carrier-client";
import type { BookingResult, CancelResult, CarrierPort, ParcelBooking } from "./carrier-port";
import { carrierRefusals } from "../carriers/carrier-refusals";

export interface Parties {
  sender: Party;
  recipient: Party;
}

/** The seller's and buyer's names and addresses for a parcel; a refused result when one is missing. */
export type PartiesSource = (parcel: ParcelBooking) => Promise<Parties | { refused: "sender" | "recipient" }>;

/** What a carrier's HTTP client offers the port. */
export interface ParcelClient {
  book(request: BookingRequest, idempotencyKey: string): Promise<CarrierResult<Booking>>;
  cancel(shipmentNumber: string, idempotencyKey: string): Promise<CarrierResult<{ consignmentNumber: string }>>;
}

export class ParcelCarrier implements CarrierPort {
  readonly carriers: readonly Carrier[];

  constructor(
    readonly carrier: Carrier,
    private readonly client: ParcelClient,
    private readonly parties: PartiesSource,
  ) {
    this.carriers = [carrier];
  }

  async book(parcel: ParcelBooking, idempotencyKey: string): Promise<BookingResult> {
    const refusals = carrierRefusals(this.carrier);
    if (parcel.carrier !== this.carrier) return { kind: "refused", message: refusals.request };
    const found = await this.parties(parcel);
    // Asking the carrier with an address we know is missing would only be refused by it.
    if ("refused" in found) return { kind: "refused", message: refusals[found.refused] };
    const result = await this.client.book(
      {
        method: parcel.method,
        size: parcel.parcelSize,
        sender: found.sender,
        recipient: found.recipient,
        pickupPointId: parcel.pickupPointId,
        reference: parcel.orderId,
        // The parcel's own time, not the call's: a retry after a lost answer is then the same
        // request, which the carrier answers with the booking it made.
        shippingDateTime: parcel.createdAt,
      },
      idempotencyKey,
    );
    if (result.ok) return { kind: "booked", shipmentNumber: result.value.consignmentNumber, dropOffCode: result.value.dropOffCode };
    if (result.kind === "refused") return { kind: "refused", message: result.message };
    return { kind: "unavailable", message: unavailableMessage(result.status, result.detail) };
  }

  async cancel(carrier: Carrier, shipmentNumber: string, idempotencyKey: string): Promise<CancelResult> {
    if (carrier !== this.carrier) return { kind: "unavailable", message: `not a ${this.carrier} parcel: ${carrier}` };
    const result = await this.client.cancel(shipmentNumber, idempotencyKey);
    if (result.ok) return { kind: "cancelled" };
    // The carrier does not know the number: there is no booking left to cancel.
    if (result.kind === "refused" && result.status === 404) return { kind: "cancelled" };
    // A refusal (handed in after all) is kept and retried like no answer: the cron logs each try, and
    // an operator decides; it is never recorded as cancelled when the carrier said it is not.
    return {
      kind: "unavailable",
      message: result.kind === "refused" ? `${result.code}: ${result.detail}` : unavailableMessage(result.status, result.detail),
    };
  }
}

function unavailableMessage(status: number | null, detail: string): string {
  return status === null ? detail : `HTTP ${status}: ${detail}`;
}
