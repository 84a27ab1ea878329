// The CarrierPort for Bring (decisions 145, 147): the shipment code's booking and cancellation over
// the carrier's HTTP client, with the shipment's own idempotency key, so a retry after a lost answer
// is the carrier's replay and never a second parcel. The client's three answers map one to one:
// ok → booked / cancelled, refused → refused (the seller's Norwegian message), unavailable →
// unavailable (the cron repeats the same call).
import type { Carrier } from "../../../domain/carriers";
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { BringClient, type Party, type RetryPolicy } from "../carriers/carrier-client";
import { bringConfig } from "../carriers/carrier-config";
import type { BookingResult, CancelResult, CarrierPort, ParcelBooking } from "./carrier-port";
import { CARRIER_REFUSALS } from "../carriers/carrier-refusals";

export interface Parties {
  sender: Party;
  recipient: Party;
}

/** The seller's and buyer's names and addresses for a parcel; a refused result when one is missing. */
export type PartiesSource = (parcel: ParcelBooking) => Promise<Parties | { refused: "sender" | "recipient" }>;

export class BringCarrier implements CarrierPort {
  constructor(
    private readonly client: BringClient,
    private readonly parties: PartiesSource,
  ) {}

  async book(parcel: ParcelBooking, idempotencyKey: string): Promise<BookingResult> {
    if (parcel.carrier !== "bring") return { kind: "refused", message: CARRIER_REFUSALS.request };
    const found = await this.parties(parcel);
    // Asking the carrier with an address we know is missing would only be refused by it.
    if ("refused" in found) return { kind: "refused", message: CARRIER_REFUSALS[found.refused] };
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
    if (carrier !== "bring") return { kind: "unavailable", message: `not a Bring parcel: ${carrier}` };
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

/** The Bring carrier with the Worker's configuration, or null when Bring is not configured. */
export function bringCarrier(env: Bindings, parties: PartiesSource = profileParties(env.DB), retry?: RetryPolicy): BringCarrier | null {
  const config = bringConfig(env);
  return config ? new BringCarrier(new BringClient(config, retry), parties) : null;
}

interface PersonRow {
  name: string | null;
  postal_code: string | null;
  city: string | null;
  phone: string | null;
  email: string | null;
}

/**
 * The parties from the seller's and buyer's accounts: name, postal code and place, the phone Vipps
 * vouched for. The profile keeps no street address yet, and the carrier refuses a party without one
 * (decision 147), so until the profile has it `addressLine` is `streetAddress(userId)`'s answer and
 * a party without one is refused here, with the message that tells the seller what to fill in.
 */
export function profileParties(db: Db, streetAddress: (userId: string) => Promise<string | null> = async () => null): PartiesSource {
  const person = async (userId: string): Promise<Party | null> => {
    const row = await db
      .prepare(
        `SELECT p.display_name AS name, p.postal_code, pp.place_name AS city, u.phone, u.email
         FROM users u LEFT JOIN profiles p ON p.user_id = u.id LEFT JOIN postal_places pp ON pp.postal_code = p.postal_code
         WHERE u.id = ?1`,
      )
      .bind(userId)
      .first<PersonRow>();
    const addressLine = await streetAddress(userId);
    if (!row?.name || !row.postal_code || !row.city || !row.phone || !addressLine) return null;
    return {
      name: row.name,
      addressLine,
      postalCode: row.postal_code,
      city: row.city.toUpperCase(),
      phoneNumber: row.phone.startsWith("+") ? row.phone : `+${row.phone}`,
      email: row.email,
    };
  };
  return async (parcel) => {
    const ids = await db
      .prepare("SELECT p.seller_id, p.buyer_id FROM orders o JOIN payments p ON p.id = o.payment_id WHERE o.id = ?1")
      .bind(parcel.orderId)
      .first<{ seller_id: string; buyer_id: string }>();
    if (!ids) return { refused: "sender" };
    const sender = await person(ids.seller_id);
    if (!sender) return { refused: "sender" };
    const recipient = await person(ids.buyer_id);
    if (!recipient) return { refused: "recipient" };
    return { sender, recipient };
  };
}
