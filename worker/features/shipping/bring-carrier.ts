// The CarrierPort for Bring (decisions 145, 147): the shared port over Bring's HTTP client
// (parcel-carrier.ts), and the parties of a parcel from the accounts.
import type { Db } from "../../db/client";
import type { Bindings } from "../../env";
import { BringClient, type RetryPolicy } from "../carriers/carrier-client";
import { bringConfig } from "../carriers/carrier-config";
import { ParcelCarrier, type PartiesSource } from "./parcel-carrier";

export type { Parties, PartiesSource } from "./parcel-carrier";

export class BringCarrier extends ParcelCarrier {
  constructor(client: BringClient, parties: PartiesSource) {
    super("bring", client, parties);
  }
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
