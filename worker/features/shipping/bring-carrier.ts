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

/** A party's columns as both queries below name them. */
interface PartyRow {
  name: string | null;
  address_line: string | null;
  postal_code: string | null;
  city: string | null;
  phone: string | null;
  email: string | null;
}

const withCountryCode = (phone: string) => (phone.startsWith("+") ? phone : phone.length === 8 ? `+47${phone}` : `+${phone}`);

/**
 * The parties of a sent order: the seller from the profile (name, street address, postal code and
 * place; the phone Vipps vouched for, when there is one), the buyer as given at checkout (decision
 * 150). A party without what the carrier needs is refused here, with the message that tells the
 * seller what to fill in, rather than by the carrier.
 */
export function profileParties(db: Db): PartiesSource {
  return async (parcel) => {
    const sender = await db
      .prepare(
        `SELECT sp.display_name AS name, sp.street_address AS address_line, sp.postal_code, pp.place_name AS city, su.phone, su.email
         FROM orders o JOIN payments p ON p.id = o.payment_id JOIN users su ON su.id = p.seller_id
         LEFT JOIN profiles sp ON sp.user_id = su.id LEFT JOIN postal_places pp ON pp.postal_code = sp.postal_code
         WHERE o.id = ?1`,
      )
      .bind(parcel.orderId)
      .first<PartyRow>();
    if (!sender?.name?.trim() || !sender.address_line?.trim() || !sender.postal_code || !sender.city) return { refused: "sender" };
    const recipient = await db
      .prepare(
        `SELECT s.recipient_name AS name, s.recipient_address_line AS address_line, s.recipient_postal_code AS postal_code,
                s.recipient_city AS city, s.recipient_phone AS phone, bu.email
         FROM shipments s JOIN orders o ON o.id = s.order_id JOIN payments p ON p.id = o.payment_id JOIN users bu ON bu.id = p.buyer_id
         WHERE s.order_id = ?1`,
      )
      .bind(parcel.orderId)
      .first<PartyRow>();
    if (!recipient?.name || !recipient.address_line || !recipient.postal_code || !recipient.city || !recipient.phone)
      return { refused: "recipient" };
    return {
      sender: {
        name: sender.name.trim(),
        addressLine: sender.address_line.trim(),
        postalCode: sender.postal_code,
        city: sender.city.toUpperCase(),
        phoneNumber: sender.phone ? withCountryCode(sender.phone) : null,
        email: sender.email,
      },
      recipient: {
        name: recipient.name,
        addressLine: recipient.address_line,
        postalCode: recipient.postal_code,
        city: recipient.city.toUpperCase(),
        phoneNumber: withCountryCode(recipient.phone),
        email: recipient.email,
      },
    };
  };
}
